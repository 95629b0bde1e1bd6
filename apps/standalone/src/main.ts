import 'reflect-metadata';
import { AccountBootstrapService } from '@analytics/accounts';
import { ProjectBootstrapService } from '@analytics/projects';
import { runService } from '@analytics/runtime';
import { StandaloneModule } from './standalone.module';
import { welcomeMessage } from './welcome';

void runService((config) => StandaloneModule.forRoot(config), 'Analytics platform', async (app, config) => {
  const project = await app.get(ProjectBootstrapService).ensureDefaultProject();
  if (!project) return;
  const owner = await app.get(AccountBootstrapService).ensureOwner(project.organization.id);
  process.stdout.write(`${welcomeMessage(project, owner, config)}\n`);
});
