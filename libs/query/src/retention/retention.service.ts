import { Injectable } from '@nestjs/common';
import { addictionResult, AddictionSpec } from './addiction';
import { RetentionSpec } from './retention-spec';
import { RetentionResult, retentionResult } from './retention-tally';
import { RetentionRepository } from './retention.repository';

@Injectable()
export class RetentionService {
  constructor(private readonly repository: RetentionRepository) {}

  async retention(projectId: number, spec: RetentionSpec, signal?: AbortSignal): Promise<RetentionResult> {
    return retentionResult(spec, await this.repository.cohorts(projectId, spec, signal));
  }

  async addiction(projectId: number, spec: AddictionSpec, signal?: AbortSignal): Promise<{ data: Record<string, number[]> }> {
    return addictionResult(spec, await this.repository.addiction(projectId, spec, signal));
  }
}
