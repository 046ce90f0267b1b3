import { Logger as NestLogger, type INestApplication } from '@nestjs/common';
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
    // Throw instead of exiting on a start-up error, so main.ts can say what went wrong.
    abortOnError: false,
  });
  app.useLogger(app.get(Logger));
  app.set('trust proxy', config.http.trustProxy);
  app.set('x-powered-by', false);
  // Exact big integers (bigint) go out as JSON numbers with every digit.
  app.set('json replacer', bigintReplacer);
  app.setGlobalPrefix(API_PREFIX);
  setupOpenApi(app);
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

/**
 * SIGTERM or SIGINT: stop accepting connections, let in-flight requests finish, run the modules'
 * shutdown hooks (database, Redis), then exit 0; exit 1 if that takes longer than SHUTDOWN_GRACE_MS.
 */
export function exitGracefullyOnSignals(app: INestApplication, config: AppConfig): void {
  const logger = new NestLogger('Shutdown');
  let closing = false;
  const shutdown = (signal: NodeJS.Signals): void => {
    if (closing) return;
    closing = true;
    logger.log(`${signal} received: finishing in-flight requests (grace ${config.http.shutdownGraceMs} ms)`);
    setTimeout(() => {
      logger.error('grace period over with requests still running: exiting');
      process.exit(1);
    }, config.http.shutdownGraceMs).unref();
    app.close().then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', shutdown);
  process.once('SIGINT', shutdown);
}
