import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';

/** The OpenAPI document at /api/docs-json and its UI at /api/docs (public: they hold no data). */
export function setupOpenApi(app: INestApplication): void {
  // Built on the first request for it, not at start.
  const document = () =>
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
        .addBearerAuth({ type: 'http', scheme: 'bearer', bearerFormat: 'API key', description: 'The API_KEY' })
        .build(),
    );
  SwaggerModule.setup('api/docs', app, document, {
    jsonDocumentUrl: 'api/docs-json',
    useGlobalPrefix: false,
  });
}
