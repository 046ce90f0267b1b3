import type { OpenAPIObject, ParameterObject, ResponseObject } from '@nestjs/swagger';
import { errorEnvelopeSchema } from '../common/http/openapi.decorators';
import { IDEMPOTENCY_KEY_HEADER, MAX_IDEMPOTENCY_KEY_LENGTH, REPLAYED_HEADER } from './idempotent-request';
import { IN_PROGRESS } from './idempotency.errors';

const KEY_PARAMETER: ParameterObject = {
  name: IDEMPOTENCY_KEY_HEADER,
  in: 'header',
  required: false,
  description:
    `Makes the POST safe to retry (1 to ${MAX_IDEMPOTENCY_KEY_LENGTH} printable ASCII characters, scoped to your API key): ` +
    'a repeat with the same key and the same request within 24 hours answers the first answer again ' +
    `(with ${REPLAYED_HEADER}: true) and changes nothing`,
  schema: {
    type: 'string',
    minLength: 1,
    maxLength: MAX_IDEMPOTENCY_KEY_LENGTH,
    example: 'deploy-2024-05-01-sepolia-main',
  },
};

const errorResponse = (description: string): ResponseObject => ({
  description,
  content: { 'application/json': { schema: errorEnvelopeSchema } },
});

const REUSED = 'This Idempotency-Key was used for another request (another path or body)';

/** Once here, on every POST, rather than with a decorator on each route, which a new route could miss. */
export function documentIdempotencyKeys(document: OpenAPIObject): OpenAPIObject {
  for (const path of Object.values(document.paths)) {
    const operation = path.post;
    if (!operation) continue;
    operation.parameters = [...(operation.parameters ?? []), KEY_PARAMETER];
    for (const [status, response] of Object.entries(operation.responses)) {
      if (!/^2\d\d$/.test(status) || response === undefined || '$ref' in response) continue;
      response.headers = {
        ...response.headers,
        [REPLAYED_HEADER]: {
          description:
            'true when this is the stored answer of an earlier request with the same Idempotency-Key',
          schema: { type: 'string', enum: ['true'] },
        },
      };
    }
    const conflict = operation.responses['409'] as ResponseObject | undefined;
    operation.responses['409'] = conflict
      ? { ...conflict, description: `${conflict.description}; or: ${IN_PROGRESS}` }
      : errorResponse(IN_PROGRESS);
    operation.responses['422'] = errorResponse(REUSED);
  }
  return document;
}
