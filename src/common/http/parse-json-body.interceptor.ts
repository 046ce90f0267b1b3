import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { from, mergeMap, Observable } from 'rxjs';
import { BadBodyError, ValidationError } from '../errors/domain-errors';
import { parseJson } from './json';
import { bodyTurns, METHODS_WITH_BODY, type BodyRequest } from './json-body.interceptor';
import { NO_BODY, OPTIONAL_BODY } from './no-body.decorator';

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });
const NOT_JSON = 'Request body is not valid JSON: it must be a JSON object';

/**
 * Parses the body JsonBodyInterceptor read, after the Idempotency-Key's admission, so that no parsed
 * body waits on it (a replay parses nothing); the bytes are dropped, the parsed body stays.
 */
@Injectable()
export class ParseJsonBodyInterceptor implements NestInterceptor {
  constructor(private readonly reflector: Reflector) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const request = context.switchToHttp().getRequest<BodyRequest>();
    const bytes = request.rawBody;
    if (!METHODS_WITH_BODY.has(request.method) || bytes === undefined) return next.handle();
    request.rawBody = undefined;
    const noBody = this.reflector.get<boolean>(NO_BODY, context.getHandler());
    if (bytes.length === 0) {
      const mayOmit = noBody || this.reflector.get<boolean>(OPTIONAL_BODY, context.getHandler());
      request.body = mayOmit ? {} : parseObject(bytes);
      return next.handle();
    }
    const parsed = bodyTurns.run(() => {
      if (!noBody) return parseObject(bytes);
      const fields = Object.keys(parseObject(bytes));
      if (fields.length > 0)
        throw new ValidationError(fields.map((field) => `${field} is not an allowed field`));
      return {};
    });
    return from(parsed).pipe(
      mergeMap((body) => {
        request.body = body;
        return next.handle();
      }),
    );
  }
}

function parseObject(bytes: Buffer): Record<string, unknown> {
  let body: unknown;
  try {
    body = parseJson(utf8.decode(bytes));
  } catch {
    throw new BadBodyError(NOT_JSON);
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new BadBodyError(NOT_JSON);
  return body as Record<string, unknown>;
}
