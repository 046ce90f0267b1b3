// B3: the framework floor. A minimal Nest + @nestjs/platform-express application with the service's
// global pieces and nothing of its own domain: the bearer check, the rate limiter, the envelope
// interceptor and the logger (one JSON line per request at info, to a file). Its handlers are B1's
// (SQLite) or B2's (MySQL), the very same functions (sqlite-handlers.mjs, mysql-handlers.mjs), so
// the difference between B3 and B1/B2 is what Nest + Express + those pieces cost, and the
// difference between the service and B3 is what the service adds above the framework (its other
// guards and interceptors, validation, TypeORM, address derivation, the audit trail, ...).
//
// What comes from the service itself, imported from its compiled build (SERVICE_SRC, the build's
// src/ folder: the benchmark passes its private build; default dist/src of the repository):
//   - ApiKeyVerifier (src/common/auth/api-key-verifier.ts): the constant-time check of API_KEY;
//     the guard around it is re-implemented here in a few lines (the service's BearerAuthGuard also
//     looks up managed keys and permissions, which is the service's cost, not the framework's);
//   - ApiKeyThrottlerGuard and FixedWindowThrottlerStorage (src/common/rate-limit/), configured as
//     rate-limit.module.ts does with RATE_LIMIT_REQUESTS_PER_SECOND / RATE_LIMIT_BURST_SIZE (the
//     benchmark gives both the service and B3 the same values), one budget for the one key;
//   - EnvelopeInterceptor and Page (src/common/http/), the success envelope with pagination;
//   - LoggingModule (src/common/logging/logging.module.ts, nestjs-pino) with the configuration it
//     reads (level LOG_LEVEL, default info; file LOG_FILE; JSON lines), and app.useLogger as
//     bootstrap.ts does;
//   - answerLiveness (src/probes/liveness.ts): GET /api/v1/health answered by Express ahead of Nest,
//     as the service does.
// Application settings as bootstrap.ts: global prefix api/v1, no x-powered-by, no ETag, keep-alive
// 65 s. Bodies are parsed by Nest's default JSON body parser (the service turns it off and reads
// bodies in an interceptor after authentication).
//
// Plain JavaScript, so the decorators are applied by hand (Reflect.decorate) instead of with `@`.
// Env: PORT, HOST, DATABASE_URL (sqlite:<path> or mysql://...), API_KEY, LOG_FILE, LOG_LEVEL,
// SERVICE_SRC, RATE_LIMIT_REQUESTS_PER_SECOND, RATE_LIMIT_BURST_SIZE.
import 'reflect-metadata';
import {
  Body,
  Controller,
  Get,
  HttpCode,
  HttpException,
  Injectable,
  Module,
  Param,
  Patch,
  Post,
  Query,
  UnauthorizedException,
} from '@nestjs/common';
import { APP_GUARD, APP_INTERCEPTOR, NestFactory, Reflector } from '@nestjs/core';
import { ThrottlerModule } from '@nestjs/throttler';
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import path from 'node:path';
import { HttpError, PREFIX } from './common.mjs';

const serviceSrc = path.resolve(
  process.env.SERVICE_SRC ?? path.join(import.meta.dirname, '..', '..', 'dist', 'src'),
);
const fromService = createRequire(path.join(serviceSrc, 'main.js'));
const { ApiKeyVerifier } = fromService('./common/auth/api-key-verifier');
const { IS_PUBLIC, Public } = fromService('./common/auth/public.decorator');
const { ApiKeyThrottlerGuard } = fromService('./common/rate-limit/api-key-throttler.guard');
const { FixedWindowThrottlerStorage } = fromService('./common/rate-limit/fixed-window-throttler-storage');
const { EnvelopeInterceptor } = fromService('./common/http/envelope.interceptor');
const { Page } = fromService('./common/http/page.dto');
const { RawResponse } = fromService('./common/http/raw-response.decorator');
const { LoggingModule } = fromService('./common/logging/logging.module');
const { AppConfigModule } = fromService('./config/app-config.module');
const { answerLiveness, LIVENESS_PATH } = fromService('./probes/liveness');
// nestjs-pino ships CommonJS and ESM builds: its Logger must be the one the LoggingModule registered.
const { Logger } = fromService('nestjs-pino');

const env = process.env;
const apiKey = env.API_KEY;
if (!apiKey) throw new Error('API_KEY must be set');
const databaseUrl = env.DATABASE_URL ?? '';
const store = databaseUrl.startsWith('mysql://')
  ? (await import('./mysql-handlers.mjs')).mysqlHandlers(databaseUrl)
  : (await import('./sqlite-handlers.mjs')).sqliteHandlers(databaseUrl || 'sqlite:./b3.sqlite');
const { handlers } = store;

// --- The bearer guard: the service's verifier, Nest's guard interface, public routes skipped.
class BearerGuard {
  constructor(reflector) {
    this.reflector = reflector;
    this.verifier = new ApiKeyVerifier(apiKey);
  }

  canActivate(context) {
    if (this.reflector.getAllAndOverride(IS_PUBLIC, [context.getHandler(), context.getClass()])) return true;
    const req = context.switchToHttp().getRequest();
    const token = this.verifier.bearerToken(req.headers, req.rawHeaders);
    if (token === null || !this.verifier.isAdmin(token)) throw new UnauthorizedException();
    return true;
  }
}
Reflect.decorate([Injectable(), Reflect.metadata('design:paramtypes', [Reflector])], BearerGuard);

