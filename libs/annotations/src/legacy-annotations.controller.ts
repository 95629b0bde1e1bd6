import { CurrentAccess, ProjectAccess, QueryAccessGuard, RequireRole } from '@analytics/auth';
import { ApiQueryParameters, PROJECT_ID_PARAMETER, QueryFamilyController } from '@analytics/http';
import { QueryQuotaInterceptor } from '@analytics/rate-limits';
import { Get, Query, UseInterceptors } from '@nestjs/common';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { formatAnnotationDate } from './annotation-date';
import { AnnotationsService } from './annotations.service';

const RANGE = ['from_date', 'to_date'] as const;

const LEGACY_SCHEMA = {
  type: 'object',
  properties: {
    annotations: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          id: { type: 'integer' },
          project_id: { type: 'integer' },
          date: { type: 'string', example: '2024-03-01 12:30:00' },
          description: { type: 'string' },
        },
      },
    },
    error: { type: 'boolean', enum: [false] },
  },
};

/**
 * The annotations' older read path, `/api/2.0/annotations` on the query host: the project comes from
 * the credentials (a project secret) or `project_id`, the range from `from_date`/`to_date`, and the
 * answer is the legacy `{"annotations":[{id, project_id, date, description}],"error":false}` that
 * Airbyte's and Singer's Mixpanel connectors read. It spends the query API's quota.
 */
@QueryFamilyController('api/2.0/annotations', { tag: 'query: annotations', access: QueryAccessGuard })
@RequireRole('consumer')
@UseInterceptors(QueryQuotaInterceptor)
export class LegacyAnnotationsController {
  constructor(private readonly annotations: AnnotationsService) {}

  @Get()
  @ApiOperation({ summary: 'The annotations of from_date..to_date (UTC days, both optional and inclusive)' })
  @ApiQueryParameters([
    PROJECT_ID_PARAMETER,
    { name: 'from_date', description: 'First day, yyyy-mm-dd (UTC).', example: '2024-03-01' },
    { name: 'to_date', description: 'Last day, yyyy-mm-dd (UTC).', example: '2024-03-31' },
  ])
  @ApiOkResponse({ schema: LEGACY_SCHEMA })
  async list(
    @CurrentAccess() access: ProjectAccess,
    @Query('from_date') fromDate?: string,
    @Query('to_date') toDate?: string,
  ) {
    const found = await this.annotations.list(access.scope, fromDate || undefined, toDate || undefined, RANGE);
    return {
      annotations: found.map((annotation) => ({
        id: annotation.id,
        project_id: access.project.id,
        date: formatAnnotationDate(annotation.date),
        description: annotation.description,
      })),
      error: false,
    };
  }
}
