import { applyDecorators, type Type } from '@nestjs/common';
import {
  ApiConsumes,
  ApiExtraModels,
  ApiResponse,
  getSchemaPath,
  type ReferenceObject,
  type SchemaObject,
} from '@nestjs/swagger';

const ERROR_TEXT: Record<number, string> = {
  400: 'Bad Request: the message names each invalid field',
  401: 'Unauthorized',
  404: 'Not found',
  409: 'Conflict',
  413: 'Request body exceeds 1 MiB (after decoding its Content-Encoding)',
  415: 'Content-Encoding other than identity, gzip, deflate or br',
  429: 'Too Many Requests (Retry-After header in seconds)',
  500: 'Internal Server Error',
  503: 'Service Unavailable (database unreachable)',
  504: 'Gateway Timeout',
};

export const errorEnvelopeSchema: SchemaObject = {
  type: 'object',
  required: ['success', 'data', 'message', 'error'],
  properties: {
    success: { type: 'boolean', example: false },
    data: { type: 'object', nullable: true, example: null },
    message: { type: 'string' },
    error: { type: 'string', description: 'The same text as message' },
  },
};

const paginationSchema: SchemaObject = {
  type: 'object',
  properties: {
    current_page: { type: 'integer' },
    per_page: { type: 'integer' },
    total_items: { type: 'integer' },
  },
};

/** Documents the success envelope around a model (or a list of it, with pagination). */
export function ApiEnvelope(
  model: Type<unknown> | StringConstructor,
  status: number,
  options: { list?: boolean } = {},
) {
  const data: SchemaObject | ReferenceObject =
    model === String
      ? { type: 'string' }
      : options.list
        ? { type: 'array', items: { $ref: getSchemaPath(model as Type<unknown>) } }
        : { $ref: getSchemaPath(model as Type<unknown>) };
  const properties: Record<string, SchemaObject | ReferenceObject> = {
    success: { type: 'boolean', example: true },
    data,
    error: { type: 'string', nullable: true, example: null },
  };
  if (options.list) properties.pagination = paginationSchema;
  const decorators = [ApiResponse({ status, schema: { type: 'object', properties } })];
  return model === String
    ? applyDecorators(...decorators)
    : applyDecorators(ApiExtraModels(model as Type<unknown>), ...decorators);
}

/** Documents the error envelope for each status the route can answer. */
export function ApiErrors(...statuses: number[]) {
  return applyDecorators(
    ...statuses.map((status) =>
      ApiResponse({ status, description: ERROR_TEXT[status] ?? 'Error', schema: errorEnvelopeSchema }),
    ),
  );
}

/** Write bodies are JSON; a PATCH is a JSON merge patch, which may say so (RFC 7396). */
export const ApiJsonBody = () => ApiConsumes('application/json', 'application/merge-patch+json');
