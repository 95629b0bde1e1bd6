import { AuthenticatedAccount } from '@analytics/accounts';
import { AccountGuard, CurrentAccount } from '@analytics/auth';
import { Clock } from '@analytics/clock';
import { AppApiController } from '@analytics/http';
import { Logger, Post, Res } from '@nestjs/common';
import { ApiOperation, ApiProduces } from '@nestjs/swagger';
import type { Response } from 'express';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { BackupService } from './backup.service';

@AppApiController('api/app', { tag: 'operations', access: AccountGuard })
export class BackupController {
  private readonly logger = new Logger('Backup');

  constructor(
    private readonly backups: BackupService,
    private readonly clock: Clock,
  ) {}

  /**
   * A consistent copy of the embedded engines and the local object store, streamed as a tar while the server keeps
   * serving (docs/backup.md). It holds every organization's data, so only the owners of the installation's own
   * (first) organization may take one.
   */
  @Post('backup')
  @ApiOperation({
    summary: "Back up the embedded default (a tar stream); owners of the installation's first organization only",
  })
  @ApiProduces('application/x-tar')
  async backup(@CurrentAccount() caller: AuthenticatedAccount, @Res() res: Response): Promise<void> {
    await this.backups.assertMayBackUp(caller);
    await this.backups.run(async (tar) => {
      const name = `analytics-backup-${this.clock.date().toISOString().replace(/[:.]/g, '-')}.tar`;
      res.status(200).setHeader('Content-Type', 'application/x-tar');
      res.setHeader('Content-Disposition', `attachment; filename="${name}"`);
      // Once the first bytes are out, a failure can only cut the stream: the copy then lacks its manifest, which
      // restore refuses.
      await pipeline(Readable.from(tar, { objectMode: false }), res).catch((error: unknown) => {
        this.logger.warn(`backup stopped: ${(error as Error).message}`);
        res.destroy();
      });
    });
  }
}
