import { event, funnelScenario } from '../../support/scenario';

export default funnelScenario({
  description:
    "on: the step-1 event's value names the segment; values past limit fold into $other; segments add up to $overall",
  funnel: { steps: [{ event: 'A' }, { event: 'B' }], length: 1, length_unit: 'hour' },
  query: { from_date: '2024-03-04', to_date: '2024-03-04', on: 'properties["plan"]', limit: '1' },
  events: [
    event('A', '2024-03-04T10:00:00.000Z', 'u1', { plan: 'pro' }),
    event('B', '2024-03-04T10:01:00.000Z', 'u1', { plan: 'free' }),
    event('A', '2024-03-04T10:00:00.000Z', 'u2', { plan: 'pro' }),
    event('A', '2024-03-04T10:00:00.000Z', 'u3', { plan: 'free' }),
    event('B', '2024-03-04T10:02:00.000Z', 'u3'),
    event('A', '2024-03-04T10:00:00.000Z', 'u4'),
  ],
  expected: {
    data: {
      '2024-03-04': {
        $overall: { steps: [{ count: 4 }, { count: 2, avg_time: 90 }] },
        pro: { steps: [{ count: 2 }, { count: 1, avg_time: 60 }] },
        $other: { steps: [{ count: 2 }, { count: 1, avg_time: 120 }] },
      },
    },
  },
});
