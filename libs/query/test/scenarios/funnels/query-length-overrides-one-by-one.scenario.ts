import { event, funnelScenario } from '../../support/scenario';

export default funnelScenario({
  description: "the query's length_unit overrides the saved one and keeps the saved length: 2 hours become 2 minutes",
  funnel: { steps: [{ event: 'A' }, { event: 'B' }], length: 2, length_unit: 'hour' },
  query: { from_date: '2024-03-04', to_date: '2024-03-04', length_unit: 'minute' },
  events: [
    event('A', '2024-03-04T10:00:00.000Z', 'u1'),
    event('B', '2024-03-04T10:02:00.000Z', 'u1'),
    event('A', '2024-03-04T11:00:00.000Z', 'u2'),
    event('B', '2024-03-04T11:03:00.000Z', 'u2'),
  ],
  expected: { data: { '2024-03-04': { steps: [{ count: 2 }, { count: 1, avg_time: 120 }] } } },
});
