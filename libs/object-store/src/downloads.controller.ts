import { ApiErrorFilter } from '@analytics/http';
import { Controller, Get, Req, Res, UseFilters } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { pipeline } from 'node:stream/promises';
import { DOWNLOADS_PATH, DownloadLinks } from './download-links';
import { keyFileName } from './object-key';
import { ObjectStore } from './object-store';
import { ObjectStoreError, ObjectStoreErrorCode } from './object-store-error';

/**
 * Serves signed links on the export host. The bytes stream through this service for S3 as well:
 * one code path, the same headers and JSON errors, and the bucket never needs to be reachable by
 * the people downloading (see docs/object-store.md).
 */
@ApiTags('downloads')
@Controller(DOWNLOADS_PATH)
// Errors in the app API's shape, {"status":"error","error":"…"}: the link's reader is no SDK.
@UseFilters(new ApiErrorFilter('app'))
export class DownloadsController {
  constructor(
    private readonly store: ObjectStore,
    private readonly links: DownloadLinks,
  ) {}

  @Get('*key')
  @ApiOperation({ summary: 'Download a stored file through a signed, expiring link (?expires=…&signature=…)' })
  async download(@Req() req: Request, @Res() res: Response): Promise<void> {
    const url = new URL(req.originalUrl, 'http://local');
    const key = ([] as string[]).concat(req.params.key ?? []).join('/');
    // The signature covers the key: an unsafe key cannot carry a valid one, so it is refused here too.
    this.links.verify(
      key,
      url.searchParams.get('expires') ?? undefined,
      url.searchParams.get('signature') ?? undefined,
    );
    const object = await this.store.get(key);
    if (!object)
      throw new ObjectStoreError(ObjectStoreErrorCode.NotFound, 'file not found: it was deleted or never written');
    res.status(200);
    res.setHeader('Content-Type', object.contentType);
    res.setHeader('Content-Length', String(object.size));
    res.setHeader('Content-Disposition', `attachment; filename="${keyFileName(key)}"`);
    res.setHeader('Last-Modified', object.lastModified.toUTCString());
    // A link is a bearer credential with an expiry: no shared cache may keep the file past it.
    res.setHeader('Cache-Control', 'private, no-store');
    res.setHeader('X-Content-Type-Options', 'nosniff');
    if (req.method === 'HEAD') {
      object.body.destroy();
      res.end();
      return;
    }
    await pipeline(object.body, res).catch(() => {
      // The client went away or the store failed mid-body: the status is sent, so only the connection can say so.
      res.destroy();
    });
  }
}
