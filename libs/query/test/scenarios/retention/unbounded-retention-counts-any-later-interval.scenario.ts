import { event, retentionScenario } from '../../support/scenario';

export default retentionScenario({
  description: 'unbounded_retention: counts[i] is the users returning in any reported interval from i on',
  query: {
    from_date: '2024-03-04',
    to_date: '2024-03-04',
    born_event: 'Signup',
    event: 'Open',
    interval_count: '2',
    unbounded_retention: 'true',
  },
  events: [
    event('Signup', '2024-03-04T00:00:00.000Z', 'u1'),
    event('Open', '2024-03-06T01:00:00.000Z', 'u1'),
    event('Signup', '2024-03-04T00:00:00.000Z', 'u2'),
    event('Open', '2024-03-04T01:00:00.000Z', 'u2'),
    event('Signup', '2024-03-04T00:00:00.000Z', 'u3'),
    event('Open', '2024-03-09T00:00:00.000Z', 'u3'),
  ],
  expected: { '2024-03-04': { first: 3, counts: [2, 1, 1] } },
});
