export { AuthModule } from './auth.module';
export { BasicCredentials, parseBasicCredentials } from './basic-credentials';
export { ProjectAuthenticator } from './project-authenticator';
export { AccessOutcome, ReadingAccess } from './reading-access';
