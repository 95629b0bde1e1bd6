import { decodeProfileUpdate } from './profile-update';

const update = {
  projectId: 7,
  groupKey: '',
  profileId: 'u1',
  op: '$set',
  properties: { plan: 'pro' },
  timeMs: 1_700_000_000_000,
};

describe('a profile update decoded from its Kafka message', () => {
  it('is the update the gateway wrote', () => {
    expect(decodeProfileUpdate(JSON.parse(JSON.stringify(update)))).toEqual(update);
  });

  it('is refused when its project id is one no project can have (dead-lettered, never retried against the store)', () => {
    for (const projectId of [0, -1, 1.5, 2 ** 31, 2 ** 32, '7']) {
      expect(() => decodeProfileUpdate({ ...update, projectId })).toThrow('not a profile update');
    }
  });
});
