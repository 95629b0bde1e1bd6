export { AppApiController, QueryFamilyController } from './api-controllers';
export { ApiErrorFilter } from './api-error.filter';
export { QUERY_API_PREFIXES } from './api-family';
export { jsonBody } from './json-body.middleware';
export { UnknownRoutesModule } from './unknown-routes.module';
export { ApiEnvelope, ok } from './app-api-envelope';
export { booleanParameter } from './boolean-parameter';
export { IdPipe, isDatabaseId } from './id.pipe';
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
