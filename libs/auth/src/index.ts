export { AccessDenied } from './access-denied';
export { AuthModule } from './auth.module';
export { BasicCredentials, parseBasicCredentials } from './basic-credentials';
export { ProjectAccess } from './project-access';
export { CurrentAccess, ProjectAccessGuard, RequireProjectRole } from './project-access.guard';
export { ProjectAuthenticator } from './project-authenticator';
export { AccessOutcome, ReadingAccess } from './reading-access';
export { isRole, Role, ROLES, satisfies } from './roles';
