import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import { LIVENESS_PATH } from './probes/liveness';
import { documentIdempotencyKeys } from './idempotency/idempotency.openapi';
import { documentGrants } from './api-keys/api-keys.openapi';
import { documentAuditTypes } from './audit/audit.openapi';
import { documentEnvelopes } from './common/http/openapi-routes';

/** The liveness route is answered by Express directly (probes/liveness.ts). */
function withLiveness(document: OpenAPIObject): OpenAPIObject {
  document.paths[LIVENESS_PATH] = {
    get: {
      operationId: 'liveness',
      tags: ['health'],
      summary: 'Liveness probe: no auth, no rate limit, no database access',
      responses: {
        '200': {
          description: 'The process is alive',
          content: { 'text/plain': { schema: { type: 'string', example: 'OK' } } },
        },
      },
    },
  };
  return document;
}

export function setupOpenApi(app: INestApplication): void {
  documentEnvelopes(app);
  const document = () =>
    withLiveness(
      SwaggerModule.createDocument(
        app,
        new DocumentBuilder()
          .setTitle('Relayer management service')
          .setDescription(
            'Create and update blockchain relayers (EVM, Solana, Stellar) and the webhook notification targets they report to. ' +
              'Every response of /api/v1 except health and ready uses the envelope {success, data, error} ' +
              '(errors: {success: false, data: null, message, error}).',
          )
          .setVersion('1')
          .addBearerAuth({
            type: 'http',
            scheme: 'bearer',
            bearerFormat: 'API key',
            description: 'The API_KEY',
          })
          .build(),
      ),
    );
  SwaggerModule.setup(
    'api/docs',
    app,
    () => documentAuditTypes(documentGrants(documentIdempotencyKeys(document()))),
    {
      jsonDocumentUrl: 'api/docs-json',
      useGlobalPrefix: false,
    },
  );
}
