/** What a domain failure may answer over HTTP: the caller's fault (4xx), or an engine that is down (503). */
export type DomainErrorStatus = 400 | 401 | 403 | 404 | 405 | 409 | 413 | 429 | 503;

/**
 * A failure the caller can act on: the module's code for it, the HTTP status it answers with, a
 * message for the client and, for throttling and outages, when to retry. Each API family's filter
 * (libs/http) words it in that family's error shape; anything else is an internal error.
 */
export class DomainError<
  Code extends string = string,
  Status extends DomainErrorStatus = DomainErrorStatus,
> extends Error {
  constructor(
    readonly code: Code,
    readonly status: Status,
    message: string,
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** A module's error class, thrown with one of its codes; `statuses` is what each code answers with. */
export function domainErrorOf<Code extends string, Status extends DomainErrorStatus>(
  statuses: Readonly<Record<Code, Status>>,
) {
  return class extends DomainError<Code, Status> {
    constructor(code: Code, message: string, retryAfterSeconds?: number) {
      super(code, statuses[code], message, retryAfterSeconds);
    }
  };
}

/**
 * The same for a module whose codes and statuses are one to one, thrown with the status (`codes`
 * names each one): its callers already speak in statuses, which say as much as the code.
 */
export function domainErrorByStatus<Status extends DomainErrorStatus, Code extends string>(
  codes: Readonly<Record<Status, Code>>,
) {
  return class extends DomainError<Code, Status> {
    constructor(status: Status, message: string, retryAfterSeconds?: number) {
      super(codes[status], status, message, retryAfterSeconds);
    }
  };
}
