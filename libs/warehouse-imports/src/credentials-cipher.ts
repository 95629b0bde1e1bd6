import { AppConfig } from '@analytics/config';
import { installationSecret } from '@analytics/object-store';
import { SecretBox } from '@analytics/secrets';
import { Injectable } from '@nestjs/common';

/**
 * Seals warehouse credentials at rest. The key comes from WAREHOUSE_CREDENTIALS_KEY, else from the
 * installation's download link key (the same on every replica), through HKDF with its own purpose.
 */
@Injectable()
export class CredentialsCipher {
  private box: Promise<SecretBox> | undefined;

  constructor(private readonly config: AppConfig) {}

  private secrets(): Promise<SecretBox> {
    this.box ??= (async () => {
      const secret = this.config.warehouseCredentialsKey ?? (await installationSecret(this.config));
      return new SecretBox(secret, 'warehouse-source-credentials');
    })();
    return this.box;
  }

  async seal(connection: Record<string, unknown>): Promise<string> {
    return (await this.secrets()).seal(JSON.stringify(connection));
  }

  async open(sealed: string): Promise<Record<string, unknown>> {
    return JSON.parse((await this.secrets()).open(sealed)) as Record<string, unknown>;
  }
}
