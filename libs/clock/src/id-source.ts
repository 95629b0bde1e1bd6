import { randomUUID } from 'node:crypto';

/** Where generated ids come from (job ids, request ids, tracking ids): injected, so tests can predict them. */
export abstract class IdSource {
  abstract uuid(): string;
}

export class RandomIds extends IdSource {
  uuid(): string {
    return randomUUID();
  }
}
