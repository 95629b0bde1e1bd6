import { CurrentAccess, ProjectAccess } from '@analytics/auth';
import { ApiQueryParameters } from '@analytics/http';
import { QuerySignal } from '@analytics/rate-limits';
import { Get, HttpCode, Post, Req } from '@nestjs/common';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import type { Request } from 'express';
import { dateBuckets, dayRange } from '../http/query-params';
import { QUERY_PARAMETERS } from '../http/query-parameters';
import { QueryApiController, queryParams } from '../http/query-api';
import { ProfileCatalogService, RevenueResult } from './profile-catalog.service';

const REVENUE_ENTRY = {
  type: 'object',
  properties: { amount: { type: 'number' }, count: { type: 'integer' }, paid_count: { type: 'integer' } },
};
const REVENUE_SCHEMA = {
  type: 'object',
  properties: {
    computed_at: { type: 'string' },
    results: {
      type: 'object',
      description: '`$overall`, then each bucket by its first day',
      additionalProperties: REVENUE_ENTRY,
    },
    session_id: { type: 'string' },
    status: { type: 'string', enum: ['ok'] },
  },
};
const PROPERTIES_SCHEMA = {
  type: 'object',
  properties: {
    computed_at: { type: 'string' },
    results: {
      type: 'object',
      additionalProperties: {
        type: 'object',
        properties: {
          count: { type: 'integer' },
          type: { type: 'string', enum: ['string', 'number', 'boolean', 'datetime', 'list', 'object'] },
        },
      },
    },
    status: { type: 'string', enum: ['ok'] },
  },
};

/** What the ETL connectors read about user profiles: the property catalog and revenue (docs/compatibility.md). */
@QueryApiController('query: profiles')
export class ProfileCatalogController {
  constructor(private readonly catalog: ProfileCatalogService) {}

  @Get('engage/properties')
  @ApiOperation({ summary: 'User-profile property names with how many profiles carry each and its type' })
  @ApiQueryParameters(QUERY_PARAMETERS.profileProperties)
  @ApiOkResponse({ schema: PROPERTIES_SCHEMA })
  properties(@Req() req: Request, @CurrentAccess() access: ProjectAccess, @QuerySignal() signal?: AbortSignal) {
    return this.catalog.properties(
      access.scope,
      queryParams(req, access.scope).integer('limit', 1, 10_000) ?? 255,
      signal,
    );
  }

  @Get('engage/revenue')
  @ApiOperation({ summary: 'Revenue of the `$transactions` on user profiles, per day (or unit) and over the range' })
  @ApiQueryParameters(QUERY_PARAMETERS.revenue)
  @ApiOkResponse({ schema: REVENUE_SCHEMA })
  revenue(@Req() req: Request, @CurrentAccess() access: ProjectAccess, @QuerySignal() signal?: AbortSignal) {
    return this.answerRevenue(req, access, signal);
  }

  @Post('engage/revenue')
  @HttpCode(200)
  @ApiOperation({ summary: 'The same, for clients that send POST' })
  @ApiQueryParameters(QUERY_PARAMETERS.revenue)
  @ApiOkResponse({ schema: REVENUE_SCHEMA })
  revenueByPost(@Req() req: Request, @CurrentAccess() access: ProjectAccess, @QuerySignal() signal?: AbortSignal) {
    return this.answerRevenue(req, access, signal);
  }

  private answerRevenue(req: Request, access: ProjectAccess, signal?: AbortSignal): Promise<RevenueResult> {
    const params = queryParams(req, access.scope);
    return this.catalog.revenue(access.scope, { ...dayRange(params), buckets: dateBuckets(params) }, signal);
  }
}
