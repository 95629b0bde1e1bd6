import { keyFileName, keyUrlPath, objectKey, objectPrefix } from './object-key';
import { ObjectStoreError, ObjectStoreErrorCode } from './object-store-error';

const refusal = (run: () => unknown): ObjectStoreError | undefined => {
  try {
    run();
  } catch (error) {
    if (error instanceof ObjectStoreError) return error;
    throw error;
  }
  return undefined;
};

describe('object keys', () => {
  it('accepts relative names of safe segments', () => {
    for (const key of [
      'a',
      'retrievals/42/task-1.json.gz',
      'pipelines/7/events/date=2024-01-01/part_0001.parquet',
      'x/y.z/_w',
      'A-1/b..c',
    ]) {
      expect(objectKey(key)).toBe(key);
    }
  });

  it.each([
    ['', 'empty'],
    ['..', 'parent'],
    ['../etc/passwd', 'parent first'],
    ['a/../../b', 'parent inside'],
    ['a/./b', 'current folder'],
    ['./a', 'leading current folder'],
    ['/etc/passwd', 'absolute'],
    ['a//b', 'doubled slash'],
    ['a/', 'trailing slash'],
    ['a\\..\\b', 'backslash'],
    ['C:\\x', 'drive letter'],
    ['a\0b', 'NUL'],
    ['a\nb', 'newline'],
    ['.hidden', 'hidden name'],
    ['a/.partial/x', 'the store folders'],
    ['a b', 'space'],
    ['a%2F..', 'percent'],
    ['a?b', 'query'],
    ['a*b', 'glob'],
    ['a{1,2}', 'braces'],
    ['é', 'non-ASCII'],
    ['a/\u202eb', 'bidi control'],
    ['a'.repeat(256), 'segment over 255'],
    [`${'a/'.repeat(512)}a`, 'key over 1024'],
  ])('refuses %j (%s) with invalid_key', (key) => {
    const error = refusal(() => objectKey(key));
    expect(error?.code).toBe(ObjectStoreErrorCode.InvalidKey);
    expect(error?.status).toBe(400);
  });

  it('refuses what is not a string', () => {
    for (const key of [undefined, null, 42, ['a'], { toString: () => 'a' }])
      expect(refusal(() => objectKey(key))?.code).toBe(ObjectStoreErrorCode.InvalidKey);
  });

  it('takes prefixes that may be empty, end in "/" or stop mid-segment, and nothing unsafe', () => {
    for (const prefix of ['', 'a', 'a/', 'retrievals/42/', 'retrievals/42/task-'])
      expect(objectPrefix(prefix)).toBe(prefix);
    for (const prefix of ['/', '/a', '../', 'a/../', 'a//', 'a/.', '.', 'a\0', 'a b/']) {
      expect(refusal(() => objectPrefix(prefix))?.code).toBe(ObjectStoreErrorCode.InvalidKey);
    }
  });

  it('names the download after the last segment and keeps the key readable in URLs', () => {
    expect(keyFileName('retrievals/42/task-1.json.gz')).toBe('task-1.json.gz');
    expect(keyFileName('single')).toBe('single');
    expect(keyUrlPath('pipelines/7/date=2024-01-01/part_1.parquet')).toBe(
      'pipelines/7/date%3D2024-01-01/part_1.parquet',
    );
  });
});
