import { domainErrorByStatus } from '@analytics/errors';

export enum AccessDeniedCode {
  /** The request names no project, or not one the credentials can be checked against (400). */
  InvalidScope = 'invalid_scope',
  /** No credentials, or bad ones (401). */
  Unauthenticated = 'unauthenticated',
  /** No right to this project, organization or action (403). */
  Forbidden = 'forbidden',
  /** Too many failed authentications from this address or for this account; `retryAfterSeconds` says when to try again (429). */
  Throttled = 'throttled',
}

/** Bad request scope (400), no or bad credentials (401), no right to this project or action (403), or throttled (429). */
export class AccessDenied extends domainErrorByStatus({
  400: AccessDeniedCode.InvalidScope,
  401: AccessDeniedCode.Unauthenticated,
  403: AccessDeniedCode.Forbidden,
  429: AccessDeniedCode.Throttled,
}) {}
