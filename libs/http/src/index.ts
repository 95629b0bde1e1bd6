export { AppApiController, ApiControllerOptions, QueryFamilyController } from './api-controllers';
export { ApiErrorFilter } from './api-error.filter';
export { ApiFamily, apiFamilyOf, errorBody, QUERY_API_PREFIXES } from './api-family';
export { errorStatus, ErrorStatus } from './error-status';
export { jsonBody } from './json-body.middleware';
export { UnknownRouteFilter } from './unknown-route.filter';
export { UnknownRoutesModule } from './unknown-routes.module';
export { strictValidation } from './validation';
export { ok } from './app-api-envelope';
