import 'reflect-metadata';
import { firstStart, runService } from '@analytics/runtime';
import { exitUnlessSupportedNode } from '@analytics/supported-node';
import { StandaloneModule } from './standalone.module';

exitUnlessSupportedNode();
void runService((config) => StandaloneModule.forRoot(config), 'Analytics platform', async (app, config) => {
  const welcome = await firstStart(app, config);
  if (welcome) process.stdout.write(`${welcome}\n`);
});
