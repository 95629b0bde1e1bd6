import { ProjectScope } from '@analytics/tenancy';
import { Injectable } from '@nestjs/common';
import { addictionResult, AddictionSpec } from './addiction';
import { RetentionSpec } from './retention-spec';
import { RetentionResult, retentionResult } from './retention-tally';
import { RetentionRepository } from './retention.repository';

@Injectable()
export class RetentionService {
  constructor(private readonly repository: RetentionRepository) {}

  async retention(scope: ProjectScope, spec: RetentionSpec, signal?: AbortSignal): Promise<RetentionResult> {
    return retentionResult(spec, await this.repository.cohorts(scope, spec, signal));
  }

  async addiction(
    scope: ProjectScope,
    spec: AddictionSpec,
    signal?: AbortSignal,
  ): Promise<{ data: Record<string, number[]> }> {
    return addictionResult(spec, await this.repository.addiction(scope, spec, signal));
  }
}
