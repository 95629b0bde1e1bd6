import { event, retentionScenario } from '../../support/scenario';

export default retentionScenario({
  description:
    'compounded: `where` filters the one event, so it defines the cohort and its first occurrence as well as the returns',
  query: {
    from_date: '2024-03-04',
    to_date: '2024-03-04',
    retention_type: 'compounded',
    event: 'Open',
    where: 'properties["plan"] == "pro"',
  },
  events: [
    // u1 is born at 12:00 (the first "pro" Open), not at 10:00: its 03-05 return is 23 hours later, in interval 0.
    event('Open', '2024-03-04T10:00:00.000Z', 'u1', { plan: 'free' }),
    event('Open', '2024-03-04T12:00:00.000Z', 'u1', { plan: 'pro' }),
    event('Open', '2024-03-05T11:00:00.000Z', 'u1', { plan: 'pro' }),
    // u2 never opened as "pro": not in the cohort.
    event('Open', '2024-03-04T09:00:00.000Z', 'u2', { plan: 'free' }),
  ],
  expected: { '2024-03-04': { first: 1, counts: [1, 0] } },
});
