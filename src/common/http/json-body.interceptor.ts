import { CallHandler, ExecutionContext, Inject, Injectable, NestInterceptor } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { raw } from 'body-parser';
import { parse as parseContentType, type ParsedMediaType } from 'content-type';
import type { Request, RequestHandler, Response } from 'express';
import { from, mergeMap, Observable } from 'rxjs';
import { APP_CONFIG } from '../../config/config.module';
import type { AppConfig } from '../../config/app-config';
import {
  BadBodyError,
  PayloadTooLargeError,
  ValidationError,
  UnsupportedMediaTypeError,
  type DomainError,
} from '../errors/domain-errors';
import { nestingDepth, parseJson } from './json';
import { NO_BODY } from './no-body.decorator';

/** Far deeper than any valid body (policies nest four levels). */
const MAX_NESTING = 32;
const METHODS_WITH_BODY = new Set(['POST', 'PATCH', 'PUT']);
const ACCEPTED_TYPES = new Set(['application/json', 'application/merge-patch+json']);
/** docs/reference/envelope-and-errors.md; body-parser would also take zstd, which the contract does not. */
const ACCEPTED_ENCODINGS = new Set(['identity', 'gzip', 'deflate', 'br']);
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

const WRONG_TYPE = 'Content-Type must be application/json or application/merge-patch+json';
const NOT_JSON = 'Request body is not valid JSON: it must be a JSON object';

/** After authentication, so that no unauthenticated body is read (docs/reference/envelope-and-errors.md). */
@Injectable()
export class JsonBodyInterceptor implements NestInterceptor {
  private readonly limitText: string;
  private readonly readRaw: RequestHandler;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly reflector: Reflector,
  ) {
    this.limitText = `Request body exceeds the limit of 1 MiB (${config.http.bodyLimitBytes} bytes)`;
    this.readRaw = raw({ type: () => true, limit: config.http.bodyLimitBytes, inflate: true });
  }

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const http = context.switchToHttp();
    const request = http.getRequest<Request>();
    if (!METHODS_WITH_BODY.has(request.method)) return next.handle();
    const response = http.getResponse<Response>();
    const noBody = this.reflector.get<boolean>(NO_BODY, context.getHandler());
    return from(noBody ? this.readNoBody(request, response) : this.readBody(request, response)).pipe(
      mergeMap((body) => {
        request.body = body;
        return next.handle();
      }),
    );
  }

  private async readNoBody(request: Request, response: Response): Promise<Record<string, unknown>> {
    const length = request.headers['content-length'];
    const sendsBody =
      request.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
    if (!sendsBody) return {};
    const fields = Object.keys(await this.readBody(request, response));
    if (fields.length > 0)
      throw new ValidationError(fields.map((field) => `${field} is not an allowed field`));
    return {};
  }

  private async readBody(request: Request, response: Response): Promise<Record<string, unknown>> {
    this.assertJsonContentType(request);
    const encoding = this.acceptedEncoding(request);
    const bytes = await this.readBytes(request, response, encoding);
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

  private readBytes(request: Request, response: Response, encoding: string): Promise<Buffer> {
    return new Promise((resolve, reject) => {
      this.readRaw(request, response, (error?: unknown) => {
        if (error !== undefined) reject(this.refusal(error, encoding));
        else resolve(Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0));
      });
    });
  }

  private refusal(error: unknown, encoding: string): DomainError {
    switch ((error as { type?: unknown } | null | undefined)?.type) {
      case 'entity.too.large':
        return new PayloadTooLargeError(this.limitText);
      case 'encoding.unsupported':
        return this.unsupportedEncoding(encoding);
      case 'request.aborted':
      case 'request.size.invalid':
        return new BadBodyError('Request body could not be read');
      default:
        return encoding === 'identity'
          ? new BadBodyError('Request body could not be read')
          : new BadBodyError(`Request body could not be decoded (Content-Encoding: ${encoding})`);
    }
  }

  private acceptedEncoding(request: Request): string {
    const encoding = (request.headers['content-encoding'] ?? 'identity').trim().toLowerCase();
    if (!ACCEPTED_ENCODINGS.has(encoding)) throw this.unsupportedEncoding(encoding);
    return encoding;
  }

  private unsupportedEncoding(encoding: string): UnsupportedMediaTypeError {
    const shown = encoding.length > 64 ? `${encoding.slice(0, 64)}...` : encoding;
    return new UnsupportedMediaTypeError(
      `Content-Encoding ${shown} is not supported: use identity, gzip, deflate or br`,
    );
  }

  private assertJsonContentType(request: Request): void {
    let parsed: ParsedMediaType;
    try {
      // Throws for a missing or empty header too.
      parsed = parseContentType(request);
    } catch {
      throw new BadBodyError(WRONG_TYPE);
    }
    if (!ACCEPTED_TYPES.has(parsed.type)) throw new BadBodyError(WRONG_TYPE);
    const charset = parsed.parameters.charset?.toLowerCase();
    if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') {
      throw new BadBodyError('Content-Type charset must be utf-8');
    }
  }
}
