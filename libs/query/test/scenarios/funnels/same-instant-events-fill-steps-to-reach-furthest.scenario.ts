import { event, funnelScenario } from '../../support/scenario';

export default funnelScenario({
  description: 'same-instant events are assigned to steps so the attempt reaches furthest, not in arrival order',
  funnel: { steps: [{ event: 'A' }, { event: 'A', where: 'properties["p"] == 1' }], length: 1, length_unit: 'hour' },
  query: { from_date: '2024-03-04', to_date: '2024-03-04' },
  events: [
    event('A', '2024-03-04T10:00:00.000Z', 'u1', { p: 1 }, 'a1'),
    event('A', '2024-03-04T10:00:00.000Z', 'u1', { p: 0 }, 'a2'),
  ],
  expected: { data: { '2024-03-04': { steps: [{ count: 1 }, { count: 1, avg_time: 0 }] } } },
});
