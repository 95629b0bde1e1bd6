import { AccessDenied, PrincipalResolver, parseBasicCredentials, satisfies } from '@analytics/auth';
import { Clock } from '@analytics/clock';
import { AppConfig } from '@analytics/config';
import { Project } from '@analytics/projects';
import { Controller, Get, Post, Req, Res } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import {
  flag,
  IngestError,
  parseEventsJson,
  queryOf,
  readRequestBody,
  readSdkRequest,
  Reply,
  sdkFailure,
  sdkReply,
  send,
} from '@analytics/sdk-transport';
import { importReplies, sdkOutcome } from './import-replies';
import { IngestService } from './ingest.service';

/** The SDKs' form transport (GET with `data`, or a form body) as its headers tell, before the body is read. */
const isLegacyByHeaders = (req: Request): boolean =>
  req.method === 'GET' || (req.headers['content-type'] ?? '').includes('x-www-form-urlencoded');

/** The SDKs' form transport (GET with `data`, or a `data=` form body) rather than a JSON body. */
function isLegacyTransport(req: Request, body: Buffer): boolean {
  return isLegacyByHeaders(req) || body.subarray(0, 5).toString() === 'data=';
}

@ApiTags('ingestion')
@Controller()
export class ImportController {
  constructor(
    private readonly config: AppConfig,
    private readonly ingest: IngestService,
    private readonly principals: PrincipalResolver,
    private readonly clock: Clock,
  ) {}

  @Get('import')
  @ApiOperation({ summary: 'Import events through the SDK transport: `data` in the query, JSON or base64' })
  importFromQuery(@Req() req: Request, @Res() res: Response): Promise<void> {
    return this.import(req, res);
  }

  @Post('import')
  @ApiOperation({
    summary: 'Import events (server side): JSON array or NDJSON, gzip allowed; also the SDK form transport',
  })
  async import(@Req() req: Request, @Res() res: Response): Promise<void> {
    const query = queryOf(req);
    // Known from the headers already, so that an oversize form body is answered in the SDK shape.
    const shape = { legacy: isLegacyByHeaders(req) };
    try {
      const project = await this.authenticate(req);
      send(
        res,
        await this.importBody(project, req, query, shape, await readRequestBody(req, this.config.ingest.maxBodyBytes)),
      );
    } catch (error) {
      if (!(error instanceof IngestError)) throw error;
      send(
        res,
        shape.legacy
          ? sdkReply(sdkFailure(error), { verbose: flag(query, 'verbose'), img: false })
          : importReplies.error(error),
      );
    }
  }

  /**
   * Parses the body and imports its events. Not an async function on purpose: an async frame keeps
   * its locals until it returns, so the body and its parsed events would stay referenced while the
   * rows wait for the broker, and V8 promoted them to its old generation
   * (docs/benchmarks/2026-11-25-gateway-less-held-per-request.md).
   */
  private importBody(
    project: Project,
    req: Request,
    query: URLSearchParams,
    shape: { legacy: boolean },
    body: Buffer,
  ): Promise<Reply> {
    shape.legacy = isLegacyTransport(req, body);
    const nowMs = this.clock.now();
    if (shape.legacy) {
      const request = readSdkRequest(query, body, req.headers['content-type']);
      if (!request.records) throw new IngestError(400, 'no data: send the events in a `data` field');
      const verbose = flag(request.fields, 'verbose');
      // The SDK answer reports rejected events (`0`, the first reason with verbose=1); the valid ones are imported.
      return this.ingest
        .importEvents(project, request.records, { strict: true, requireInsertId: false, consumeRecords: true, nowMs })
        .then((result) => sdkReply(sdkOutcome(result), { verbose, img: false }));
    }
    const ndjson = (req.headers['content-type'] ?? '').includes('ndjson');
    const strict = query.get('strict') !== '0';
    return this.ingest
      .importEvents(project, parseEventsJson(body.toString('utf8'), ndjson), {
        strict,
        requireInsertId: strict,
        consumeRecords: true,
        nowMs,
      })
      .then(importReplies.outcome);
  }

  /**
   * The project secret or token as the Basic username, or a service account (owner or admin of the
   * project) with `project_id`.
   */
  private async authenticate(req: Request): Promise<Project> {
    const credentials = parseBasicCredentials(req.headers.authorization);
    if (!credentials)
      throw new IngestError(401, 'missing credentials: send the project secret as the Basic auth username');
    try {
      if (credentials.password === '') {
        const project = await this.principals.projectBySecretOrToken(credentials.username, req.ip);
        if (!project) throw new IngestError(401, 'invalid credentials');
        return project;
      }
      const principal = await this.principals.fromBasic(req.headers.authorization, req.ip);
      const access = await this.principals.accessTo(principal, queryOf(req).get('project_id') ?? undefined);
      if (!satisfies(access.role, 'admin'))
        throw new AccessDenied(403, `importing needs the admin role or above on project ${access.project.id}`);
      return access.project;
    } catch (error) {
      if (error instanceof AccessDenied) throw new IngestError(error.status, error.message, error.retryAfterSeconds);
      throw error;
    }
  }
}
