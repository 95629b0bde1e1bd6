import { LookupTablesReader } from '@analytics/lookup-tables';
import { ProjectScope } from '@analytics/tenancy';
import { Injectable } from '@nestjs/common';
import { addictionResult, AddictionSpec } from './addiction';
import { withLookups } from '../expressions/query-expressions';
import { RetentionSpec } from './retention-spec';
import { RetentionResult, retentionResult } from './retention-tally';
import { RetentionRepository } from './retention.repository';

@Injectable()
export class RetentionService {
  constructor(
    private readonly repository: RetentionRepository,
    private readonly lookupTables: LookupTablesReader,
  ) {}

  async retention(scope: ProjectScope, spec: RetentionSpec, signal?: AbortSignal): Promise<RetentionResult> {
    const { events } = await this.lookupTables.lookups(scope);
    return retentionResult(spec, await this.repository.cohorts(scope, withLookups(spec, events), signal));
  }

  async addiction(
    scope: ProjectScope,
    spec: AddictionSpec,
    signal?: AbortSignal,
  ): Promise<{ data: Record<string, number[]> }> {
    const { events } = await this.lookupTables.lookups(scope);
    return addictionResult(spec, await this.repository.addiction(scope, withLookups(spec, events), signal));
  }
}
