import { checkDownload, signDownload } from './download-signature';

describe('download link signatures', () => {
  const secret = 'k'.repeat(32);
  const key = 'retrievals/42/abc.json.gz';
  const expires = 1_700_000_000;
  const signature = signDownload(secret, key, expires);
  const before = expires * 1000 - 1;

  it('is a 43-character base64url HMAC that depends on the secret, the key and the expiry', () => {
    expect(signature).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(signDownload(secret, key, expires)).toBe(signature);
    expect(signDownload('x'.repeat(32), key, expires)).not.toBe(signature);
    expect(signDownload(secret, `${key}x`, expires)).not.toBe(signature);
    expect(signDownload(secret, key, expires + 1)).not.toBe(signature);
  });

  it('accepts its own links until the expiry and refuses them from that second on', () => {
    expect(checkDownload(secret, key, String(expires), signature, before)).toBe('valid');
    expect(checkDownload(secret, key, String(expires), signature, expires * 1000)).toBe('expired');
  });

  it('refuses a link for another key, another expiry, another secret or a changed signature', () => {
    expect(checkDownload(secret, 'retrievals/42/other.json.gz', String(expires), signature, before)).toBe('invalid');
    expect(checkDownload(secret, key, String(expires + 3600), signature, before)).toBe('invalid');
    expect(checkDownload('x'.repeat(32), key, String(expires), signature, before)).toBe('invalid');
    const flipped = `${signature.slice(0, 10)}${signature[10] === 'A' ? 'B' : 'A'}${signature.slice(11)}`;
    expect(checkDownload(secret, key, String(expires), flipped, before)).toBe('invalid');
  });

  it('refuses malformed or missing parameters without comparing', () => {
    for (const [e, s] of [
      [undefined, signature],
      [String(expires), undefined],
      ['', signature],
      ['1e9', signature],
      [` ${expires}`, signature],
      [String(expires), `${signature}=`],
      [String(expires), signature.slice(1)],
      [String(expires), ['array']],
    ]) {
      expect(checkDownload(secret, key, e, s, before)).toBe('invalid');
    }
  });

  it('says invalid, not expired, for a forged link whatever the time', () => {
    expect(checkDownload(secret, key, String(expires), 'A'.repeat(43), expires * 1000 + 1)).toBe('invalid');
  });
});
