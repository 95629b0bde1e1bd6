import { CurrentAccess, ProjectAccess } from '@analytics/auth';
import { Get, Req } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { ApiQueryParameters } from '@analytics/http';
import { QUERY_PARAMETERS } from '../http/query-parameters';
import type { Request } from 'express';
import { Clock } from '@analytics/clock';
import { QuerySignal } from '@analytics/rate-limits';
import { QueryApiController, queryParams } from '../http/query-api';
import {
  parseEventPropertiesQuery,
  parseEventsQuery,
  parseNumericBucketsQuery,
  parseNumericSeriesQuery,
  parseSegmentationQuery,
} from './segmentation-query';
import { SegmentationService } from './segmentation.service';

@QueryApiController('query: segmentation')
export class SegmentationController {
  constructor(
    private readonly segmentation: SegmentationService,
    private readonly clock: Clock,
  ) {}

  @Get('segmentation')
  @ApiOperation({ summary: 'An event per period: total, unique or average; segmented by on' })
  @ApiQueryParameters(QUERY_PARAMETERS.segmentation)
  segment(@Req() req: Request, @CurrentAccess() access: ProjectAccess, @QuerySignal() signal?: AbortSignal) {
    return this.segmentation.segmentation(access.scope, parseSegmentationQuery(queryParams(req, access.scope)), signal);
  }

  @Get('segmentation/numeric')
  @ApiOperation({ summary: 'An event per period, one series per round range of the number on' })
  @ApiQueryParameters(QUERY_PARAMETERS.numericBuckets)
  numeric(@Req() req: Request, @CurrentAccess() access: ProjectAccess, @QuerySignal() signal?: AbortSignal) {
    return this.segmentation.numericBuckets(
      access.scope,
      parseNumericBucketsQuery(queryParams(req, access.scope)),
      signal,
    );
  }

  @Get('segmentation/sum')
  @ApiOperation({ summary: 'The on expression summed per period (0 where it is not a number)' })
  @ApiQueryParameters(QUERY_PARAMETERS.numericSeries)
  sum(@Req() req: Request, @CurrentAccess() access: ProjectAccess, @QuerySignal() signal?: AbortSignal) {
    return this.segmentation.numericSeries(
      access.scope,
      parseNumericSeriesQuery(queryParams(req, access.scope)),
      false,
      this.clock.now(),
      signal,
    );
  }

  @Get('segmentation/average')
  @ApiOperation({ summary: 'The on expression averaged over events per period (0 where it is not a number)' })
  @ApiQueryParameters(QUERY_PARAMETERS.numericSeries)
  average(@Req() req: Request, @CurrentAccess() access: ProjectAccess, @QuerySignal() signal?: AbortSignal) {
    return this.segmentation.numericSeries(
      access.scope,
      parseNumericSeriesQuery(queryParams(req, access.scope)),
      true,
      this.clock.now(),
      signal,
    );
  }

  @Get('events')
  @ApiOperation({ summary: 'Several events per period: total, unique or average' })
  @ApiQueryParameters(QUERY_PARAMETERS.events)
  events(@Req() req: Request, @CurrentAccess() access: ProjectAccess, @QuerySignal() signal?: AbortSignal) {
    return this.segmentation.segmentation(
      access.scope,
      parseEventsQuery(queryParams(req, access.scope), this.clock.now()),
      signal,
    );
  }

  @Get('events/properties')
  @ApiOperation({ summary: 'One event per period, segmented by the values of the property name' })
  @ApiQueryParameters(QUERY_PARAMETERS.eventProperties)
  eventProperties(@Req() req: Request, @CurrentAccess() access: ProjectAccess, @QuerySignal() signal?: AbortSignal) {
    return this.segmentation.segmentation(
      access.scope,
      parseEventPropertiesQuery(queryParams(req, access.scope), this.clock.now()),
      signal,
    );
  }
}
