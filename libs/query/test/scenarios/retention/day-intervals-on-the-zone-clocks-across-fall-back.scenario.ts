import { event, retentionScenario } from '../../support/scenario';

export default retentionScenario({
  description:
    'America/New_York: 2024-11-03 lasts 25 hours and is one cohort; day intervals count the clocks, so 25 real hours can be 24 on them',
  timeZone: 'America/New_York',
  query: {
    from_date: '2024-11-02',
    to_date: '2024-11-04',
    unit: 'day',
    born_event: 'Signup',
    event: 'Open',
    interval_count: '2',
  },
  events: [
    // 11-03 00:00 EDT (the day's first instant), back 11-03 23:30 EST: 24.5 hours later, same day.
    event('Signup', '2024-11-03T04:00:00.000Z', 'u1'),
    event('Open', '2024-11-04T04:30:00.000Z', 'u1'),
    // 11-02 23:59:59.999 EDT, back 11-04 00:00 EST: 25 hours later, one day and 1 ms on the clocks.
    event('Signup', '2024-11-03T03:59:59.999Z', 'u2'),
    event('Open', '2024-11-04T05:00:00.000Z', 'u2'),
    // 11-04 00:00 EST.
    event('Signup', '2024-11-04T05:00:00.000Z', 'u3'),
  ],
  expected: {
    '2024-11-02': { first: 1, counts: [0, 1, 0] },
    '2024-11-03': { first: 1, counts: [1, 0, 0] },
    '2024-11-04': { first: 1, counts: [0, 0, 0] },
  },
});
