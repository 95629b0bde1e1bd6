import { event, funnelScenario } from '../../support/scenario';

export default funnelScenario({
  description: 'per user and bucket one attempt: the deepest, then the earliest start',
  funnel: { steps: [{ event: 'A' }, { event: 'B' }, { event: 'C' }], length: 10, length_unit: 'minute' },
  query: { from_date: '2024-03-04', to_date: '2024-03-04' },
  events: [
    // u1: a shallow attempt first, then a complete one.
    event('A', '2024-03-04T09:00:00.000Z', 'u1'),
    event('B', '2024-03-04T09:05:00.000Z', 'u1'),
    event('A', '2024-03-04T10:00:00.000Z', 'u1'),
    event('B', '2024-03-04T10:01:00.000Z', 'u1'),
    event('C', '2024-03-04T10:02:00.000Z', 'u1'),
    // u2: two attempts as deep: the earlier (1 minute to B) is the one, not the later (5 minutes).
    event('A', '2024-03-04T11:00:00.000Z', 'u2'),
    event('B', '2024-03-04T11:01:00.000Z', 'u2'),
    event('A', '2024-03-04T12:00:00.000Z', 'u2'),
    event('B', '2024-03-04T12:05:00.000Z', 'u2'),
  ],
  expected: {
    data: {
      '2024-03-04': {
        steps: [
          { count: 2 },
          { count: 2, avg_time: 60, avg_time_from_start: 60 },
          { count: 1, avg_time: 60, avg_time_from_start: 120 },
        ],
        analysis: { completion: 1, starting_amount: 2, steps: 3, worst: 2 },
      },
    },
  },
});
