import { applyDecorators } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiQuery } from '@nestjs/swagger';

/** One query-string (or form) parameter of a route, as the OpenAPI document lists it. */
export interface QueryParameterDoc {
  name: string;
  description: string;
  required?: boolean;
  type?: 'string' | 'integer' | 'number' | 'boolean';
  format?: 'date';
  enum?: readonly string[];
  /** A valid value: shown in the document, and used by the tests that check a route's list. */
  example?: string;
}

/**
 * Lists a route's parameters in the OpenAPI document. The handlers read them from the request
 * themselves (the real API's loose rules: empty = absent, unknown names ignored), so this is the
 * documentation of those reads; each lib's tests check that its readers stay within its list.
 */
export function ApiQueryParameters(parameters: readonly QueryParameterDoc[]): MethodDecorator {
  return applyDecorators(
    ...parameters.map((p) =>
      ApiQuery({
        name: p.name,
        required: p.required ?? false,
        description: p.description,
        schema: schemaOf(p),
      }),
    ),
  );
}

/** The same parameters as the fields of a form (or JSON) body, for routes that take them by POST. */
export function ApiFormFields(parameters: readonly QueryParameterDoc[]): MethodDecorator {
  return applyDecorators(
    ApiConsumes('application/x-www-form-urlencoded', 'application/json'),
    ApiBody({
      required: parameters.some((p) => p.required),
      schema: {
        type: 'object',
        required: parameters.filter((p) => p.required).map((p) => p.name),
        properties: Object.fromEntries(parameters.map((p) => [p.name, { ...schemaOf(p), description: p.description }])),
      },
    }),
  );
}

const schemaOf = (p: QueryParameterDoc) => ({
  type: p.type ?? 'string',
  ...(p.format && { format: p.format }),
  ...(p.enum && { enum: [...p.enum] }),
  ...(p.example !== undefined && { example: p.example }),
});

/** The same parameter, required. */
export const requiredParameter = (parameter: QueryParameterDoc): QueryParameterDoc => ({
  ...parameter,
  required: true,
});

/** Parameters every reading API shares. */
export const PROJECT_ID_PARAMETER: QueryParameterDoc = {
  name: 'project_id',
  type: 'integer',
  description: 'The project. Required with service-account credentials; a project secret implies it.',
  example: '1',
};
export const FROM_DATE_PARAMETER: QueryParameterDoc = {
  name: 'from_date',
  format: 'date',
  description: 'First day, yyyy-mm-dd, inclusive (UTC).',
  example: '2026-01-01',
};
export const TO_DATE_PARAMETER: QueryParameterDoc = {
  name: 'to_date',
  format: 'date',
  description: 'Last day, yyyy-mm-dd, inclusive (UTC).',
  example: '2026-01-31',
};
export const WHERE_PARAMETER: QueryParameterDoc = {
  name: 'where',
  description: 'A filter expression over the event, e.g. properties["plan"] == "pro" (docs/expressions.md).',
  example: 'properties["plan"] == "pro"',
};
