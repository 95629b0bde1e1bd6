export { AppApiController, ApiControllerOptions, QueryFamilyController } from './api-controllers';
export { ApiErrorFilter } from './api-error.filter';
export { ApiFamily, apiFamilyOf, errorBody, QUERY_API_PREFIXES } from './api-family';
export { errorStatus, ErrorStatus } from './error-status';
export { jsonBody } from './json-body.middleware';
export { UnknownRouteFilter } from './unknown-route.filter';
export { UnknownRoutesModule } from './unknown-routes.module';
export { strictValidation } from './validation';
export { ok } from './app-api-envelope';
export { booleanParameter } from './boolean-parameter';
export { IdPipe, isDatabaseId, MAX_DATABASE_ID } from './id.pipe';
export {
  ApiFormFields,
  ApiQueryParameters,
  FROM_DATE_PARAMETER,
  PROJECT_ID_PARAMETER,
  QueryParameterDoc,
  requiredParameter,
  TO_DATE_PARAMETER,
  WHERE_PARAMETER,
} from './api-query-parameters';
