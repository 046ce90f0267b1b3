import { Logger as NestLogger, type INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { Express } from 'express';
import type { Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { Logger } from 'nestjs-pino';
import { AppModule, type AppExtensions } from './app.module';
import { assertRoutePermissionsDeclared } from './common/auth/route-permissions';
import { answerNotModified } from './common/http/conditional-get';
import { errorEnvelope } from './common/http/problem-details';
import { applyProviderOverrides } from './common/modules/provider-overrides';
import { setupOpenApi } from './openapi-document';
import { serveConsole } from './console/serve-console';
import type { AppConfig } from './config/app-config';
import { LifecycleState } from './probes/lifecycle-state';
import { answerLiveness, LIVENESS_PATH } from './probes/liveness';

export const API_PREFIX = 'api/v1';
/** The routes served outside API_PREFIX (Prometheus scrapes /metrics). */
export const UNPREFIXED_ROUTES = ['metrics', 'metrics/:metric_name', 'debug/metrics/scrape'];

export async function createApp(config: AppConfig, options: AppExtensions = {}) {
  const root = await applyProviderOverrides(AppModule.register(config, options), options.overrides ?? []);
  const app = await NestFactory.create<NestExpressApplication>(root, {
    bodyParser: false, // JsonBodyInterceptor reads bodies after authentication
    bufferLogs: true,
    // Throw instead of exiting on a start-up error, so main.ts can say what went wrong.
    abortOnError: false,
  });
  app.useLogger(app.get(Logger));
  try {
    assertRoutePermissionsDeclared(app);
  } catch (error) {
    await app.close();
    throw error;
  }
  app.set('trust proxy', config.http.trustProxy);
  app.set('x-powered-by', false);
  // Express tags no answer itself: the envelope interceptor tags lists and resources, and a 304 is
  // decided in one place (docs/reference/safe-writes.md#14-conditional-gets).
  app.set('etag', false);
  const express: Express = app.getHttpAdapter().getInstance();
  answerNotModified(express);
  // Paths are matched as written, as ids are (docs/reference/running.md): /relayers/SUMMARY is the
  // relayer SUMMARY, not the summary. Express's 'case sensitive routing' setting comes too late here
  // (its router exists already); the router reads this when each route is added, at init.
  (express.router as { caseSensitive?: boolean }).caseSensitive = true;
  express.get(LIVENESS_PATH, answerLiveness);
  serveConsole(app);
  app.setGlobalPrefix(API_PREFIX, { exclude: UNPREFIXED_ROUTES });
  setupOpenApi(app);
  return app;
}

/** Keep-alive outlives load balancers' (65 s against AWS ALB's 60 s): none reuses a closed connection. */
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
    // Node could not read the request, so neither its Accept: always the envelope
    // (docs/reference/envelope-and-errors.md#44-where-they-apply).
    const body = JSON.stringify(errorEnvelope(reason));
    socket.end(
      `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
}

// The server closes first: app.close() would close the database under running requests.
export function exitGracefullyOnSignals(app: INestApplication, config: AppConfig): void {
  const logger = new NestLogger('Shutdown');
  let closing = false;
  const shutdown = (signal: NodeJS.Signals): void => {
    if (closing) return;
    closing = true;
    const started = Date.now();
    logger.log(`${signal} received: draining in-flight requests (grace ${config.http.shutdownGraceMs} ms)`);
    app.get(LifecycleState).draining = true;
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
