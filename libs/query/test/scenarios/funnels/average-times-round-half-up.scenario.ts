import { event, funnelScenario } from '../../support/scenario';

export default funnelScenario({
  description: 'avg_time is the mean in seconds over users reaching the step, halves rounded up',
  funnel: { steps: [{ event: 'A' }, { event: 'B' }, { event: 'C' }], length: 1, length_unit: 'hour' },
  query: { from_date: '2024-03-04', to_date: '2024-03-04' },
  events: [
    event('A', '2024-03-04T10:00:00.000Z', 'u1'),
    event('B', '2024-03-04T10:00:01.000Z', 'u1'),
    event('C', '2024-03-04T10:00:01.499Z', 'u1'),
    event('A', '2024-03-04T11:00:00.000Z', 'u2'),
    event('B', '2024-03-04T11:00:02.000Z', 'u2'),
  ],
  expected: {
    data: {
      '2024-03-04': {
        steps: [
          { count: 2 },
          { count: 2, avg_time: 2, avg_time_from_start: 2 },
          { count: 1, avg_time: 0, avg_time_from_start: 1 },
        ],
      },
    },
  },
});
