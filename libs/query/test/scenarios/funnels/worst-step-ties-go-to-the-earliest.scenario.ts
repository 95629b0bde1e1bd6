import { event, funnelScenario } from '../../support/scenario';

export default funnelScenario({
  description:
    'analysis.worst is the step losing the most users, the earliest on a tie; a zero denominator gives ratio 0',
  funnel: { steps: [{ event: 'A' }, { event: 'B' }, { event: 'C' }, { event: 'D' }], length: 1, length_unit: 'hour' },
  query: { from_date: '2024-03-04', to_date: '2024-03-04' },
  events: [
    ...['u1', 'u2'].flatMap((u) => [
      event('A', '2024-03-04T10:00:00.000Z', u),
      event('B', '2024-03-04T10:01:00.000Z', u),
    ]),
    event('A', '2024-03-04T10:00:00.000Z', 'u3'),
    event('A', '2024-03-04T10:00:00.000Z', 'u4'),
  ],
  expected: {
    data: {
      '2024-03-04': {
        steps: [
          { count: 4 },
          { count: 2, step_conv_ratio: 0.5 },
          { count: 0, step_conv_ratio: 0, overall_conv_ratio: 0 },
          { count: 0, step_conv_ratio: 0, overall_conv_ratio: 0 },
        ],
        analysis: { completion: 0, starting_amount: 4, steps: 4, worst: 1 },
      },
    },
  },
});
