import { event, retentionScenario } from '../../support/scenario';

export default retentionScenario({
  description: "birth is the user's first born_event over all their data; a user born before from_date is in no cohort",
  query: { from_date: '2024-03-04', to_date: '2024-03-05', born_event: 'Signup', event: 'Open' },
  events: [
    event('Signup', '2024-03-01T10:00:00.000Z', 'u1'),
    event('Signup', '2024-03-04T10:00:00.000Z', 'u1'),
    event('Open', '2024-03-05T09:00:00.000Z', 'u1'),
    event('Signup', '2024-03-04T10:00:00.000Z', 'u2'),
    event('Open', '2024-03-05T09:59:59.999Z', 'u2'),
  ],
  expected: { '2024-03-04': { first: 1, counts: [1, 0] }, '2024-03-05': { first: 0, counts: [0, 0] } },
});
