import 'reflect-metadata';
import { ProjectBootstrapService } from '@analytics/projects';
import { runService } from '@analytics/runtime';
import { StandaloneModule } from './standalone.module';
import { welcomeMessage } from './welcome';

void runService((config) => StandaloneModule.forRoot(config), 'Analytics platform', async (app, config) => {
  const created = await app.get(ProjectBootstrapService).ensureDefaultProject();
  if (created) process.stdout.write(`${welcomeMessage(created, config)}\n`);
});
