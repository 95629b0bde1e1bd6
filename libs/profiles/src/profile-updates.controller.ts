import { Clock } from '@analytics/clock';
import { AppConfig } from '@analytics/config';
import { ProfileScope } from '@analytics/profile-updates';
import { flag, IngestError, queryOf, readRequestBody, readSdkRequest, send } from '@analytics/sdk-transport';
import { Controller, Get, Post, Req, Res } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { ProfileIngestService } from './profile-ingest.service';
import { profileFailureReply, profileReply, ProfileReplyOptions } from './profile-replies';

const TRANSPORT = '`data` as form field (any content type), query parameter or JSON body; JSON or base64';

/** /engage and /groups: the SDK transport in, one service call, the SDK answer out. */
@ApiTags('ingestion')
@Controller()
export class ProfileUpdatesController {
  constructor(
    private readonly config: AppConfig,
    private readonly profiles: ProfileIngestService,
    private readonly clock: Clock,
  ) {}

  @Get('engage')
  @ApiOperation({ summary: `User profile updates: ${TRANSPORT}` })
  engageFromQuery(@Req() req: Request, @Res() res: Response): Promise<void> {
    return this.receive('user', req, res);
  }

  @Post('engage')
  @ApiOperation({ summary: `User profile updates: ${TRANSPORT}` })
  engage(@Req() req: Request, @Res() res: Response): Promise<void> {
    return this.receive('user', req, res);
  }

  @Get('groups')
  @ApiOperation({ summary: `Group profile updates: ${TRANSPORT}` })
  groupsFromQuery(@Req() req: Request, @Res() res: Response): Promise<void> {
    return this.receive('group', req, res);
  }

  @Post('groups')
  @ApiOperation({ summary: `Group profile updates: ${TRANSPORT}` })
  groups(@Req() req: Request, @Res() res: Response): Promise<void> {
    return this.receive('group', req, res);
  }

  private async receive(scope: ProfileScope, req: Request, res: Response): Promise<void> {
    let fields = queryOf(req);
    const options = (): ProfileReplyOptions => ({
      verbose: flag(fields, 'verbose'),
      strict: flag(fields, 'strict'),
      img: flag(fields, 'img'),
      callback: fields.get('callback') ?? undefined,
    });
    try {
      const body = req.method === 'GET' ? Buffer.alloc(0) : await readRequestBody(req, this.config.ingest.maxBodyBytes);
      const request = readSdkRequest(fields, body, req.headers['content-type']);
      fields = request.fields;
      if (!request.records) throw new IngestError(400, 'no data: send the updates in a `data` field');
      const requestIp = flag(fields, 'ip') ? req.ip : undefined;
      send(
        res,
        profileReply(
          await this.profiles.receive(scope, request.records, {
            strict: flag(fields, 'strict'),
            requestIp,
            nowMs: this.clock.now(),
          }),
          options(),
        ),
      );
    } catch (error) {
      if (!(error instanceof IngestError)) throw error;
      send(res, profileFailureReply(error, options()));
    }
  }
}
