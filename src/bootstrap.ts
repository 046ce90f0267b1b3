import type { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { Logger } from 'nestjs-pino';
import { AppModule } from './app.module';
import { bigintReplacer } from './common/http/json';
import { setupOpenApi } from './common/http/openapi-document';
import type { AppConfig } from './config/app-config';

export const API_PREFIX = 'api/v1';

/**
 * Builds the application exactly as it runs in production; main.ts and the e2e tests both use it.
 * Nest's own body parser is off: JsonBodyInterceptor reads bodies after authentication.
 */
export async function createApp(config: AppConfig): Promise<NestExpressApplication> {
  const app = await NestFactory.create<NestExpressApplication>(AppModule.register(config), {
    bodyParser: false,
    bufferLogs: true,
  });
  app.useLogger(app.get(Logger));
  app.set('trust proxy', config.http.trustProxy);
  app.set('x-powered-by', false);
  // Exact big integers (bigint) go out as JSON numbers with every digit.
  app.set('json replacer', bigintReplacer);
  app.setGlobalPrefix(API_PREFIX);
  setupOpenApi(app);
  app.enableShutdownHooks();
  return app;
}

/**
 * Keep idle connections open longer than load balancers do (AWS ALB: 60 s), so the balancer
 * always closes first and never reuses a connection the service has just closed (a 502).
 */
export function applyServerTimeouts(app: INestApplication): void {
  const server = app.getHttpServer() as import('node:http').Server;
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  server.requestTimeout = 120_000;
}
