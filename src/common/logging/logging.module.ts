import { Module } from '@nestjs/common';
import { LoggerModule } from 'nestjs-pino';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import pino from 'pino';
import type { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';

const CLIENT_REQUEST_ID = /^[A-Za-z0-9._:@/+=-]{1,128}$/;
const QUIET_PATHS = new Set(['/api/v1/health', '/api/v1/ready']);

/** Echoes a sane client X-Request-Id or makes a new one, and sets it on the response at once. */
export function requestId(req: IncomingMessage, res: ServerResponse): string {
  const given = req.headers['x-request-id'];
  const id = typeof given === 'string' && CLIENT_REQUEST_ID.test(given) ? given : randomUUID();
  res.setHeader('X-Request-Id', id);
  return id;
}

/**
 * Paths that must never reach a log line. The request serializer below already keeps only the
 * id, method and URL; redaction is the second net for anything logged by hand.
 */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'err.config',
  'signingKey',
  'apiKey',
  'passphrase',
];

/** Express adds the matched route and the client address (which honours TRUST_PROXY). */
type RoutedRequest = IncomingMessage & { route?: { path?: string }; ip?: string };

@Module({
  imports: [
    LoggerModule.forRootAsync({
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => ({
        pinoHttp: {
          level: config.log.level,
          stream: config.log.file
            ? pino.destination({ dest: config.log.file, mkdir: true, sync: false })
            : undefined,
          redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
          genReqId: requestId,
          autoLogging: { ignore: (req: IncomingMessage) => QUIET_PATHS.has((req.url ?? '').split('?')[0]) },
          serializers: {
            req: (req: { id: unknown; method: string; url: string }) => ({
              id: req.id,
              method: req.method,
              url: req.url.split('?')[0],
            }),
            res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
          },
          customSuccessObject: (
            req: RoutedRequest,
            _res: ServerResponse,
            value: Record<string, unknown>,
          ) => ({
            ...value,
            route: req.route?.path ?? null,
            client: req.ip ?? null,
          }),
          customErrorObject: (
            req: RoutedRequest,
            _res: ServerResponse,
            _err: Error,
            value: Record<string, unknown>,
          ) => ({
            ...value,
            route: req.route?.path ?? null,
            client: req.ip ?? null,
          }),
        },
      }),
    }),
  ],
})
export class LoggingModule {}
