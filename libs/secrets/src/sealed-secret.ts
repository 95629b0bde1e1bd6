import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/**
 * A secret kept at rest that must be read back (a destination's access key), unlike credentials,
 * which are only ever verified. AES-256-GCM under a key derived from an installation secret and a
 * purpose label, so one installation secret serves several stores without their keys being equal.
 */
export class SecretBox {
  private readonly key: Buffer;

  constructor(installationSecret: string, purpose: string) {
    this.key = Buffer.from(hkdfSync('sha256', installationSecret, Buffer.alloc(0), `analytics:${purpose}`, 32));
  }

  seal(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return ['v1', iv.toString('base64'), cipher.getAuthTag().toString('base64'), body.toString('base64')].join('$');
  }

  /** Throws when the text was not sealed by this box (another installation secret, tampering). */
  open(sealed: string): string {
    const [version, iv, tag, body] = sealed.split('$');
    if (version !== 'v1' || !iv || !tag || body === undefined) throw new Error('not a sealed secret');
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64'));
    decipher.setAuthTag(Buffer.from(tag, 'base64'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64')), decipher.final()]).toString('utf8');
  }
}
