import { event, funnelScenario } from '../../support/scenario';

export default funnelScenario({
  description: "later steps may fall after to_date: the user converts in the start's bucket",
  funnel: { steps: [{ event: 'A' }, { event: 'B' }], length: 1, length_unit: 'hour' },
  query: { from_date: '2024-03-04', to_date: '2024-03-04' },
  events: [event('A', '2024-03-04T23:30:00.000Z', 'u1'), event('B', '2024-03-05T00:10:00.000Z', 'u1')],
  expected: {
    meta: { dates: ['2024-03-04'] },
    data: { '2024-03-04': { steps: [{ count: 1 }, { count: 1, avg_time: 2400 }] } },
  },
});
