export { AccountBootstrapService, BootstrappedAccount } from './account-bootstrap.service';
export { AccountsError, AccountsErrorCode } from './accounts-errors';
export { AccountsModule } from './accounts.module';
export { AccountsRepository } from './accounts.repository';
export { OAuthToken, ProjectMembership, RoleName, ServiceAccount, User } from './accounts.schema';
export { MAX_OAUTH_TOKEN_SECONDS, OAuthTokensService } from './oauth-tokens.service';
export { AuthenticatedAccount, ServiceAccountCredentials } from './service-account-credentials';
export { AccountActor, effectiveRole } from './account-rights';
export { NewServiceAccountRequest, ProjectRole, ServiceAccountsService, ServiceAccountView } from './service-accounts.service';
