import { parseBasicCredentials } from './basic-credentials';

const b64 = (text: string) => Buffer.from(text).toString('base64');

describe('parseBasicCredentials', () => {
  it.each([
    ['base64 of secret and colon', `Basic ${b64('s3cr3t:')}`, { username: 's3cr3t', password: '' }],
    ['base64 of user and password', `Basic ${b64('svc.user:pa:ss')}`, { username: 'svc.user', password: 'pa:ss' }],
    ['plain secret and colon', 'Basic s3cr3t:', { username: 's3cr3t', password: '' }],
    ['base64 of the secret alone', `Basic ${b64('s3cr3t')}`, { username: 's3cr3t', password: '' }],
    ['lower-case scheme', `basic ${b64('a:b')}`, { username: 'a', password: 'b' }],
    [
      'the secret as the password of an empty username',
      `Basic ${b64(':s3cr3t')}`,
      { username: 's3cr3t', password: '' },
    ],
    [
      'a hex secret given raw',
      'Basic 93d0819d25404248e54550171dc3ed55',
      { username: '93d0819d25404248e54550171dc3ed55', password: '' },
    ],
  ])('reads %s', (_, header, expected) => {
    expect(parseBasicCredentials(header)).toEqual(expected);
  });

  it.each([
    ['no header', undefined],
    ['empty', ''],
    ['another scheme', 'Bearer abc'],
    ['no credentials', 'Basic '],
    ['an empty username and password', `Basic ${b64(':')}`],
    ['a huge header', `Basic ${'a'.repeat(10_000)}`],
  ])('finds no credentials in %s', (_, header) => {
    expect(parseBasicCredentials(header)).toBeUndefined();
  });
});