// --- Handlers: B1's/B2's, their refusals answered in the service's error envelope.
const refusal = (error) => {
  if (!(error instanceof HttpError)) throw error;
  throw new HttpException(
    { success: false, data: null, message: error.message, error: error.message },
    error.status,
  );
};
const call = (fn) => {
  try {
    const value = fn();
    return value instanceof Promise ? value.catch(refusal) : value;
  } catch (error) {
    return refusal(error);
  }
};
const wholeNumber = (value, fallback, max, message) => {
  const n = value === undefined ? fallback : /^\d{1,9}$/.test(value) ? Number(value) : NaN;
  if (!Number.isInteger(n) || n < 1 || n > max) refusal(new HttpError(400, message));
  return n;
};
const pageOf = async ({ items, total }, query) => new Page(items, query, total);

class HealthController {
  ready() {
    return { status: 'ok' };
  }
}
Reflect.decorate(
  [Public(), RawResponse(), Get('ready')],
  HealthController.prototype,
  'ready',
  Object.getOwnPropertyDescriptor(HealthController.prototype, 'ready'),
);
Reflect.decorate([Controller()], HealthController);

class RelayersController {
  create(body) {
    return call(() => handlers.createRelayer(body));
  }

  list(pageText, perPageText) {
    const query = {
      page: wholeNumber(pageText, 1, Number.MAX_SAFE_INTEGER, 'page must be a whole number of at least 1'),
      per_page: wholeNumber(perPageText, 10, 100, 'per_page must be a whole number from 1 to 100'),
    };
    return call(() => {
      const listed = handlers.listRelayers({ page: query.page, perPage: query.per_page });
      return listed instanceof Promise
        ? listed.then((l) => pageOf(l, query))
        : new Page(listed.items, query, listed.total);
    });
  }

  get(id) {
    return call(() => handlers.getRelayer(id));
  }

  patch(id, body) {
    return call(() => handlers.patchRelayer(id, body));
  }
}
const method = (Class, name, decorators) =>
  Reflect.decorate(decorators, Class.prototype, name, Object.getOwnPropertyDescriptor(Class.prototype, name));
method(RelayersController, 'create', [Post(), HttpCode(201)]);
method(RelayersController, 'list', [Get()]);
method(RelayersController, 'get', [Get(':id')]);
method(RelayersController, 'patch', [Patch(':id'), HttpCode(200)]);
Body()(RelayersController.prototype, 'create', 0);
Query('page')(RelayersController.prototype, 'list', 0);
Query('per_page')(RelayersController.prototype, 'list', 1);
Param('id')(RelayersController.prototype, 'get', 0);
Param('id')(RelayersController.prototype, 'patch', 0);
Body()(RelayersController.prototype, 'patch', 1);
Reflect.decorate([Controller('relayers')], RelayersController);

class NotificationsController {
  create(body) {
    return call(() => handlers.createNotification(body));
  }
}
method(NotificationsController, 'create', [Post(), HttpCode(201)]);
Body()(NotificationsController.prototype, 'create', 0);
Reflect.decorate([Controller('notifications')], NotificationsController);

// --- The module: the service's configuration for the logger, the limiter as rate-limit.module.ts.
const burstSize = Number(env.RATE_LIMIT_BURST_SIZE ?? 300);
const requestsPerSecond = Number(env.RATE_LIMIT_REQUESTS_PER_SECOND ?? 100);
const windowMs = Math.max(1, Math.round((burstSize / requestsPerSecond) * 1000));
const tracker = createHash('sha256').update(apiKey).digest('hex').slice(0, 32);
const throttlerKey = `relayer-rl:${tracker}`; // RATE_LIMIT_KEY_PREFIX's default
const config = {
  production: true,
  log: { level: env.LOG_LEVEL ?? 'info', file: env.LOG_FILE ?? null, format: 'json' },
};

class B3Module {}
Reflect.decorate(
  [
    Module({
      imports: [
        AppConfigModule.forRoot(config),
        LoggingModule,
        ThrottlerModule.forRoot({
          throttlers: [{ name: 'default', ttl: windowMs, limit: burstSize }],
          getTracker: () => tracker,
          generateKey: () => throttlerKey,
          storage: new FixedWindowThrottlerStorage(),
        }),
      ],
      controllers: [HealthController, RelayersController, NotificationsController],
      providers: [
        { provide: APP_GUARD, useClass: BearerGuard },
        { provide: APP_GUARD, useClass: ApiKeyThrottlerGuard },
        { provide: APP_INTERCEPTOR, useClass: EnvelopeInterceptor },
      ],
    }),
  ],
  B3Module,
);

const app = await NestFactory.create(B3Module, { bufferLogs: true, abortOnError: false });
app.useLogger(app.get(Logger));
app.set('x-powered-by', false);
app.set('etag', false);
app.getHttpAdapter().getInstance().get(LIVENESS_PATH, answerLiveness);
app.setGlobalPrefix(PREFIX.slice(1));
const server = app.getHttpServer();
server.keepAliveTimeout = 65_000;
server.headersTimeout = 66_000;
const port = Number(env.PORT ?? 8090);
const host = env.HOST ?? '127.0.0.1';
await app.listen(port, host);
console.log(
  `B3 Nest + platform-express (${databaseUrl.split(':')[0] || 'sqlite'}) listening on http://${host}:${port}${PREFIX}`,
);

const stop = () => {
  server.closeAllConnections();
  app
    .close()
    .then(() => store.close())
    .then(
      () => process.exit(0),
      () => process.exit(1),
    );
};
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
