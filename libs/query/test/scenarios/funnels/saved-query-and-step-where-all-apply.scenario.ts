import { event, funnelScenario } from '../../support/scenario';

export default funnelScenario({
  description: "the saved where, the query's where and a step's own where all apply",
  funnel: {
    steps: [{ event: 'A' }, { event: 'B', where: 'properties["ok"] == true' }],
    length: 1,
    length_unit: 'hour',
    where: 'properties["plan"] != "free"',
  },
  query: { from_date: '2024-03-04', to_date: '2024-03-04', where: 'properties["n"] > 1' },
  events: [
    event('A', '2024-03-04T10:00:00.000Z', 'u1', { plan: 'pro', n: 2 }),
    event('B', '2024-03-04T10:01:00.000Z', 'u1', { plan: 'pro', n: 2, ok: true }),
    event('A', '2024-03-04T10:00:00.000Z', 'u2', { plan: 'free', n: 2 }),
    event('A', '2024-03-04T10:00:00.000Z', 'u3', { plan: 'pro', n: 0 }),
    event('A', '2024-03-04T10:00:00.000Z', 'u4', { plan: 'pro', n: 2 }),
    event('B', '2024-03-04T10:01:00.000Z', 'u4', { plan: 'pro', n: 2, ok: false }),
  ],
  expected: { data: { '2024-03-04': { steps: [{ count: 2 }, { count: 1 }] } } },
});
