import { Injectable } from '@nestjs/common';
import { withTimeout } from './engine-probes';

export interface ConditionOutcome {
  name: string;
  up: boolean;
  error?: string;
}

/**
 * What besides its engines a service needs before it may serve, each a named check that rejects with
 * the reason while it does not hold (the runtime's `schema`: the ledgers hold this build's migrations).
 * Modules add theirs at start; /readyz runs them beside the engine probes.
 */
@Injectable()
export class ReadinessConditions {
  private readonly checks = new Map<string, () => Promise<void>>();

  add(name: string, check: () => Promise<void>): void {
    this.checks.set(name, check);
  }

  run(): Promise<ConditionOutcome[]> {
    return Promise.all(
      [...this.checks].map(([name, check]) =>
        withTimeout(name, check()).then(
          () => ({ name, up: true }),
          (error: unknown) => ({ name, up: false, error: (error as Error).message }),
        ),
      ),
    );
  }
}
