import { CurrentAccess, ProjectAccess } from '@analytics/auth';
import { ApiQueryParameters } from '@analytics/http';
import { QuerySignal } from '@analytics/rate-limits';
import { Get, Req } from '@nestjs/common';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import type { Request } from 'express';
import { QueryApiController, queryParams } from '../http/query-api';
import { QUERY_PARAMETERS } from '../http/query-parameters';
import { FLOW_DIRECTIONS, parseFlowsQuery } from './flows-spec';
import { FlowsResult } from './flows-tally';
import { FlowsService } from './flows.service';

const count = { type: 'integer', minimum: 0 };

const FLOWS_RESPONSE = {
  type: 'object',
  required: ['event', 'direction', 'people', 'paths', 'other', 'drop_off'],
  properties: {
    event: { type: 'string', example: 'Signed up' },
    direction: { type: 'string', enum: [...FLOW_DIRECTIONS] },
    people: { ...count, description: 'People with the anchor event in the range.' },
    paths: {
      type: 'array',
      description: 'The paths taken most, in time order (the anchor first after it, last before it).',
      items: {
        type: 'object',
        required: ['steps', 'count'],
        properties: {
          steps: { type: 'array', items: { type: 'string' }, example: ['Signed up', 'Viewed page', 'Purchased'] },
          count,
        },
      },
    },
    other: {
      type: 'object',
      description: 'The paths past limit: how many, and how many people took them.',
      required: ['paths', 'count'],
      properties: { paths: count, count },
    },
    drop_off: {
      type: 'array',
      description:
        'For each step from the anchor: the people who got that far, and those whose path ended just before.',
      items: {
        type: 'object',
        required: ['step', 'reached', 'dropped'],
        properties: { step: { type: 'integer', minimum: 1 }, reached: count, dropped: count },
      },
    },
  },
};

@QueryApiController('query: flows')
export class FlowsController {
  constructor(private readonly flows: FlowsService) {}

  @Get('flows')
  @ApiOperation({ summary: 'The paths people take after (or before) an anchor event, with drop-off at each step' })
  @ApiQueryParameters(QUERY_PARAMETERS.flows)
  @ApiOkResponse({ description: 'The top paths and the drop-off (docs/queries.md, "Flows").', schema: FLOWS_RESPONSE })
  query(
    @Req() req: Request,
    @CurrentAccess() access: ProjectAccess,
    @QuerySignal() signal?: AbortSignal,
  ): Promise<FlowsResult> {
    return this.flows.query(access.scope, parseFlowsQuery(queryParams(req, access.scope)), signal);
  }
}
