export { QueryApiError } from './query-api-error';
export { QueryApiErrorFilter } from './query-api-error.filter';
