export { BootstrappedProject, ProjectBootstrapService } from './project-bootstrap.service';
export { ProjectsModule } from './projects.module';
export { DATA_REGIONS, DataRegion, Organization, organizations, Project, projects } from './projects.schema';
export { CreatedProject, ProjectChange, ProjectCredentials, ProjectsService } from './projects.service';
