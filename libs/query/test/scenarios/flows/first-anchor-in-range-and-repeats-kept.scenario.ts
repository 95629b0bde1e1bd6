import { event, flowsScenario } from '../../support/scenario';

export default flowsScenario({
  description:
    'the first anchor in the range is the one; the events right after it, repeats kept; a shorter path is drop-off',
  query: { event: 'Sign up', from_date: '2024-03-04', to_date: '2024-03-05', steps: '3' },
  events: [
    // u1: an anchor before the range does not count; the first in the range does, then View twice.
    event('Sign up', '2024-03-03T23:59:59.999Z', 'u1'),
    event('Home', '2024-03-04T00:00:00.000Z', 'u1'),
    event('Sign up', '2024-03-04T09:00:00.000Z', 'u1'),
    event('View', '2024-03-04T09:01:00.000Z', 'u1'),
    event('View', '2024-03-04T09:02:00.000Z', 'u1'),
    event('Sign up', '2024-03-04T09:03:00.000Z', 'u1'),
    event('Buy', '2024-03-04T09:04:00.000Z', 'u1'),
    // u2: the same path.
    event('Sign up', '2024-03-05T10:00:00.000Z', 'u2'),
    event('View', '2024-03-05T10:01:00.000Z', 'u2'),
    event('View', '2024-03-05T10:02:00.000Z', 'u2'),
    event('Sign up', '2024-03-05T10:03:00.000Z', 'u2'),
    // u3: one event after the anchor, then nothing in the range (the next is after to_date).
    event('Sign up', '2024-03-05T23:00:00.000Z', 'u3'),
    event('View', '2024-03-05T23:30:00.000Z', 'u3'),
    event('Buy', '2024-03-06T00:00:00.000Z', 'u3'),
    // u4: never does the anchor.
    event('View', '2024-03-04T12:00:00.000Z', 'u4'),
  ],
  expected: {
    event: 'Sign up',
    direction: 'after',
    people: 3,
    paths: [
      { steps: ['Sign up', 'View', 'View', 'Sign up'], count: 2 },
      { steps: ['Sign up', 'View'], count: 1 },
    ],
    other: { paths: 0, count: 0 },
    drop_off: [
      { step: 1, reached: 3, dropped: 0 },
      { step: 2, reached: 2, dropped: 1 },
      { step: 3, reached: 2, dropped: 0 },
    ],
  },
});
