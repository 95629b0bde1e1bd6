import { event, retentionScenario } from '../../support/scenario';

export default retentionScenario({
  description:
    'when the return event is the born event, the birth occurrence is not a return; another occurrence at the same instant is',
  query: { from_date: '2024-03-04', to_date: '2024-03-04', born_event: 'Open', event: 'Open' },
  events: [
    event('Open', '2024-03-04T10:00:00.000Z', 'u1'),
    event('Open', '2024-03-04T10:00:00.000Z', 'u2', {}, 'b'),
    event('Open', '2024-03-04T10:00:00.000Z', 'u2', {}, 'a'),
  ],
  expected: { '2024-03-04': { first: 2, counts: [1, 0] } },
});
