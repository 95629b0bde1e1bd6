import { event, flowsScenario } from '../../support/scenario';

export default flowsScenario({
  description: 'where picks the anchor (the first one passing it), never the steps; limit keeps the most taken',
  query: {
    event: 'Sign up',
    from_date: '2024-03-04',
    to_date: '2024-03-04',
    steps: '1',
    where: 'properties["plan"] == "pro"',
    limit: '1',
  },
  events: [
    // u1: the first Sign up is free, so the pro one at 10:00 is the anchor; its next step has no plan.
    event('Sign up', '2024-03-04T09:00:00.000Z', 'u1', { plan: 'free' }),
    event('Home', '2024-03-04T09:30:00.000Z', 'u1'),
    event('Sign up', '2024-03-04T10:00:00.000Z', 'u1', { plan: 'pro' }),
    event('View', '2024-03-04T10:30:00.000Z', 'u1', { plan: 'free' }),
    // u2 and u3: pro, then View; u4: pro, then Home; u5: only free.
    event('Sign up', '2024-03-04T11:00:00.000Z', 'u2', { plan: 'pro' }),
    event('View', '2024-03-04T11:01:00.000Z', 'u2'),
    event('Sign up', '2024-03-04T12:00:00.000Z', 'u3', { plan: 'pro' }),
    event('View', '2024-03-04T12:01:00.000Z', 'u3'),
    event('Sign up', '2024-03-04T13:00:00.000Z', 'u4', { plan: 'pro' }),
    event('Home', '2024-03-04T13:01:00.000Z', 'u4'),
    event('Sign up', '2024-03-04T14:00:00.000Z', 'u5', { plan: 'free' }),
    event('View', '2024-03-04T14:01:00.000Z', 'u5'),
  ],
  expected: {
    people: 4,
    paths: [{ steps: ['Sign up', 'View'], count: 3 }],
    other: { paths: 1, count: 1 },
    drop_off: [{ step: 1, reached: 4, dropped: 0 }],
  },
});
