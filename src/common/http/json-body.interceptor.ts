import { CallHandler, ExecutionContext, Inject, Injectable, NestInterceptor } from '@nestjs/common';
import { parse as parseContentType } from 'content-type';
import type { Request } from 'express';
import getRawBody from 'raw-body';
import { from, mergeMap, Observable } from 'rxjs';
import { APP_CONFIG } from '../../config/config.module';
import type { AppConfig } from '../../config/app-config';
import { BadBodyError, PayloadTooLargeError } from '../errors/domain-errors';
import { nestingDepth, parseJson } from './json';

/** Far deeper than any valid body (policies nest four levels). */
const MAX_NESTING = 32;
const METHODS_WITH_BODY = new Set(['POST', 'PATCH', 'PUT']);
const ACCEPTED_TYPES = new Set(['application/json', 'application/merge-patch+json']);
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

const WRONG_TYPE = 'Content-Type must be application/json or application/merge-patch+json';
const NOT_JSON = 'Request body is not valid JSON: it must be a JSON object';

function hasRawBodyErrorType(error: unknown, type: string): boolean {
  return typeof error === 'object' && error !== null && (error as { type?: unknown }).type === type;
}

const DISCARD_LIMIT_MS = 10_000;

/**
 * After refusing a body part-way, read and drop the rest before answering: a server that answers
 * and closes while the client is still sending resets the connection, and the client loses the
 * 413. A client still sending after DISCARD_LIMIT_MS is answered anyway.
 */
function discardRest(request: Request): Promise<void> {
  if (request.complete || request.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(done, DISCARD_LIMIT_MS).unref();
    request.once('end', done);
    request.once('close', done);
    request.once('error', done);
    request.resume();
  });
}

/**
 * Reads and parses the request body after authentication, so that an unauthenticated caller
 * never gets its body read. Enforces the media type, the size limit (413), UTF-8, valid JSON and
 * a top-level object; big integers keep every digit (see parseJson).
 */
@Injectable()
export class JsonBodyInterceptor implements NestInterceptor {
  private readonly limitText: string;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {
    this.limitText = `Request body exceeds the limit of 1 MiB (${config.http.bodyLimitBytes} bytes)`;
  }

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const request = context.switchToHttp().getRequest<Request>();
    if (!METHODS_WITH_BODY.has(request.method)) return next.handle();
    return from(this.readBody(request)).pipe(
      mergeMap((body) => {
        request.body = body;
        return next.handle();
      }),
    );
  }

  private async readBody(request: Request): Promise<Record<string, unknown>> {
    this.assertJsonContentType(request);
    let bytes: Buffer;
    try {
      bytes = await getRawBody(request, {
        limit: this.config.http.bodyLimitBytes,
        length: request.headers['content-length'],
      });
    } catch (error) {
      await discardRest(request);
      if (hasRawBodyErrorType(error, 'entity.too.large')) throw new PayloadTooLargeError(this.limitText);
      throw new BadBodyError('Request body could not be read');
    }
    let text: string;
    try {
      text = utf8.decode(bytes);
    } catch {
      throw new BadBodyError('Request body is not valid UTF-8 JSON');
    }
    if (nestingDepth(text) > MAX_NESTING) {
      throw new BadBodyError(`Request body is not acceptable JSON: nested deeper than ${MAX_NESTING} levels`);
    }
    let body: unknown;
    try {
      body = parseJson(text);
    } catch {
      throw new BadBodyError(NOT_JSON);
    }
    if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new BadBodyError(NOT_JSON);
    return body as Record<string, unknown>;
  }

  private assertJsonContentType(request: Request): void {
    const header = request.headers['content-type'];
    if (!header) throw new BadBodyError(WRONG_TYPE);
    let type: string;
    let charset: string | undefined;
    try {
      const parsed = parseContentType(header);
      type = parsed.type;
      charset = parsed.parameters.charset;
    } catch {
      throw new BadBodyError(WRONG_TYPE);
    }
    if (!ACCEPTED_TYPES.has(type)) throw new BadBodyError(WRONG_TYPE);
    if (charset !== undefined && charset.toLowerCase() !== 'utf-8' && charset.toLowerCase() !== 'utf8') {
      throw new BadBodyError('Content-Type charset must be utf-8');
    }
  }
}
