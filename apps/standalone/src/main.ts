// First: on an unsupported Node, one line and exit 1 before anything else loads.
import '@analytics/supported-node';
import 'reflect-metadata';
import { firstStart, runService } from '@analytics/runtime';
import { StandaloneModule } from './standalone.module';

void runService(
  (config) => StandaloneModule.forRoot(config),
  'Analytics platform',
  async (app, config) => {
    const welcome = await firstStart(app, config);
    if (welcome) process.stdout.write(`${welcome}\n`);
  },
);
