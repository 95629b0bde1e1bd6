import { domainErrorOf } from '@analytics/errors';

export enum AlertsErrorCode {
  Invalid = 'invalid_alert',
  NotFound = 'not_found',
}

/** A refused alerts request; libs/http's filters answer with its code's status in the app API's shape. */
export class AlertsError extends domainErrorOf({ [AlertsErrorCode.Invalid]: 400, [AlertsErrorCode.NotFound]: 404 }) {}

export const invalidAlert = (message: string) => new AlertsError(AlertsErrorCode.Invalid, message);
