import { event, flowsScenario } from '../../support/scenario';

export default flowsScenario({
  description: 'before: the events leading to the first anchor, in time order ending at it; fewer is drop-off',
  query: { event: 'Buy', direction: 'before', from_date: '2024-03-04', to_date: '2024-03-04', steps: '2' },
  events: [
    // u1: three events before the anchor: the two nearest count; the later Buy is not the anchor.
    event('Home', '2024-03-04T08:00:00.000Z', 'u1'),
    event('Search', '2024-03-04T08:10:00.000Z', 'u1'),
    event('View', '2024-03-04T08:20:00.000Z', 'u1'),
    event('Buy', '2024-03-04T08:30:00.000Z', 'u1'),
    event('View', '2024-03-04T08:40:00.000Z', 'u1'),
    event('Buy', '2024-03-04T08:50:00.000Z', 'u1'),
    // u2: one event before it in the range (the earlier one is before from_date).
    event('Home', '2024-03-03T23:00:00.000Z', 'u2'),
    event('View', '2024-03-04T01:00:00.000Z', 'u2'),
    event('Buy', '2024-03-04T02:00:00.000Z', 'u2'),
    // u3: the anchor is its first event.
    event('Buy', '2024-03-04T03:00:00.000Z', 'u3'),
  ],
  expected: {
    direction: 'before',
    people: 3,
    paths: [
      { steps: ['Buy'], count: 1 },
      { steps: ['Search', 'View', 'Buy'], count: 1 },
      { steps: ['View', 'Buy'], count: 1 },
    ],
    drop_off: [
      { step: 1, reached: 2, dropped: 1 },
      { step: 2, reached: 1, dropped: 1 },
    ],
  },
});
