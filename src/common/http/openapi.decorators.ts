import { applyDecorators, type Type } from '@nestjs/common';
import {
  ApiConsumes,
  ApiExtraModels,
  ApiHeader,
  ApiQuery,
  ApiResponse,
  getSchemaPath,
  type ReferenceObject,
  type SchemaObject,
} from '@nestjs/swagger';

export const ERROR_TEXT: Record<number, string> = {
  400: 'Bad Request: the message names each invalid field',
  401: 'Unauthorized',
  404: 'Not found',
  409: 'Conflict',
  412: 'Precondition Failed: If-Match names no current ETag of the resource; nothing changed',
  413: 'Request body exceeds 1 MiB (after decoding its Content-Encoding)',
  415: 'Content-Encoding other than identity, gzip, deflate or br',
  429: 'Too Many Requests (Retry-After header in seconds)',
  500: 'Internal Server Error',
  503: 'Service Unavailable (database unreachable)',
  504: 'Gateway Timeout',
};

/** What every route may answer, whatever it does: no key, too many requests, a fault, no database. */
export const GLOBAL_ERRORS: readonly number[] = [401, 429, 500, 503];

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
    current_page: { type: 'integer', description: 'Not in a page by cursor' },
    per_page: { type: 'integer', description: 'limit in a page by cursor' },
    total_items: { type: 'integer', description: 'Not in a page by cursor' },
    next_cursor: {
      type: 'string',
      nullable: true,
      description: 'Only in a page by cursor (the audit trail, delivery logs): null after the last page',
    },
  },
};

const ETAG_HEADER = {
  description: 'Strong entity tag of the resource, changed by every change; send it back in If-Match',
  schema: { type: 'string', example: '"3-mbx2k1a0b"' },
} as const;

/** The success envelope around `data` (docs/reference/envelope-and-errors.md). */
export function envelopeSchema(data: SchemaObject | ReferenceObject, list = false): SchemaObject {
  const properties: Record<string, SchemaObject | ReferenceObject> = {
    success: { type: 'boolean', example: true },
    data,
    error: { type: 'string', nullable: true, example: null },
  };
  if (list) properties.pagination = paginationSchema;
  return { type: 'object', properties };
}

export function ApiEnvelope(
  model: Type<unknown> | StringConstructor,
  status: number,
  options: { list?: boolean; etag?: boolean } = {},
) {
  const data: SchemaObject | ReferenceObject =
    model === String
      ? { type: 'string' }
      : options.list
        ? { type: 'array', items: { $ref: getSchemaPath(model as Type<unknown>) } }
        : { $ref: getSchemaPath(model as Type<unknown>) };
  const schema = envelopeSchema(data, options.list);
  const headers = options.etag ? { ETag: ETAG_HEADER } : undefined;
  const response = ApiResponse({ status, headers, schema });
  return model === String
    ? applyDecorators(response)
    : applyDecorators(ApiExtraModels(model as Type<unknown>), response);
}

export function ApiErrors(...statuses: number[]) {
  return applyDecorators(
    ...statuses.map((status) =>
      ApiResponse({ status, description: ERROR_TEXT[status] ?? 'Error', schema: errorEnvelopeSchema }),
    ),
  );
}

export const ApiJsonBody = () => ApiConsumes('application/json', 'application/merge-patch+json');

export const ApiIfMatch = () =>
  ApiHeader({
    name: 'If-Match',
    required: false,
    description:
      'Apply only if the resource is unchanged: its current ETag (or a list of tags, or *); otherwise 412 and nothing changes',
  });

export const ApiDryRun = () =>
  ApiQuery({
    name: 'dry_run',
    required: false,
    schema: { type: 'boolean', default: false },
    description:
      'true: run every check and answer what the request would answer, without writing anything or sending any event',
  });
