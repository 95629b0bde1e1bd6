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

/** Ids `<prefix>-1`, `<prefix>-2`, …: for tests that assert on them. */
export class SequentialIds extends IdSource {
  private next = 0;

  constructor(private readonly prefix = 'id') {
    super();
  }

  uuid(): string {
    this.next += 1;
    return `${this.prefix}-${this.next}`;
  }
}
