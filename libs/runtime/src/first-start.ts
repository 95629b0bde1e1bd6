import { Clock } from '@analytics/clock';
import { AppConfig } from '@analytics/config';
import { AccountBootstrapService, BootstrappedAccount } from '@analytics/accounts';
import { BootstrappedProject, ProjectBootstrapService } from '@analytics/projects';
import { INestApplicationContext } from '@nestjs/common';
import { API_DOCS_PATH } from './service-app';

/** Whether anything lives under DATA_DIR: an embedded engine or the local object store (not so in a cluster). */
const keepsDataDir = (config: AppConfig) =>
  config.clickhouseUrl.startsWith('chdb:') ||
  config.databaseUrl.startsWith('pglite:') ||
  config.objectStore.kind === 'local';

/** The first-start message at `nowMs`: the credentials (the secret is never shown again) and two curls that work. */
export function welcomeMessage(
  { organization, project, secret }: BootstrappedProject,
  owner: BootstrappedAccount | undefined,
  config: AppConfig,
  nowMs: number,
): string {
  const base = `http://localhost:${config.port}`;
  const now = Math.floor(nowMs / 1000);
  const today = new Date(nowMs).toISOString().slice(0, 10);
  const event = JSON.stringify([
    {
      event: 'Signed up',
      properties: { time: now, distinct_id: 'user-1', $insert_id: `welcome-${now}`, plan: 'free' },
    },
  ]);
  return [
    '',
    'Created the default organization and project (first start with empty storage).',
    `  organization id  ${organization.id}`,
    `  project id       ${project.id}`,
    `  project token    ${project.token}`,
    `  project secret   ${secret}    <- shown only now; keep it`,
    ...(owner
      ? [
          `  owner service account  ${owner.username}`,
          owner.generated
            ? `  its secret             ${owner.secret}    <- shown only now; keep it`
            : '  its secret             (BOOTSTRAP_SERVICE_ACCOUNT_SECRET)',
        ]
      : []),
    '',
    'Send an event:',
    `  curl -s -u '${secret}:' -H 'Content-Type: application/json' '${base}/import?strict=1' -d '${event}'`,
    'Read it back:',
    `  curl -s -u '${secret}:' '${base}/api/2.0/export?from_date=${today}&to_date=${today}'`,
    ...(owner
      ? [
          'Who am I:',
          `  curl -s -u '${owner.username}:${owner.generated ? owner.secret : '<secret>'}' '${base}/api/app/me'`,
        ]
      : []),
    '',
    `The web console  ${base}/   (sign in with ${owner ? 'the owner service account' : 'the project id and secret'} above)`,
    `The API docs     ${base}/${API_DOCS_PATH}`,
    ...(keepsDataDir(config) ? [`Data directory   ${config.dataDir}`] : []),
    '',
  ].join('\n');
}

/**
 * On empty storage: the default organization, project and owner account, and the message that shows
 * their credentials once. Run by the standalone at start and by `migrate` (the cluster's first Job).
 */
export async function firstStart(app: INestApplicationContext, config: AppConfig): Promise<string | undefined> {
  const project = await app.get(ProjectBootstrapService).ensureDefaultProject();
  if (!project) return undefined;
  const owner = await app.get(AccountBootstrapService).ensureOwner(project.organization.id);
  return welcomeMessage(project, owner, config, app.get(Clock).now());
}
