import { ServiceName } from '@analytics/config';
import { runService } from '@analytics/runtime';
import { SERVICE_MAP } from './service-map';
import { ServiceRootModule } from './service-root.module';

/** The whole `main.ts` of a thin app: its row of the service map, nothing else. */
export function runOneService(service: ServiceName): Promise<void> {
  // A thin app runs its one service whatever SERVICES says, and its settings and logs say so.
  process.env.SERVICES = service;
  return runService((config) => ServiceRootModule.forRoot(config, [service]), SERVICE_MAP[service].title);
}
