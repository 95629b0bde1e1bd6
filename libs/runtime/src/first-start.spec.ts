import { loadConfig } from '@analytics/config';
import { BootstrappedProject } from '@analytics/projects';
import { LoggerService } from '@nestjs/common';
import { welcomeMessage } from './first-start';
import { QuietFrameworkLogger } from './quiet-framework-logger';

const project = {
  organization: { id: 3 },
  project: { id: 7, token: 'tok' },
  secret: 'sec',
} as unknown as BootstrappedProject;

describe('the first start', () => {
  it('names the console, the API docs and the data directory in its welcome block', () => {
    const config = loadConfig({ PORT: '9090', DATA_DIR: '/srv/analytics' });
    const message = welcomeMessage(project, { username: 'owner', secret: 's', generated: true }, config, 0);
    expect(message).toContain(
      'The web console  http://localhost:9090/   (sign in with the owner service account above)',
    );
    expect(message).toContain('The API docs     http://localhost:9090/api/docs');
    expect(message).toContain('Data directory   /srv/analytics');
    expect(welcomeMessage(project, undefined, config, 0)).toContain('(sign in with the project id and secret above)');
  });

  it("puts Nest's boot lines at debug and keeps every other line where it was", () => {
    const calls: string[] = [];
    const record =
      (level: string) =>
      (message: unknown, ...rest: unknown[]) =>
        void calls.push(`${level} ${String(message)} ${rest.join(',')}`);
    const inner: LoggerService = {
      log: record('log'),
      error: record('error'),
      warn: record('warn'),
      debug: record('debug'),
    };
    const logger = new QuietFrameworkLogger(inner);
    logger.log('Mapped {/import, POST} route', 'RouterExplorer');
    logger.log('AppModule dependencies initialized', 'InstanceLoader');
    logger.log('Postgres: applied 1_x', 'Migrations');
    logger.warn('slow', 'Writer');
    expect(calls).toEqual([
      'debug Mapped {/import, POST} route RouterExplorer',
      'debug AppModule dependencies initialized InstanceLoader',
      'log Postgres: applied 1_x Migrations',
      'warn slow Writer',
    ]);
  });
});
