import { event, retentionScenario } from '../../support/scenario';

export default retentionScenario({
  description:
    'interval i is [birth + i days, birth + i+1 days); returns after to_date count; counts has interval_count + 1 entries',
  query: { from_date: '2024-03-04', to_date: '2024-03-04', born_event: 'Signup', event: 'Open', interval_count: '3' },
  events: [
    event('Signup', '2024-03-04T12:00:00.000Z', 'u1'),
    event('Open', '2024-03-06T11:59:59.999Z', 'u1'),
    event('Signup', '2024-03-04T12:00:00.000Z', 'u2'),
    event('Open', '2024-03-06T12:00:00.000Z', 'u2'),
  ],
  expected: { '2024-03-04': { first: 2, counts: [0, 1, 1, 0] } },
});
