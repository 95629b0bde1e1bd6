import { event, funnelScenario } from '../../support/scenario';

export default funnelScenario({
  description: 'a step exactly at the end of the window converts; one second later it does not',
  funnel: { steps: [{ event: 'A' }, { event: 'B' }], length: 1, length_unit: 'day' },
  query: { from_date: '2024-03-04', to_date: '2024-03-04' },
  events: [
    event('A', '2024-03-04T10:00:00.000Z', 'u1'),
    event('B', '2024-03-05T10:00:00.000Z', 'u1'),
    event('A', '2024-03-04T11:00:00.000Z', 'u2'),
    event('B', '2024-03-05T11:00:01.000Z', 'u2'),
  ],
  expected: {
    meta: { dates: ['2024-03-04'] },
    data: {
      '2024-03-04': {
        steps: [
          {
            count: 2,
            step_conv_ratio: 1,
            overall_conv_ratio: 1,
            avg_time: null,
            avg_time_from_start: null,
            goal: 'A',
            event: 'A',
          },
          {
            count: 1,
            step_conv_ratio: 0.5,
            overall_conv_ratio: 0.5,
            avg_time: 86400,
            avg_time_from_start: 86400,
            goal: 'B',
            event: 'B',
          },
        ],
        analysis: { completion: 1, starting_amount: 2, steps: 2, worst: 1 },
      },
    },
  },
});
