import { CurrentAccess, ProjectAccess } from '@analytics/auth';
import { QuerySignal } from '@analytics/rate-limits';
import { Get, Req } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { ApiQueryParameters } from '@analytics/http';
import { QUERY_PARAMETERS } from '../http/query-parameters';
import type { Request } from 'express';
import { QueryApiController, queryParams } from '../http/query-api';
import { SEGMENTATION_TYPES } from '../segmentation/segmentation-spec';
import { EventCatalogService } from './event-catalog.service';

@QueryApiController('query: events')
export class EventCatalogController {
  constructor(private readonly catalog: EventCatalogService) {}

  @Get('events/names')
  @ApiOperation({ summary: 'The most common event names of the last 31 days' })
  @ApiQueryParameters(QUERY_PARAMETERS.eventNames)
  names(@Req() req: Request, @CurrentAccess() access: ProjectAccess, @QuerySignal() signal?: AbortSignal) {
    const params = queryParams(req, access.scope);
    return this.catalog.eventNames(
      access.scope,
      params.oneOf('type', SEGMENTATION_TYPES) ?? 'general',
      params.integer('limit', 1, 10_000) ?? 255,
      signal,
    );
  }

  @Get('events/properties/top')
  @ApiOperation({
    summary:
      "An event's (or, without event, every event's) most used property names over the last 31 days, with counts",
  })
  @ApiQueryParameters(QUERY_PARAMETERS.topProperties)
  topProperties(@Req() req: Request, @CurrentAccess() access: ProjectAccess, @QuerySignal() signal?: AbortSignal) {
    const params = queryParams(req, access.scope);
    return this.catalog.topProperties(
      access.scope,
      params.text('event'),
      params.integer('limit', 1, 10_000) ?? 10,
      signal,
    );
  }

  @Get('events/properties/values')
  @ApiOperation({ summary: "A property's most common values on an event over the last 31 days" })
  @ApiQueryParameters(QUERY_PARAMETERS.propertyValues)
  values(@Req() req: Request, @CurrentAccess() access: ProjectAccess, @QuerySignal() signal?: AbortSignal) {
    const params = queryParams(req, access.scope);
    return this.catalog.propertyValues(
      access.scope,
      params.requiredText('event'),
      params.requiredText('name'),
      params.integer('limit', 1, 10_000) ?? 255,
      signal,
    );
  }
}
