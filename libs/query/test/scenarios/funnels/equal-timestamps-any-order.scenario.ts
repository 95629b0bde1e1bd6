import { event, funnelScenario } from '../../support/scenario';

export default funnelScenario({
  description: 'events at the same instant count as ordered, whatever order they arrived in',
  funnel: { steps: [{ event: 'A' }, { event: 'B' }], length: 1, length_unit: 'hour' },
  query: { from_date: '2024-03-04', to_date: '2024-03-04' },
  events: [event('B', '2024-03-04T10:00:00.000Z', 'u1'), event('A', '2024-03-04T10:00:00.000Z', 'u1')],
  expected: { data: { '2024-03-04': { steps: [{ count: 1 }, { count: 1, avg_time: 0, avg_time_from_start: 0 }] } } },
});
