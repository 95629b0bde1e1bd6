import { ProjectsModule } from '@analytics/projects';
import { Module } from '@nestjs/common';
import { AccountBootstrapService } from './account-bootstrap.service';
import { AccountsRepository } from './accounts.repository';
import { OAuthTokensService } from './oauth-tokens.service';
import { ServiceAccountCredentials } from './service-account-credentials';
import { ServiceAccountsService } from './service-accounts.service';

const providers = [
  AccountsRepository,
  ServiceAccountsService,
  ServiceAccountCredentials,
  OAuthTokensService,
  AccountBootstrapService,
];

@Module({ imports: [ProjectsModule], providers, exports: [...providers, ProjectsModule] })
export class AccountsModule {}
