import { applyDecorators, CanActivate, Controller, Type, UseFilters, UseGuards, UsePipes } from '@nestjs/common';
import { ApiBasicAuth, ApiTags } from '@nestjs/swagger';
import { ApiErrorFilter } from './api-error.filter';
import { strictValidation } from './validation';

export interface ApiControllerOptions {
  /** The OpenAPI tag the routes are listed under. */
  tag: string;
  /** The guard that authenticates every route and scopes it (account, organization or project). */
  access: Type<CanActivate>;
}

const appApiErrors = new ApiErrorFilter('app');
const queryApiErrors = new ApiErrorFilter('query');

/**
 * An app API controller (/api/app/…): HTTP Basic checked by `access`, DTOs validated strictly,
 * failures as `{"status":"error","error"}`.
 */
export function AppApiController(path: string, { tag, access }: ApiControllerOptions): ClassDecorator {
  return applyDecorators(
    ApiTags(tag),
    ApiBasicAuth(),
    Controller(path),
    UseGuards(access),
    UseFilters(appApiErrors),
    UsePipes(strictValidation),
  );
}

/**
 * A controller of the reading APIs (query, profile query, export under /api/query and /api/2.0):
 * HTTP Basic checked by `access`, failures as `{"request","error"}`.
 */
export function QueryFamilyController(path: string | string[], { tag, access }: ApiControllerOptions): ClassDecorator {
  return applyDecorators(ApiTags(tag), ApiBasicAuth(), Controller(path), UseGuards(access), UseFilters(queryApiErrors));
}
