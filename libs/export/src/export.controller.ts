import { CurrentAccess, ProjectAccess, ProjectAccessGuard, RequireRole } from '@analytics/auth';
import { Clock } from '@analytics/clock';
import { AppConfig } from '@analytics/config';
import { ApiQueryParameters, QueryFamilyController } from '@analytics/http';
import { RateLimiterFactory, ReadingQuota } from '@analytics/rate-limits';
import { Get, Req, Res } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { ExportError, ExportErrorCode } from './export-error';
import { EXPORT_PARAMETERS, ExportRequest, parseExportRequest } from './export-request';
import { ExportDrain } from './export-drain';
import { ExportService } from './export.service';
import { responseBody } from './response-body';

@QueryFamilyController('api/2.0', { tag: 'export', access: ProjectAccessGuard })
export class ExportController {
  private readonly quota: ReadingQuota;

  constructor(
    config: AppConfig,
    limits: RateLimiterFactory,
    private readonly exports: ExportService,
    private readonly drain: ExportDrain,
    private readonly clock: Clock,
  ) {
    this.quota = limits.readingQuota('export', config.exportLimits, config.consoleLimits.export);
  }

  @Get('export')
  @RequireRole('consumer')
  @ApiOperation({ summary: 'Raw event export: one JSON event per line (NDJSON), deduplicated' })
  @ApiQueryParameters(EXPORT_PARAMETERS)
  async export(@Req() req: Request, @Res() res: Response, @CurrentAccess() access: ProjectAccess): Promise<void> {
    const params = new URL(req.originalUrl, 'http://local').searchParams;
    const request = parseExportRequest(params, this.clock.date().toISOString().slice(0, 10));
    // While the service stops, running exports finish and new ones get 503 (export-drain.ts).
    return this.drain.run(() => this.stream(req, res, access, request));
  }

  private async stream(req: Request, res: Response, access: ProjectAccess, request: ExportRequest): Promise<void> {
    const slot = await this.quota.for(req.headers).acquire(access.project.id);
    if (!slot.allowed)
      throw new ExportError(ExportErrorCode.RateLimited, `rate limit exceeded: ${slot.reason}`, slot.retryAfterSeconds);

    const abort = new AbortController();
    res.on('close', () => abort.abort());
    try {
      const pages = await this.exports.plan(access.scope, request, abort.signal);
      const gzip = /\bgzip\b/.test(req.headers['accept-encoding'] ?? '');
      res.status(200).setHeader('Content-Type', 'text/plain; charset=utf-8');
      if (gzip) res.setHeader('Content-Encoding', 'gzip');
      const { body, sent } = responseBody(res, gzip);
      try {
        await this.exports.write(access.scope, request, pages, body, abort.signal);
        body.end();
      } catch (error) {
        body.destroy(error as Error);
      }
      const failure = await sent;
      if (failure !== undefined && !abort.signal.aborted) throw failure;
    } finally {
      await slot.release();
    }
  }
}
