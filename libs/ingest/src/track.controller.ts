import { Clock } from '@analytics/clock';
import { AppConfig } from '@analytics/config';
import { Controller, Get, Post, Req, Res } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import {
  flag,
  IngestError,
  queryOf,
  readRequestBody,
  readSdkRequest,
  sdkFailure,
  sdkReply,
  send,
} from '@analytics/sdk-transport';
import { sdkOutcome } from './import-replies';
import { IngestService } from './ingest.service';

@ApiTags('ingestion')
@Controller()
export class TrackController {
  constructor(
    private readonly config: AppConfig,
    private readonly ingest: IngestService,
    private readonly clock: Clock,
  ) {}

  @Get('track')
  @ApiOperation({ summary: 'Track events (client side) with `data` in the query' })
  trackFromQuery(@Req() req: Request, @Res() res: Response): Promise<void> {
    return this.track(req, res);
  }

  @Post('track')
  @ApiOperation({
    summary: 'Track events (client side): `data` as form field, query parameter or JSON body; JSON or base64',
  })
  async track(@Req() req: Request, @Res() res: Response): Promise<void> {
    const query = queryOf(req);
    const options = () => ({
      verbose: flag(fields, 'verbose'),
      img: flag(fields, 'img'),
      callback: fields.get('callback') ?? undefined,
    });
    let fields = query;
    try {
      const body = req.method === 'GET' ? Buffer.alloc(0) : await readRequestBody(req, this.config.ingest.maxBodyBytes);
      const request = readSdkRequest(query, body, req.headers['content-type']);
      fields = request.fields;
      if (!request.records) throw new IngestError(400, 'no data: send the events in a `data` field');
      const ip = flag(fields, 'ip') ? req.ip : undefined;
      send(
        res,
        sdkReply(
          sdkOutcome(await this.ingest.trackEvents(request.records, { ip, nowMs: this.clock.now() })),
          options(),
        ),
      );
    } catch (error) {
      if (!(error instanceof IngestError)) throw error;
      send(res, sdkReply(sdkFailure(error), options()));
    }
  }
}
