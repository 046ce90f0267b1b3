import { Module } from '@nestjs/common';
import { LoggerModule } from 'nestjs-pino';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import pino, { type DestinationStream, type LogFn, type Logger } from 'pino';
import type { AppConfig, LogFormat } from '../../config/app-config';
import { APP_CONFIG } from '../../config/app-config.module';
import { lazyRequire } from '../modules/lazy-require';
import { serializeError, withErrorMessageWithoutValues } from './error-serializer';

const loadPinoPretty = lazyRequire<typeof import('pino-pretty')>('pino-pretty');

const CLIENT_REQUEST_ID = /^[A-Za-z0-9._:@/+=-]{1,128}$/;
const QUIET_PATHS = new Set(['/api/v1/health', '/api/v1/ready']);

export function requestId(req: IncomingMessage, res: ServerResponse): string {
  const given = req.headers['x-request-id'];
  const id = typeof given === 'string' && CLIENT_REQUEST_ID.test(given) ? given : randomUUID();
  res.setHeader('X-Request-Id', id);
  return id;
}

/** A second net, for anything logged by hand. */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'err.config',
  'signingKey',
  'previousSigningKey',
  '*.signingKey',
  '*.previousSigningKey',
  'apiKey',
  'passphrase',
];

export const LOG_SERIALIZERS = {
  req: (req: { id: unknown; method: string; url: string }) => ({
    id: req.id,
    method: req.method,
    url: req.url.split('?')[0],
  }),
  res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
  err: serializeError,
};

function withRouteAndClient(req: IncomingMessage, value: Record<string, unknown>): Record<string, unknown> {
  const { route, ip } = req as IncomingMessage & { route?: { path?: string }; ip?: string };
  return { ...value, route: route?.path ?? null, client: ip ?? null };
}

export function chooseLogFormat(config: AppConfig, stdoutIsTty: boolean): LogFormat {
  if (config.log.format !== null) return config.log.format;
  return stdoutIsTty && config.log.file === null && !config.production ? 'pretty' : 'json';
}

type LogLine = Record<string, unknown> & {
  context?: string;
  req?: { id?: unknown; method?: string; url?: string };
  res?: { statusCode?: number };
  responseTime?: number;
};

function prettyMessage(
  line: LogLine,
  messageKey: string,
  _levelLabel: string,
  { colors }: { colors: { gray: (text: string) => string } },
): string {
  const { req, res } = line;
  const message = typeof line[messageKey] === 'string' ? line[messageKey] : '';
  if (req && res && typeof res.statusCode === 'number') {
    return `${req.method} ${req.url} ${res.statusCode} ${line.responseTime ?? '?'} ms ${colors.gray(`(request ${String(req.id)})`)}`;
  }
  return line.context ? `[${line.context}] ${message}` : message;
}

const START_UP_DETAIL = new Set(['InstanceLoader', 'RoutesResolver', 'RouterExplorer']);

function isStartUpDetail(args: unknown[], level: number): boolean {
  const [first] = args;
  const context = typeof first === 'object' && first !== null ? (first as LogLine).context : undefined;
  return level <= pino.levels.values.info && context !== undefined && START_UP_DETAIL.has(context);
}

export function logMethodHook(format: LogFormat) {
  return function logMethod(this: Logger, args: Parameters<LogFn>, method: LogFn, level: number): void {
    if (format === 'pretty' && isStartUpDetail(args, level)) return;
    method.apply(this, withErrorMessageWithoutValues(args) as Parameters<LogFn>);
  };
}

async function destination(config: AppConfig, format: LogFormat): Promise<DestinationStream | undefined> {
  if (format === 'pretty') {
    const pretty = await loadPinoPretty();
    return pretty({
      colorize: config.log.file === null && process.stdout.isTTY === true,
      translateTime: 'SYS:HH:MM:ss.l',
      ignore: 'pid,hostname,context,req,res,responseTime,route,client',
      messageFormat: prettyMessage,
      // A terminal at once, so that lines keep their order with what main.ts prints on stderr.
      ...(config.log.file === null
        ? { destination: 1, sync: true }
        : { destination: config.log.file, mkdir: true, sync: false }),
    });
  }
  return config.log.file ? pino.destination({ dest: config.log.file, mkdir: true, sync: false }) : undefined;
}

@Module({
  imports: [
    LoggerModule.forRootAsync({
      inject: [APP_CONFIG],
      useFactory: async (config: AppConfig) => {
        const format = chooseLogFormat(config, process.stdout.isTTY === true);
        const stream = await destination(config, format);
        return {
          pinoHttp: {
            level: config.log.level,
            stream,
            hooks: { logMethod: logMethodHook(format) },
            redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
            genReqId: requestId,
            autoLogging: { ignore: (req: IncomingMessage) => QUIET_PATHS.has((req.url ?? '').split('?')[0]) },
            serializers: LOG_SERIALIZERS,
            customSuccessObject: (req, _res, value: Record<string, unknown>) =>
              withRouteAndClient(req, value),
            customErrorObject: (req, _res, _err, value: Record<string, unknown>) =>
              withRouteAndClient(req, value),
          },
        };
      },
    }),
  ],
})
export class LoggingModule {}
