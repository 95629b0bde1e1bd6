export { AppApiError } from './app-api-error';
export { AppApiErrorFilter } from './app-api-error.filter';
export { errorStatus, ErrorStatus } from './error-status';
export { ApiFamily, jsonBody } from './json-body.middleware';
export { QueryApiError } from './query-api-error';
export { QueryApiErrorFilter } from './query-api-error.filter';
export { strictValidation } from './validation';
export { ok } from './app-api-envelope';
