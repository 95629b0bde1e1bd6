export { engineNeeds } from './engine-needs';
export { runOneService } from './run-one-service';
export { intakeOf, jobsModule, serviceModules, servicesModule } from './service-map';
export { ServiceRootModule } from './service-root.module';
export { PUBLIC_HOSTS, publicHostsOf } from './public-hosts';
