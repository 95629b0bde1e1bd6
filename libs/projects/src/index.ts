export { BootstrappedProject, ProjectBootstrapService } from './project-bootstrap.service';
export { ProjectsModule } from './projects.module';
export { DATA_REGIONS, DataRegion, Organization, Project } from './projects.schema';
export { CreatedProject, ProjectCredentials, ProjectsService } from './projects.service';
