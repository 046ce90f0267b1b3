import {
  Module,
  RequestMethod,
  type MiddlewareConsumer,
  type NestModule,
  type Provider,
  type Type,
} from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_INTERCEPTOR, APP_PIPE, NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import { API_PREFIX } from '../../src/bootstrap';
import { ApiKeyVerifier } from '../../src/common/auth/api-key-verifier';
import { Authenticator } from '../../src/common/auth/authenticator';
import { FailedAuthentications } from '../../src/common/rate-limit/failed-authentications';
import { FixedWindowThrottlerStorage } from '../../src/common/rate-limit/fixed-window-throttler-storage';
import { BearerAuthGuard } from '../../src/common/auth/bearer-auth.guard';
import type { Grant, Principal } from '../../src/common/auth/principal';
import { ApiExceptionFilter } from '../../src/common/http/api-exception.filter';
import { EnvelopeInterceptor } from '../../src/common/http/envelope.interceptor';
import { JsonBodyInterceptor } from '../../src/common/http/json-body.interceptor';
import { ParseJsonBodyInterceptor } from '../../src/common/http/parse-json-body.interceptor';
import { RequestContext } from '../../src/common/http/request-context';
import { DtoValidationPipe } from '../../src/common/validation/dto-validation.pipe';
import { loadConfig } from '../../src/config/app-config';
import { APP_CONFIG } from '../../src/config/app-config.module';

/** The administrator's token in a slice (the API_KEY of its config). */
const ADMIN_TOKEN = 'slice-admin-api-key-0123456789abcdef';

/** The token of a managed key holding exactly these grants (the slice's key store reads them back). */
export const keyHolding = (...grants: Grant[]): string => `rk_slice.${grants.join('+')}`;

function principalOf(token: string): Principal | null {
  if (!token.startsWith('rk_slice.')) return null;
  const grants = token.slice('rk_slice.'.length).split('+').filter(Boolean) as Grant[];
  return { type: 'api_key', id: 'slice-key', name: 'slice key', permissions: grants };
}

export interface Slice {
  /** supertest on the slice's server; `as` sets the bearer token (the administrator's by default). */
  get(path: string, token?: string | null): request.Test;
  post(path: string, body?: unknown, token?: string | null): request.Test;
  patch(path: string, body?: unknown, token?: string | null): request.Test;
  delete(path: string, token?: string | null): request.Test;
  close(): Promise<void>;
}

/**
 * A controller alone over HTTP, as immich's controllerSetup: the production pipeline of
 * src/app.module.ts (request context, bearer auth guard, JSON body, envelope, validation pipe,
 * exception filter) around one controller whose services are the stubs given. No database:
 * the guards and the interceptor that need one (database ready, rate limit, idempotency keys)
 * are proven by the e2e tests of test/http. For DTO and permission rules, in milliseconds.
 */
export async function controllerSlice(controller: Type, stubs: Provider[]): Promise<Slice> {
  const config = loadConfig({ NODE_ENV: 'test', API_KEY: ADMIN_TOKEN });

  @Module({})
  class SliceModule implements NestModule {
    configure(consumer: MiddlewareConsumer): void {
      consumer.apply(RequestContext.middleware).forRoutes({ path: '{*path}', method: RequestMethod.ALL });
    }
  }

  const app = await NestFactory.create<NestExpressApplication>(
    {
      module: SliceModule,
      controllers: [controller],
      providers: [
        ...stubs,
        { provide: APP_CONFIG, useValue: config },
        { provide: ApiKeyVerifier, useValue: new ApiKeyVerifier(config.auth.apiKey) },
        {
          provide: FailedAuthentications,
          useValue: new FailedAuthentications(new FixedWindowThrottlerStorage(), config),
        },
        Authenticator,
        { provide: APP_GUARD, useClass: BearerAuthGuard },
        { provide: APP_INTERCEPTOR, useClass: JsonBodyInterceptor },
        { provide: APP_INTERCEPTOR, useClass: ParseJsonBodyInterceptor },
        { provide: APP_INTERCEPTOR, useClass: EnvelopeInterceptor },
        { provide: APP_PIPE, useClass: DtoValidationPipe },
        { provide: APP_FILTER, useClass: ApiExceptionFilter },
      ],
    },
    { bodyParser: false, logger: false, abortOnError: false },
  );
  app.get(Authenticator).useStore({ findPrincipal: (token) => Promise.resolve(principalOf(token)) });
  app.setGlobalPrefix(API_PREFIX);
  await app.init();
  const server = app.getHttpServer();
  const withToken = (test: request.Test, token: string | null) =>
    token === null ? test : test.set('Authorization', `Bearer ${token}`);
  const send = (test: request.Test, body: unknown) => (body === undefined ? test : test.send(body as object));
  return {
    get: (path, token = ADMIN_TOKEN) => withToken(request(server).get(path), token),
    post: (path, body, token = ADMIN_TOKEN) => withToken(send(request(server).post(path), body), token),
    patch: (path, body, token = ADMIN_TOKEN) => withToken(send(request(server).patch(path), body), token),
    delete: (path, token = ADMIN_TOKEN) => withToken(request(server).delete(path), token),
    close: () => app.close(),
  };
}

/** Names Nest (lifecycle hooks) or a promise check may look up on a provider: not service methods. */
const NOT_SERVICE_METHODS = new Set([
  'then',
  'constructor',
  'onModuleInit',
  'onApplicationBootstrap',
  'onModuleDestroy',
  'beforeApplicationShutdown',
  'onApplicationShutdown',
]);

/** What a stub was called with, in order. */
export interface Recorded {
  readonly calls: Array<{ method: string; args: unknown[] }>;
  /** The arguments of the only call so far (fails when there were none or several). */
  only(method: string): unknown[];
  reset(): void;
}

/**
 * A service stand-in that records every call and answers with the function given for the method
 * (undefined when none): the value the controller hands over is what a slice asserts.
 */
export function recordingStub<T extends object>(answers: {
  [K in keyof T]?: (...args: never[]) => unknown;
}): T & Recorded {
  const calls: Recorded['calls'] = [];
  const recorded: Recorded = {
    calls,
    only(method) {
      const matching = calls.filter((call) => call.method === method);
      expect(matching).toHaveLength(1);
      return matching[0].args;
    },
    reset() {
      calls.length = 0;
    },
  };
  return new Proxy(recorded, {
    get(target, property, receiver) {
      if (typeof property !== 'string' || property in target) {
        return Reflect.get(target, property, receiver) as unknown;
      }
      if (NOT_SERVICE_METHODS.has(property)) return undefined;
      return (...args: unknown[]) => {
        calls.push({ method: property, args });
        const answer = (answers as Record<string, ((...a: unknown[]) => unknown) | undefined>)[property];
        return Promise.resolve(answer ? answer(...args) : undefined);
      };
    },
  }) as T & Recorded;
}
