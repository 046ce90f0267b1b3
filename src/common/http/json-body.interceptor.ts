import {
  CallHandler,
  ExecutionContext,
  Inject,
  Injectable,
  NestInterceptor,
  type RawBodyRequest,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { raw } from 'body-parser';
import { parse as parseContentType, type ParsedMediaType } from 'content-type';
import type { Request, RequestHandler, Response } from 'express';
import { isUtf8 } from 'node:buffer';
import { from, mergeMap, Observable } from 'rxjs';
import { APP_CONFIG } from '../../config/app-config.module';
import type { AppConfig } from '../../config/app-config';
import {
  BadBodyError,
  PayloadTooLargeError,
  RetryLaterError,
  UnsupportedMediaTypeError,
  type DomainError,
} from '../errors/domain-errors';
import { BodyMemoryBudget, parsedBodyEstimate, type BodyReservation } from './body-memory-budget';
import { EventLoopTurns } from './event-loop-turns';
import { jsonShape } from './json';
import { NO_BODY, OPTIONAL_BODY } from './no-body.decorator';

/** Far deeper than any valid body (policies nest four levels). */
const MAX_NESTING = 32;
/** docs/reference/hardening.md#3-bodies: keys at all levels; no valid body comes near (the largest hold a few hundred). */
const MAX_KEYS = 10_000;
/**
 * Keys of one object: no route's object has a hundred. Past a few thousand, class-transformer (its
 * keys are de-duplicated with indexOf) takes time quadratic in them: 10,000 take 0.4 s of the event loop.
 */
const MAX_OBJECT_KEYS = 1000;
/**
 * Array elements at all levels: the longest lists a route takes hold 500 entries. class-transformer
 * takes about 13 µs per object: 200,000 empty objects in 627 KB would take it 2.7 s.
 */
const MAX_ELEMENTS = 10_000;
export const METHODS_WITH_BODY = new Set(['POST', 'PATCH', 'PUT']);
const ACCEPTED_TYPES = new Set(['application/json', 'application/merge-patch+json']);
/** docs/reference/envelope-and-errors.md; body-parser would also take zstd, which the contract does not. */
const ACCEPTED_ENCODINGS = new Set(['identity', 'gzip', 'deflate', 'br']);
const EMPTY = Buffer.alloc(0);
const RETRY_AFTER_SECONDS = 1;

const WRONG_TYPE = 'Content-Type must be application/json or application/merge-patch+json';
const BUSY = 'Service Unavailable: too many request bodies are being read at once, retry later';
/** Every body's checks and parse, one body per turn of the event loop (event-loop-turns.ts). */
export const bodyTurns = new EventLoopTurns();

/** The body's bytes, between their read and their parse (the Idempotency-Key digests them). */
export type BodyRequest = RawBodyRequest<Request>;

const sendsBody = (request: Request): boolean => {
  const length = request.headers['content-length'];
  return request.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
};

/**
 * Reads a body after authentication, so that no unauthenticated body is read
 * (docs/reference/envelope-and-errors.md), into `request.rawBody`: media type, encoding, size, the
 * memory budget of all bodies held (docs/reference/hardening.md#3-bodies), UTF-8, nesting and keys,
 * all before anything is parsed. ParseJsonBodyInterceptor parses it, after the Idempotency-Key.
 */
@Injectable()
export class JsonBodyInterceptor implements NestInterceptor {
  private readonly limitText: string;
  private readonly readRaw: RequestHandler;
  private readonly budget: BodyMemoryBudget;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly reflector: Reflector,
  ) {
    this.limitText = `Request body exceeds the limit of 1 MiB (${config.http.bodyLimitBytes} bytes)`;
    this.readRaw = raw({ type: () => true, limit: config.http.bodyLimitBytes, inflate: true });
    this.budget = new BodyMemoryBudget(config.http.bodyMemoryLimitBytes);
  }

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const http = context.switchToHttp();
    const request = http.getRequest<BodyRequest>();
    if (!METHODS_WITH_BODY.has(request.method)) return next.handle();
    const response = http.getResponse<Response>();
    const noBody = this.reflector.get<boolean>(NO_BODY, context.getHandler());
    const mayOmit = noBody || this.reflector.get<boolean>(OPTIONAL_BODY, context.getHandler());
    const read = mayOmit && !sendsBody(request) ? Promise.resolve(EMPTY) : this.readBody(request, response);
    return from(read).pipe(
      mergeMap((bytes) => {
        request.rawBody = bytes;
        return next.handle();
      }),
    );
  }

  private async readBody(request: Request, response: Response): Promise<Buffer> {
    this.assertJsonContentType(request);
    const encoding = this.acceptedEncoding(request);
    const reservation = this.reserve(request, encoding);
    response.once('close', () => reservation.release());
    const bytes = await this.readBytes(request, response, encoding);
    // body-parser left the bytes there; from now on only rawBody holds them.
    request.body = undefined;
    return bodyTurns.run(() => this.check(bytes, reservation));
  }

  /** Encoding, nesting, keys and elements, then the parsed form's share of the budget: all before a parse. */
  private check(bytes: Buffer, reservation: BodyReservation): Buffer {
    if (!isUtf8(bytes)) throw new BadBodyError('Request body is not valid UTF-8 JSON');
    const shape = jsonShape(bytes);
    if (shape.depth > MAX_NESTING) {
      throw new BadBodyError(`Request body is not acceptable JSON: nested deeper than ${MAX_NESTING} levels`);
    }
    if (shape.keys > MAX_KEYS) {
      throw new BadBodyError(
        `Request body is not acceptable JSON: it has ${shape.keys} keys at all levels, at most ${MAX_KEYS} are accepted`,
      );
    }
    if (shape.elements > MAX_ELEMENTS) {
      throw new BadBodyError(
        `Request body is not acceptable JSON: it has ${shape.elements} array elements at all levels, at most ${MAX_ELEMENTS} are accepted`,
      );
    }
    if (shape.widest > MAX_OBJECT_KEYS) {
      throw new BadBodyError(
        `Request body is not acceptable JSON: an object has ${shape.widest} keys, at most ${MAX_OBJECT_KEYS} are accepted in one object`,
      );
    }
    if (!reservation.resize(parsedBodyEstimate(bytes.length, shape))) throw busy();
    return bytes;
  }

  /**
   * The declared length, or the body limit when the length is not known before the read (chunked,
   * or compressed: what counts is the decoded size); the read body's estimate replaces it.
   */
  private reserve(request: Request, encoding: string): BodyReservation {
    const declared = Number(request.headers['content-length'] ?? NaN);
    if (declared > this.config.http.bodyLimitBytes) throw new PayloadTooLargeError(this.limitText);
    const known = encoding === 'identity' && Number.isSafeInteger(declared);
    const reservation = this.budget.reserve(known ? declared : this.config.http.bodyLimitBytes);
    if (reservation === null) throw busy();
    return reservation;
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

const busy = (): RetryLaterError => new RetryLaterError(BUSY, RETRY_AFTER_SECONDS);
