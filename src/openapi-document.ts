import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import type { NextFunction, Request, Response } from 'express';
import { pageSecurityHeaders } from './console/serve-console';
import { LIVENESS_PATH } from './probes/liveness';
import { documentIdempotencyKeys } from './idempotency/idempotency.openapi';
import { documentGrants } from './api-keys/api-keys.openapi';
import { documentAuditTypes } from './audit/audit.openapi';
import { documentConditionalGets, documentEnvelopes } from './common/http/openapi-routes';
import { OPENAPI_VERSION, toOpenApi31 } from './common/http/openapi-31';
import { documentWebhooks } from './webhooks/webhooks.openapi';

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

/** Where Swagger UI is served; the document itself is at /api/docs-json. */
const SWAGGER_UI_PATH = '/api/docs';

/**
 * Swagger UI's page, as swagger-ui-dist's own index.html is: every script and style a file of
 * SwaggerModule's (swagger-ui-dist's assets, and its swagger-ui-init.js holding the document), none
 * inline, so that it runs under the console's policy (PAGE_CSP). `base` as SwaggerModule's: the
 * assets relative to `/api/docs` or `/api/docs/`.
 */
const swaggerUiPage = (base: string): string => `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Relayer management service: API</title>
<link rel="stylesheet" href="${base}swagger-ui.css">
<link rel="stylesheet" href="${base}index.css">
<link rel="icon" type="image/png" href="${base}favicon-32x32.png" sizes="32x32">
</head>
<body>
<div id="swagger-ui"></div>
<script src="${base}swagger-ui-bundle.js"></script>
<script src="${base}swagger-ui-standalone-preset.js"></script>
<script src="${base}swagger-ui-init.js"></script>
</body>
</html>
`;

/**
 * Swagger UI is on the console's origin: it is served under the console's policy and headers
 * (PAGE_SECURITY_HEADERS), with a page of its own in place of SwaggerModule's, whose inline styles
 * that policy refuses (docs/console.md#4-security).
 */
function serveSwaggerUiPage(app: INestApplication): void {
  app.use(SWAGGER_UI_PATH, pageSecurityHeaders);
  const page = (request: Request, response: Response, next: NextFunction): void => {
    // Only the page's own paths: SwaggerModule serves the rest (its assets, the init script).
    if (!['/', '/index.html'].includes(request.path)) return next();
    const base = request.originalUrl.split('?')[0] === SWAGGER_UI_PATH ? './docs/' : './';
    response.type('html').send(swaggerUiPage(base));
  };
  app.use(SWAGGER_UI_PATH, page);
}

export function setupOpenApi(app: INestApplication): void {
  documentEnvelopes(app);
  documentConditionalGets(app);
  serveSwaggerUiPage(app);
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
          .setOpenAPIVersion(OPENAPI_VERSION)
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
    // Everything else adds its part first; the 3.1 form is made last, in one place (toOpenApi31).
    () =>
      toOpenApi31(documentWebhooks(documentAuditTypes(documentGrants(documentIdempotencyKeys(document()))))),
    {
      jsonDocumentUrl: 'api/docs-json',
      useGlobalPrefix: false,
      swaggerOptions: {
        // Nothing fetched from another host (the online validator's badge is an image from one).
        validatorUrl: null,
        // Without the top bar: its logo carries an inline style the policy refuses, and its box
        // loads any document by URL (SwaggerModule's page hides it with an inline style too).
        layout: 'BaseLayout',
      },
    },
  );
}
