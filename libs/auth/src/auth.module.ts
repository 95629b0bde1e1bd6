import { ProjectsModule } from '@analytics/projects';
import { Module } from '@nestjs/common';
import { ProjectAuthenticator } from './project-authenticator';

@Module({ imports: [ProjectsModule], providers: [ProjectAuthenticator], exports: [ProjectAuthenticator] })
export class AuthModule {}
