import { event, insightsScenario } from '../../support/scenario';

export default insightsScenario({
  description:
    'Europe/Berlin, unit=hour on 2024-10-27: the clocks repeat 02:00, one key holding both hours; keys and date_range carry the offset',
  timeZone: 'Europe/Berlin',
  params: {
    events: [{ event: 'A', math: 'total' }],
    from_date: '2024-10-27',
    to_date: '2024-10-27',
    unit: 'hour',
  },
  events: [
    event('A', '2024-10-26T22:00:00.000Z', 'u1'),
    // 02:30 CEST, then 02:30 CET an hour later.
    event('A', '2024-10-27T00:30:00.000Z', 'u1'),
    event('A', '2024-10-27T01:30:00.000Z', 'u2'),
    event('A', '2024-10-27T02:00:00.000Z', 'u2'),
  ],
  expected: {
    date_range: { from_date: '2024-10-27T00:00:00+02:00', to_date: '2024-10-27T23:59:59.999000+01:00' },
    series: {
      A: {
        '2024-10-27T00:00:00+02:00': 1,
        '2024-10-27T01:00:00+02:00': 0,
        '2024-10-27T02:00:00+02:00': 2,
        '2024-10-27T03:00:00+01:00': 1,
        '2024-10-27T23:00:00+01:00': 0,
      },
    },
  },
});
