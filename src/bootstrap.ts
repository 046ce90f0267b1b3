import { Logger as NestLogger, type INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { Express } from 'express';
import type { Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { Logger } from 'nestjs-pino';
import { AppModule, type AppExtensions } from './app.module';
import { setupOpenApi } from './openapi-document';
import type { AppConfig } from './config/app-config';
import { LifecycleState } from './probes/lifecycle-state';
import { answerLiveness, LIVENESS_PATH } from './probes/liveness';

export const API_PREFIX = 'api/v1';

/**
 * Builds the application exactly as it runs in production; main.ts and the e2e tests both use it.
 * Nest's own body parser is off: JsonBodyInterceptor reads bodies after authentication.
 */
export async function createApp(
  config: AppConfig,
  options: AppExtensions = {},
): Promise<NestExpressApplication> {
  const app = await NestFactory.create<NestExpressApplication>(AppModule.register(config, options), {
    bodyParser: false,
    bufferLogs: true,
    // Throw instead of exiting on a start-up error, so main.ts can say what went wrong.
    abortOnError: false,
  });
  app.useLogger(app.get(Logger));
  app.set('trust proxy', config.http.trustProxy);
  app.set('x-powered-by', false);
  // API answers are not cached by clients; computing an ETag for each one is wasted work.
  app.set('etag', false);
  const express: Express = app.getHttpAdapter().getInstance();
  express.get(LIVENESS_PATH, answerLiveness);
  app.setGlobalPrefix(API_PREFIX, { exclude: ['metrics', 'metrics/:metric_name', 'debug/metrics/scrape'] });
  setupOpenApi(app);
  return app;
}

/**
 * Node-level HTTP settings. Idle keep-alive connections stay open longer than load balancers keep
 * theirs (KEEP_ALIVE_TIMEOUT_MS, default 65 s against AWS ALB's 60 s), so a balancer never reuses a
 * connection the service has just closed (a 502). Requests Node itself refuses before Express sees them (malformed, headers over 16 KiB)
 * still get the JSON error envelope.
 */
export function configureHttpServer(app: INestApplication, config: AppConfig): void {
  const server = app.getHttpServer() as Server;
  server.keepAliveTimeout = config.http.keepAliveTimeoutMs;
  server.headersTimeout = config.http.keepAliveTimeoutMs + 1000;
  server.requestTimeout = Math.max(120_000, config.http.requestTimeoutMs + 5000);
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (!socket.writable) return;
    const [status, reason] =
      error.code === 'HPE_HEADER_OVERFLOW'
        ? [431, 'Request Header Fields Too Large']
        : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? [408, 'Request Timeout']
          : [400, 'Bad Request'];
    const body = JSON.stringify({ success: false, data: null, message: reason, error: reason });
    socket.end(
      `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
}

/**
 * SIGTERM or SIGINT: readiness turns 503, the server stops accepting connections, in-flight
 * requests finish, then the modules' shutdown hooks close the database and Redis, and the
 * process exits 0; it exits 1 if all that takes longer than SHUTDOWN_GRACE_MS.
 * The HTTP server is closed first on purpose: Nest's own app.close() runs the shutdown hooks
 * before it closes the server, which would pull the database from under running requests.
 */
export function exitGracefullyOnSignals(app: INestApplication, config: AppConfig): void {
  const logger = new NestLogger('Shutdown');
  let closing = false;
  const shutdown = (signal: NodeJS.Signals): void => {
    if (closing) return;
    closing = true;
    const started = Date.now();
    logger.log(`${signal} received: draining in-flight requests (grace ${config.http.shutdownGraceMs} ms)`);
    app.get(LifecycleState).startDraining();
    setTimeout(() => {
      logger.error('grace period over with requests still running: exiting');
      process.exit(1);
    }, config.http.shutdownGraceMs).unref();
    closeHttpServer(app.getHttpServer() as Server)
      .then(() => app.close())
      .then(
        () => {
          logger.log(`drained and closed in ${Date.now() - started} ms`);
          process.exit(0);
        },
        (error: unknown) => {
          logger.error({ err: error }, 'shutdown failed');
          process.exit(1);
        },
      );
  };
  process.once('SIGTERM', shutdown);
  process.once('SIGINT', shutdown);
}

/** Stops accepting connections and resolves once every open one has finished its request. */
function closeHttpServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    // Connections that finish a request while draining become idle: close those too.
    const sweep = setInterval(() => server.closeIdleConnections(), 100);
    server.close(() => {
      clearInterval(sweep);
      resolve();
    });
  });
}
