import { event, funnelScenario } from '../../support/scenario';

export default funnelScenario({
  description:
    'unit=week buckets are calendar weeks keyed by their Monday, even before from_date; starts before from_date do not count',
  funnel: { steps: [{ event: 'A' }, { event: 'B' }], length: 1, length_unit: 'hour' },
  query: { from_date: '2024-03-06', to_date: '2024-03-12', unit: 'week' },
  events: [
    event('A', '2024-03-05T12:00:00.000Z', 'u0'),
    event('A', '2024-03-06T00:00:00.000Z', 'u1'),
    event('A', '2024-03-12T23:59:59.999Z', 'u2'),
  ],
  expected: {
    meta: { dates: ['2024-03-04', '2024-03-11'] },
    data: {
      '2024-03-04': { steps: [{ count: 1 }, { count: 0 }] },
      '2024-03-11': { steps: [{ count: 1 }, { count: 0 }] },
    },
  },
});
