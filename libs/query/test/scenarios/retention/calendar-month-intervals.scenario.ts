import { event, retentionScenario } from '../../support/scenario';

export default retentionScenario({
  description: 'unit=month: intervals are calendar months from the birth, Jan 31 + 1 month being Feb 29 (clamped)',
  query: { from_date: '2024-01-01', to_date: '2024-01-31', unit: 'month', born_event: 'Signup', event: 'Open' },
  events: [
    event('Signup', '2024-01-31T10:00:00.000Z', 'u1'),
    event('Open', '2024-02-29T09:59:59.999Z', 'u1'),
    event('Signup', '2024-01-31T10:00:00.000Z', 'u2'),
    event('Open', '2024-02-29T10:00:00.000Z', 'u2'),
  ],
  expected: { '2024-01-01': { first: 2, counts: [1, 1] } },
});
