import { event, funnelScenario } from '../../support/scenario';

export default funnelScenario({
  description: 'interval=N makes N-day buckets from from_date, the last one cut at to_date; every bucket is listed',
  funnel: { steps: [{ event: 'A' }, { event: 'B' }], length: 1, length_unit: 'hour' },
  query: { from_date: '2024-03-04', to_date: '2024-03-10', interval: '3' },
  events: [event('A', '2024-03-06T23:59:59.999Z', 'u1'), event('A', '2024-03-07T00:00:00.000Z', 'u2')],
  expected: {
    meta: { dates: ['2024-03-04', '2024-03-07', '2024-03-10'] },
    data: {
      '2024-03-04': { steps: [{ count: 1 }, { count: 0 }] },
      '2024-03-07': { steps: [{ count: 1 }, { count: 0 }] },
      '2024-03-10': { steps: [{ count: 0 }, { count: 0 }], analysis: { starting_amount: 0, worst: 1 } },
    },
  },
});
