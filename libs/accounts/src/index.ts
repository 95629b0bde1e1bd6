export { AccountBootstrapService, BootstrappedAccount } from './account-bootstrap.service';
export { AccountsModule } from './accounts.module';
export { RoleName } from './accounts.schema';
export { MAX_OAUTH_TOKEN_SECONDS, OAuthTokensService } from './oauth-tokens.service';
export { AuthenticatedAccount, ServiceAccountCredentials } from './service-account-credentials';
export { effectiveRole } from './account-rights';
export { ServiceAccountsService, ServiceAccountView } from './service-accounts.service';
