import { ProjectScope } from '@analytics/tenancy';
import { Injectable } from '@nestjs/common';
import { FlowsSpec } from './flows-spec';
import { FlowsResult, flowsResult } from './flows-tally';
import { FlowsRepository } from './flows.repository';

@Injectable()
export class FlowsService {
  constructor(private readonly repository: FlowsRepository) {}

  async query(scope: ProjectScope, spec: FlowsSpec, signal?: AbortSignal): Promise<FlowsResult> {
    return flowsResult(spec, await this.repository.tally(scope, spec, signal));
  }
}
