import { event, segmentationScenario } from '../../support/scenario';

export default segmentationScenario({
  description: 'with on, values are keyed by the value, events without one left out; unique counts distinct users',
  query: { event: 'A', from_date: '2024-03-04', to_date: '2024-03-05', on: 'properties["plan"]', type: 'unique' },
  events: [
    event('A', '2024-03-04T10:00:00.000Z', 'u1', { plan: 'pro' }),
    event('A', '2024-03-04T11:00:00.000Z', 'u1', { plan: 'pro' }),
    event('A', '2024-03-04T12:00:00.000Z', 'u2', { plan: 'pro' }),
    event('A', '2024-03-04T12:00:00.000Z', 'u3'),
    event('A', '2024-03-05T00:00:00.000Z', 'u3', { plan: 3 }),
  ],
  expected: {
    data: {
      series: ['2024-03-04', '2024-03-05'],
      values: { pro: { '2024-03-04': 2, '2024-03-05': 0 }, '3': { '2024-03-04': 0, '2024-03-05': 1 } },
    },
    legend_size: 2,
  },
});
