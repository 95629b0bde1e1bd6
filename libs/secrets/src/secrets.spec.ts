import { generateCredential, hashSecret, secretLookupKey, verifySecret } from './secrets';

describe('secrets', () => {
  it('verifies the secret it hashed and nothing else', async () => {
    const secret = generateCredential();
    const stored = await hashSecret(secret);
    expect(stored).not.toContain(secret);
    await expect(verifySecret(secret, stored)).resolves.toBe(true);
    await expect(verifySecret(`${secret}x`, stored)).resolves.toBe(false);
    await expect(verifySecret(secret, 'garbage')).resolves.toBe(false);
  });

  it('salts every hash', async () => {
    expect(await hashSecret('same-secret-value')).not.toEqual(await hashSecret('same-secret-value'));
  });

  it('makes 32-hex credentials and 8-hex lookup keys', () => {
    expect(generateCredential()).toMatch(/^[0-9a-f]{32}$/);
    expect(secretLookupKey('abc')).toMatch(/^[0-9a-f]{8}$/);
  });
});
