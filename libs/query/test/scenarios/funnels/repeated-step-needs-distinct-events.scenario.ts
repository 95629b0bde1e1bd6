import { event, funnelScenario } from '../../support/scenario';

export default funnelScenario({
  description:
    'a repeated step needs another occurrence: an exact duplicate is the same one, a second insert id at the same instant is not',
  funnel: { steps: [{ event: 'A' }, { event: 'A' }], length: 1, length_unit: 'hour' },
  query: { from_date: '2024-03-04', to_date: '2024-03-04' },
  events: [
    event('A', '2024-03-04T10:00:00.000Z', 'u1', {}, 'same'),
    event('A', '2024-03-04T10:00:00.000Z', 'u1', {}, 'same'),
    event('A', '2024-03-04T10:00:00.000Z', 'u2', {}, 'first'),
    event('A', '2024-03-04T10:00:00.000Z', 'u2', {}, 'second'),
  ],
  expected: { data: { '2024-03-04': { steps: [{ count: 2 }, { count: 1, avg_time: 0 }] } } },
});
