import { Module } from '@nestjs/common';
import { ProjectBootstrapService } from './project-bootstrap.service';
import { ProjectsRepository } from './projects.repository';
import { ProjectsService } from './projects.service';

@Module({
  providers: [ProjectsRepository, ProjectsService, ProjectBootstrapService],
  exports: [ProjectsService, ProjectBootstrapService],
})
export class ProjectsModule {}
