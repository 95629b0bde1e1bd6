import { ProjectsModule } from '@analytics/projects';
import { Module } from '@nestjs/common';
import { ProjectAuthenticator } from './project-authenticator';
import { ReadingAccess } from './reading-access';

@Module({ imports: [ProjectsModule], providers: [ProjectAuthenticator, ReadingAccess], exports: [ProjectAuthenticator, ReadingAccess] })
export class AuthModule {}
