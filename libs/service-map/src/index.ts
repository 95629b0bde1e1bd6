export { engineNeeds } from './engine-needs';
export { runOneService } from './run-one-service';
export { jobsModule, SERVICE_MAP, ServiceDefinition, ServiceModule, serviceModules, servicesModule } from './service-map';
export { ServiceRootModule } from './service-root.module';
export { PUBLIC_HOSTS, PublicHost, publicHostsOf } from './public-hosts';
