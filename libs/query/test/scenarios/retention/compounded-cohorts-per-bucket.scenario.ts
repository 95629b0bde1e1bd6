import { event, retentionScenario } from '../../support/scenario';

export default retentionScenario({
  description: "compounded: each bucket's cohort is who did the event there, born at their first occurrence in it",
  query: { from_date: '2024-03-04', to_date: '2024-03-05', retention_type: 'compounded', event: 'Open' },
  events: [
    event('Open', '2024-03-04T10:00:00.000Z', 'u1'),
    event('Open', '2024-03-05T09:00:00.000Z', 'u1'),
    event('Open', '2024-03-05T11:00:00.000Z', 'u1'),
  ],
  expected: { '2024-03-04': { first: 1, counts: [1, 1] }, '2024-03-05': { first: 1, counts: [1, 0] } },
});
