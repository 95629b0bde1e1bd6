export { BootstrappedProject, ProjectBootstrapService } from './project-bootstrap.service';
export { GroupKey } from './group-keys.schema';
export { GroupKeysService } from './group-keys.service';
export { GroupKeyRegistryModule, ProjectsModule } from './projects.module';
export { DATA_REGIONS, DataRegion, organizations, Project, projects } from './projects.schema';
export { ProjectChange, ProjectsService } from './projects.service';
