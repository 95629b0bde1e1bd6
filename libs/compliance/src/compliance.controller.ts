import { CurrentAccess, ProjectAccess, RequireRole } from '@analytics/auth';
import { AppApiController, ok } from '@analytics/http';
import { Body, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { ComplianceAccessGuard } from './compliance-access.guard';
import { ComplianceJob, ComplianceKind, ComplianceStatus } from './compliance-job';
import { parseComplianceRequest } from './compliance-request';
import { ComplianceService } from './compliance.service';

/** The requesting user as the deletion status shows it. */
const requester = ({ actor }: ProjectAccess) =>
  actor.kind === 'service-account' ? actor.username : `project ${actor.projectId}`;

/** Reads a job; `UNKNOWN` when its record cannot be read (the store failing), as the spec names it. */
async function lookup(
  service: ComplianceService,
  access: ProjectAccess,
  kind: ComplianceKind,
  id: string,
): Promise<ComplianceJob | 'NOT_FOUND' | 'UNKNOWN'> {
  try {
    return (await service.find(access.scope, kind, id)) ?? 'NOT_FOUND';
  } catch {
    return 'UNKNOWN';
  }
}

abstract class ComplianceController {
  constructor(protected readonly service: ComplianceService) {}

  protected async create(kind: ComplianceKind, body: unknown, access: ProjectAccess) {
    const request = parseComplianceRequest(kind, body, { scope: access.scope, requestingUser: requester(access) });
    const job = await this.service.create(request);
    return ok({ task_id: job.id });
  }
}

@AppApiController('api/app/data-retrievals/v3.0', { tag: 'compliance', access: ComplianceAccessGuard })
export class DataRetrievalsController extends ComplianceController {
  constructor(service: ComplianceService) {
    super(service);
  }

  @Post()
  @RequireRole('admin')
  @ApiOperation({ summary: 'Create a GDPR/CCPA data retrieval for up to 2000 distinct ids' })
  createRetrieval(@Body() body: Record<string, unknown>, @CurrentAccess() access: ProjectAccess) {
    return this.create('retrieval', body, access);
  }

  @Get(':trackingId')
  @RequireRole('admin')
  @ApiOperation({ summary: 'Status of a data retrieval; results holds the download link once SUCCESS' })
  async status(@Param('trackingId') id: string, @CurrentAccess() access: ProjectAccess) {
    const job = await lookup(this.service, access, 'retrieval', id);
    if (typeof job === 'string') return ok({ status: job, results: '', distinct_ids: [] });
    return ok({
      status: job.status,
      results: job.status === 'SUCCESS' ? (job.resultUrl ?? '') : '',
      distinct_ids: job.distinctIds,
    });
  }
}

@AppApiController('api/app/data-deletions/v3.0', { tag: 'compliance', access: ComplianceAccessGuard })
export class DataDeletionsController extends ComplianceController {
  constructor(service: ComplianceService) {
    super(service);
  }

  @Post()
  @RequireRole('admin')
  @ApiOperation({ summary: 'Create a GDPR/CCPA deletion of up to 2000 distinct ids' })
  createDeletion(@Body() body: Record<string, unknown>, @CurrentAccess() access: ProjectAccess) {
    return this.create('deletion', body, access);
  }

  @Get(':trackingId')
  @RequireRole('admin')
  @ApiOperation({ summary: 'Status of a deletion' })
  async status(@Param('trackingId') id: string, @CurrentAccess() access: ProjectAccess) {
    const job = await lookup(this.service, access, 'deletion', id);
    const status: ComplianceStatus = typeof job === 'string' ? job : job.status;
    if (typeof job === 'string') return ok({ tracking_id: id, status });
    return ok({
      tracking_id: job.id,
      status,
      requesting_user: job.requestingUser,
      compliance_type: job.complianceType,
      project_id: job.projectId,
      date_requested: job.requestedAt.toISOString(),
      distinct_ids: job.distinctIds,
    });
  }

  @Delete(':trackingId')
  @HttpCode(204)
  @RequireRole('admin')
  @ApiOperation({ summary: 'Cancel a deletion that has not started (204); 405 once it has' })
  async cancel(@Param('trackingId') id: string, @CurrentAccess() access: ProjectAccess): Promise<void> {
    await this.service.cancel(access.scope, id);
  }
}
