import { Module } from '@nestjs/common';
import { GroupKeysRepository } from './group-keys.repository';
import { GroupKeysService } from './group-keys.service';
import { ProjectBootstrapService } from './project-bootstrap.service';
import { ProjectsRepository } from './projects.repository';
import { ProjectsService } from './projects.service';

@Module({
  providers: [ProjectsRepository, ProjectsService, ProjectBootstrapService],
  exports: [ProjectsService, ProjectBootstrapService],
})
export class ProjectsModule {}

/** The project's group keys (Postgres only, so a gateway with a broker needs no ClickHouse). */
@Module({ providers: [GroupKeysRepository, GroupKeysService], exports: [GroupKeysService] })
export class GroupKeyRegistryModule {}
