import { AppConfig } from '@analytics/config';
import { Injectable } from '@nestjs/common';
import { AccountsRepository } from './accounts.repository';
import { ServiceAccountsService } from './service-accounts.service';

export interface BootstrappedAccount {
  username: string;
  /** Shown once when generated; undefined when it came from BOOTSTRAP_SERVICE_ACCOUNT_SECRET. */
  secret: string;
  generated: boolean;
}

/** The first owner of a new organization, from BOOTSTRAP_SERVICE_ACCOUNT_* or generated and printed once. */
@Injectable()
export class AccountBootstrapService {
  constructor(
    private readonly config: AppConfig,
    private readonly accounts: ServiceAccountsService,
    private readonly repository: AccountsRepository,
  ) {}

  async ensureOwner(organizationId: number): Promise<BootstrappedAccount | undefined> {
    if ((await this.repository.listByOrganization(organizationId)).length) return undefined;
    const given = this.config.bootstrap.serviceAccountUsername;
    const { view, secret } = await this.accounts.create(
      organizationId,
      null,
      { username: given ?? 'owner', role: 'owner' },
      given !== undefined,
    );
    const chosen = this.config.bootstrap.serviceAccountSecret;
    if (chosen) await this.repository.setSecret(view.account.id, chosen);
    return { username: view.account.username, secret: chosen ?? secret, generated: !chosen };
  }
}
