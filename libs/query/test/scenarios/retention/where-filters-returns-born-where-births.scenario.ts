import { event, retentionScenario } from '../../support/scenario';

export default retentionScenario({
  description: 'born_where filters the birth events, where only the returning events',
  query: {
    from_date: '2024-03-04',
    to_date: '2024-03-04',
    born_event: 'Signup',
    event: 'Open',
    born_where: 'properties["ok"] == true',
    where: 'properties["plan"] == "pro"',
  },
  events: [
    event('Signup', '2024-03-03T10:00:00.000Z', 'u1', { ok: false }),
    event('Signup', '2024-03-04T10:00:00.000Z', 'u1', { ok: true }),
    event('Open', '2024-03-04T11:00:00.000Z', 'u1', { plan: 'free' }),
    event('Open', '2024-03-05T11:00:00.000Z', 'u1', { plan: 'pro' }),
  ],
  expected: { '2024-03-04': { first: 1, counts: [0, 1] } },
});
