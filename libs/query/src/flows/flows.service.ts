import { LookupTablesReader } from '@analytics/lookup-tables';
import { ProjectScope } from '@analytics/tenancy';
import { Injectable } from '@nestjs/common';
import { withLookups } from '../expressions/query-expressions';
import { FlowsSpec } from './flows-spec';
import { FlowsResult, flowsResult } from './flows-tally';
import { FlowsRepository } from './flows.repository';

@Injectable()
export class FlowsService {
  constructor(
    private readonly repository: FlowsRepository,
    private readonly lookupTables: LookupTablesReader,
  ) {}

  async query(scope: ProjectScope, spec: FlowsSpec, signal?: AbortSignal): Promise<FlowsResult> {
    const { events } = await this.lookupTables.lookups(scope);
    return flowsResult(spec, await this.repository.tally(scope, withLookups(spec, events), signal));
  }
}
