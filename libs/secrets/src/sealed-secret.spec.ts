import { SecretBox } from './sealed-secret';

describe('SecretBox', () => {
  const box = new SecretBox('installation-secret-0123456789abcdef', 'pipelines');

  it('opens what it sealed, and the sealed text does not hold the secret', () => {
    const sealed = box.seal('wJalrXUtnFEMI/K7MDENG');
    expect(sealed).not.toContain('wJalrXUtnFEMI');
    expect(box.open(sealed)).toBe('wJalrXUtnFEMI/K7MDENG');
    expect(box.seal('same')).not.toBe(box.seal('same'));
  });

  it('refuses text sealed under another secret or purpose, or tampered with', () => {
    const sealed = box.seal('secret');
    expect(() => new SecretBox('another-installation-secret-000000', 'pipelines').open(sealed)).toThrow();
    expect(() => new SecretBox('installation-secret-0123456789abcdef', 'imports').open(sealed)).toThrow();
    const parts = sealed.split('$');
    parts[3] = Buffer.from('x').toString('base64');
    expect(() => box.open(parts.join('$'))).toThrow();
    expect(() => box.open('plain')).toThrow('not a sealed secret');
  });
});
