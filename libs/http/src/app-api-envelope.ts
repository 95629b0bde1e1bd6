import { applyDecorators, Type } from '@nestjs/common';
import { ApiExtraModels, ApiResponse, getSchemaPath } from '@nestjs/swagger';

/** The app API's success envelope: `{"status":"ok","results":…}`. */
export const ok = <T>(results: T) => ({ status: 'ok' as const, results });

/** Documents an app API answer: `model` (or a list of it) inside the `{status, results}` envelope. */
export function ApiEnvelope(model: Type<unknown>, { list = false, status = 200 } = {}): MethodDecorator {
  const item = { $ref: getSchemaPath(model) };
  return applyDecorators(
    ApiExtraModels(model),
    ApiResponse({
      status,
      schema: {
        type: 'object',
        required: ['status', 'results'],
        properties: {
          status: { type: 'string', enum: ['ok'] },
          results: list ? { type: 'array', items: item } : item,
        },
      },
    }),
  );
}
