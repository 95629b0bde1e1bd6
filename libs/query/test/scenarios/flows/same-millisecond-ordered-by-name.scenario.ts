import { event, flowsScenario } from '../../support/scenario';

export default flowsScenario({
  description:
    'events at the anchor’s millisecond follow it when their name sorts after it; a copy of the anchor there is the anchor',
  query: { event: 'M', from_date: '2024-03-04', to_date: '2024-03-04', steps: '2' },
  events: [
    // u1: at 09:00:00.000, A < M < Z: A is before the anchor, Z after it; the second M (another insert id) is no step.
    event('Z', '2024-03-04T09:00:00.000Z', 'u1'),
    event('M', '2024-03-04T09:00:00.000Z', 'u1', {}, 'm1'),
    event('M', '2024-03-04T09:00:00.000Z', 'u1', {}, 'm2'),
    event('A', '2024-03-04T09:00:00.000Z', 'u1'),
    event('B', '2024-03-04T09:00:00.001Z', 'u1'),
    // u2: the same steps a millisecond apart, in another order of arrival.
    event('B', '2024-03-04T10:00:00.001Z', 'u2'),
    event('M', '2024-03-04T10:00:00.000Z', 'u2'),
    event('Z', '2024-03-04T10:00:00.000Z', 'u2'),
  ],
  expected: {
    people: 2,
    paths: [{ steps: ['M', 'Z', 'B'], count: 2 }],
    drop_off: [
      { step: 1, reached: 2, dropped: 0 },
      { step: 2, reached: 2, dropped: 0 },
    ],
  },
});
