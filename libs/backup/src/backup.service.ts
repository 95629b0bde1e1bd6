import { parseClickHouseUrl } from '@analytics/clickhouse';
import { AppConfig } from '@analytics/config';
import { Postgres } from '@analytics/postgres';
import { ProjectsService } from '@analytics/projects';
import { AccessDenied } from '@analytics/auth';
import { AuthenticatedAccount } from '@analytics/accounts';
import { Injectable } from '@nestjs/common';
import { BackupArchive } from './backup-archive';
import { BackupError, BackupErrorCode } from './backup-error';

/** What is not embedded, if anything: a backup covers the in-process engines and the local folder only. */
export function notEmbedded(config: AppConfig, postgres: Postgres): string[] {
  return [
    ...(parseClickHouseUrl(config.clickhouseUrl).kind === 'chdb' ? [] : ['ClickHouse (CLICKHOUSE_URL names a server)']),
    ...(postgres.dumpable ? [] : ['Postgres (DATABASE_URL names a server or memory)']),
    ...(config.objectStore.kind === 'local' ? [] : ['the object store (S3_BUCKET is set)']),
  ];
}

/** Backups of the running embedded default, one at a time (docs/backup.md). */
@Injectable()
export class BackupService {
  private running = false;

  constructor(
    private readonly archive: BackupArchive,
    private readonly config: AppConfig,
    private readonly postgres: Postgres,
    private readonly projects: ProjectsService,
  ) {}

  /**
   * A backup holds every organization's data: an owner of the installation's own organization (the first, which the
   * first start creates) may take one, not the owner of any other organization (any owner can create those).
   */
  async assertMayBackUp({ account }: AuthenticatedAccount): Promise<void> {
    const installation = await this.projects.firstOrganization();
    if (account.role !== 'owner' || account.organizationId !== installation?.id)
      throw new AccessDenied(403, "a backup needs an owner of the installation's first organization");
  }

  /**
   * Hands the backup, a tar stream, to `send`, holding the one slot until `send` settles. Refused on a server whose
   * engines are not in-process, and while another backup runs.
   */
  async run(send: (tar: AsyncGenerator<Buffer>) => Promise<void>): Promise<void> {
    const elsewhere = notEmbedded(this.config, this.postgres);
    if (elsewhere.length)
      throw new BackupError(
        BackupErrorCode.NotEmbedded,
        `backup copies the embedded engines only, and this server keeps ${elsewhere.join(', ')} outside its process: ` +
          'back those up with their own tools (docs/deploy.md, "Backups")',
      );
    if (this.running)
      throw new BackupError(BackupErrorCode.BackupRunning, 'a backup is already running: try again when it ends');
    this.running = true;
    try {
      await send(this.archive.write());
    } finally {
      this.running = false;
    }
  }
}
