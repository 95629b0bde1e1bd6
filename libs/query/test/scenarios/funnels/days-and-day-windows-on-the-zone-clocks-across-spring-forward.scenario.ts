import { event, funnelScenario } from '../../support/scenario';

export default funnelScenario({
  description:
    'Europe/Berlin: 2024-03-31 lasts 23 hours and is one bucket; a 1-day window ends at the same time on the clocks the next day (23 real hours across the change)',
  timeZone: 'Europe/Berlin',
  funnel: { steps: [{ event: 'A' }, { event: 'B' }], length: 1, length_unit: 'day' },
  query: { from_date: '2024-03-30', to_date: '2024-04-01', unit: 'day' },
  events: [
    // 03-30 23:30 CET, then 03-31 23:30 CEST: 23 hours later, exactly one day on the clocks.
    event('A', '2024-03-30T22:30:00.000Z', 'u1'),
    event('B', '2024-03-31T21:30:00.000Z', 'u1'),
    // 03-31 00:00 CET (the day's first instant), then 04-01 02:00 CEST: 25 hours, 26 on the clocks.
    event('A', '2024-03-30T23:00:00.000Z', 'u2'),
    event('B', '2024-04-01T00:00:00.000Z', 'u2'),
    // 03-31 23:59:59.999 CEST, the day's last instant; then 04-01 00:00 CEST.
    event('A', '2024-03-31T21:59:59.999Z', 'u3'),
    event('A', '2024-03-31T22:00:00.000Z', 'u4'),
  ],
  expected: {
    meta: { dates: ['2024-03-30', '2024-03-31', '2024-04-01'] },
    data: {
      '2024-03-30': { steps: [{ count: 1 }, { count: 1, avg_time: 82_800 }] },
      '2024-03-31': { steps: [{ count: 2 }, { count: 0 }] },
      '2024-04-01': { steps: [{ count: 1 }, { count: 0 }] },
    },
  },
});
