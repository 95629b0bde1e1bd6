import { event, funnelScenario } from '../../support/scenario';

export default funnelScenario({
  description:
    'unit=month buckets are keyed by the 1st; the last millisecond of a month and the first of the next fall apart',
  funnel: { steps: [{ event: 'A' }, { event: 'B' }], length: 1, length_unit: 'hour' },
  query: { from_date: '2024-01-30', to_date: '2024-02-02', unit: 'month' },
  events: [
    event('A', '2024-01-31T23:59:59.999Z', 'u1'),
    event('B', '2024-02-01T00:00:00.000Z', 'u1'),
    event('A', '2024-02-01T00:00:00.000Z', 'u2'),
  ],
  expected: {
    meta: { dates: ['2024-01-01', '2024-02-01'] },
    data: {
      '2024-01-01': { steps: [{ count: 1 }, { count: 1, avg_time: 0 }] },
      '2024-02-01': { steps: [{ count: 1 }, { count: 0 }] },
    },
  },
});
