export { BootstrappedProject, ProjectBootstrapService } from './project-bootstrap.service';
export { GroupKey } from './group-keys.schema';
export { GroupKeysService } from './group-keys.service';
export { GroupKeyRegistryModule, ProjectsModule } from './projects.module';
export { DATA_REGIONS, DataRegion, Organization, organizations, Project, projects } from './projects.schema';
export { CreatedProject, ProjectChange, ProjectCredentials, ProjectsService } from './projects.service';
