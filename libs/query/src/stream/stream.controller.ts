import { CurrentAccess, ProjectAccess } from '@analytics/auth';
import { ApiQueryParameters } from '@analytics/http';
import { QuerySignal } from '@analytics/rate-limits';
import { Get, Req } from '@nestjs/common';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import type { Request } from 'express';
import { QueryApiController, queryParams } from '../http/query-api';
import { QUERY_PARAMETERS } from '../http/query-parameters';
import { parseStreamQuery } from './stream-query';
import { StreamResult, StreamService } from './stream.service';

const EVENT_SCHEMA = {
  type: 'object',
  required: ['event', 'properties'],
  properties: {
    event: { type: 'string', example: 'Signed up' },
    properties: {
      type: 'object',
      description:
        'time (Unix seconds), distinct_id (the person’s canonical id), $distinct_id_before_identity (the id sent, when it differs), $insert_id, mp_processing_time_ms, then the event’s own properties.',
      additionalProperties: true,
      example: { time: 1709546400, distinct_id: 'user-1', $insert_id: 'e1', mp_processing_time_ms: 1709546401000 },
    },
  },
};

@QueryApiController('query: activity stream')
export class StreamController {
  constructor(private readonly stream: StreamService) {}

  @Get('stream/query')
  @ApiOperation({
    summary: 'The events of people (each across all their merged ids), newest first, a page at a time',
  })
  @ApiQueryParameters(QUERY_PARAMETERS.stream)
  @ApiOkResponse({
    description: 'A page of events; next_cursor reads the next page (null on the last).',
    schema: {
      type: 'object',
      required: ['status', 'results', 'next_cursor'],
      properties: {
        status: { type: 'string', enum: ['ok'] },
        results: {
          type: 'object',
          required: ['events'],
          properties: { events: { type: 'array', items: EVENT_SCHEMA } },
        },
        next_cursor: { type: 'string', nullable: true },
      },
    },
  })
  query(
    @Req() req: Request,
    @CurrentAccess() access: ProjectAccess,
    @QuerySignal() signal?: AbortSignal,
  ): Promise<StreamResult> {
    return this.stream.query(access.scope, parseStreamQuery(queryParams(req, access.scope)), signal);
  }
}
