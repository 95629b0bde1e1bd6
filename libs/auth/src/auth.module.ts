import { ProjectsModule } from '@analytics/projects';
import { Module } from '@nestjs/common';
import { ProjectAccessGuard } from './project-access.guard';
import { ProjectAuthenticator } from './project-authenticator';
import { ReadingAccess } from './reading-access';

@Module({
  imports: [ProjectsModule],
  providers: [ProjectAuthenticator, ReadingAccess, ProjectAccessGuard],
  exports: [ProjectAuthenticator, ReadingAccess, ProjectAccessGuard],
})
export class AuthModule {}
