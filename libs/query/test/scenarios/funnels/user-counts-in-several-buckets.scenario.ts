import { event, funnelScenario } from '../../support/scenario';

export default funnelScenario({
  description: 'a user counts once per bucket and may count in several',
  funnel: { steps: [{ event: 'A' }, { event: 'B' }], length: 1, length_unit: 'hour' },
  query: { from_date: '2024-03-04', to_date: '2024-03-05' },
  events: [
    event('A', '2024-03-04T10:00:00.000Z', 'u1'),
    event('A', '2024-03-04T10:01:00.000Z', 'u1'),
    event('B', '2024-03-04T10:05:00.000Z', 'u1'),
    event('A', '2024-03-05T10:00:00.000Z', 'u1'),
  ],
  expected: {
    meta: { dates: ['2024-03-04', '2024-03-05'] },
    data: {
      '2024-03-04': { steps: [{ count: 1 }, { count: 1, avg_time: 300 }] },
      '2024-03-05': { steps: [{ count: 1 }, { count: 0, avg_time: null }] },
    },
  },
});
