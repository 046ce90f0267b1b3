import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { HTTP_CODE_METADATA } from '@nestjs/common/constants';
import { Reflector } from '@nestjs/core';
import type { Response } from 'express';
import { createHash } from 'node:crypto';
import type { Principal } from '../common/auth/principal';
import { catchError, from, mergeMap, Observable, of, throwError } from 'rxjs';
import { DomainError, type FieldProblem } from '../common/errors/domain-errors';
import { errorEnvelope } from '../common/http/problem-details';
import { parseJson, stringifyJson, withRawIntegers } from '../common/http/json';
import type { BodyRequest } from '../common/http/json-body.interceptor';
import { RAW_RESPONSE } from '../common/http/raw-response.decorator';
import { RequestContext } from '../common/http/request-context';
import { ReplayedErrorAnswer } from './idempotency.errors';
import { IdempotencyKeysService, type IdempotentRequest } from './idempotency-keys.service';
import type { ClaimRef, StoredAnswer } from './idempotency-keys.repository';
import { IDEMPOTENT_REPLAY_OMITS } from '../common/http/idempotent-replay.decorator';
import { readIdempotencyKey, REPLAYED_HEADER, requestDigest, withoutFields } from './idempotent-request';

/** Headers of the first answer that its replays repeat. */
const KEPT_HEADERS = ['ETag', 'Location'];
const NO_PRINCIPAL = '-';

/**
 * Whose keys an Idempotency-Key is among: the key's or the administrator's id; a person's id
 * (`<issuer>#<sub>`, any length) by its digest, to fit the column's 64 characters.
 */
function scopeOf(principal: Principal | null | undefined): string {
  if (!principal) return NO_PRINCIPAL;
  return principal.type === 'user'
    ? `user:${createHash('sha256').update(principal.id).digest('base64url')}`
    : principal.id;
}
const EMPTY = Buffer.alloc(0);

interface RouteAnswer {
  readonly status: number;
  readonly raw: boolean;
  readonly omits: readonly string[];
}

/**
 * docs/reference/safe-writes.md; outside the envelope interceptor, so that it stores the answer as
 * sent, and before the body is parsed, so that no parsed body waits on the key's admission.
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  constructor(
    private readonly keys: IdempotencyKeysService,
    private readonly reflector: Reflector,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const http = context.switchToHttp();
    const request = http.getRequest<BodyRequest>();
    if (context.getType() !== 'http' || request.method !== 'POST') return next.handle();
    const key = readIdempotencyKey(request.headers, request.rawHeaders);
    if (key === undefined) return next.handle();
    const response = http.getResponse<Response>();
    const idempotent: IdempotentRequest = {
      scope: scopeOf(RequestContext.current()?.principal),
      key,
      request: `${request.method} ${request.originalUrl.split('?')[0]}`.slice(0, 2048),
      requestDigest: requestDigest(request.method, request.originalUrl, request.rawBody ?? EMPTY),
    };
    const handler = context.getHandler();
    const route: RouteAnswer = {
      status: this.reflector.get<number | undefined>(HTTP_CODE_METADATA, handler) ?? 201,
      raw: this.reflector.get<boolean | undefined>(RAW_RESPONSE, handler) === true,
      omits: this.reflector.get<string[] | undefined>(IDEMPOTENT_REPLAY_OMITS, handler) ?? [],
    };
    return from(this.keys.admit(idempotent)).pipe(
      mergeMap((admission) =>
        admission.kind === 'replay'
          ? this.replay(admission.answer, response)
          : this.run(admission.claim, route, response, next),
      ),
    );
  }

  private run(
    claim: ClaimRef,
    route: RouteAnswer,
    response: Response,
    next: CallHandler,
  ): Observable<unknown> {
    return next.handle().pipe(
      mergeMap(async (answer: unknown) => {
        // Sent already: the 504 went out (and the change, if any, was refused). Let a retry run.
        if (response.headersSent) await this.keys.release(claim);
        else {
          await this.keys.complete(claim, {
            status: route.status,
            body: stringifyJson(this.storable(answer, route)),
            headers: keptHeaders(response),
          });
        }
        return answer;
      }),
      catchError((error: unknown) =>
        from(this.settleFailure(claim, error, response)).pipe(mergeMap(() => throwError(() => error))),
      ),
    );
  }

  private storable(answer: unknown, route: RouteAnswer): unknown {
    if (route.omits.length === 0) return answer;
    if (route.raw) return withoutFields(answer, route.omits);
    const envelope = answer as Record<string, unknown>;
    return { ...envelope, data: withoutFields(envelope.data, route.omits) };
  }

  /** A 4xx of ours is the request's answer (stored); anything else frees the key. */
  private async settleFailure(claim: ClaimRef, error: unknown, response: Response): Promise<void> {
    if (error instanceof DomainError && error.status < 500 && !response.headersSent) {
      await this.keys.complete(claim, {
        status: error.status,
        // The problems are kept beside the envelope for a replay asked as problem details; never sent as such.
        body: stringifyJson({ ...errorEnvelope(error.message), problems: error.fieldProblems }),
        headers: {},
      });
    } else {
      await this.keys.release(claim);
    }
  }

  private replay(answer: StoredAnswer, response: Response): Observable<unknown> {
    response.setHeader(REPLAYED_HEADER, 'true');
    for (const [name, value] of Object.entries(answer.headers)) response.setHeader(name, value);
    const body = parseJson(answer.body);
    if (answer.status >= 400) {
      const { message, problems } = body as { message?: unknown; problems?: FieldProblem[] };
      return throwError(
        () =>
          new ReplayedErrorAnswer(
            answer.status,
            typeof message === 'string' ? message : '',
            Array.isArray(problems) ? problems : undefined,
          ),
      );
    }
    return of(withRawIntegers(body));
  }
}

function keptHeaders(response: Response): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const name of KEPT_HEADERS) {
    const value = response.getHeader(name);
    if (typeof value === 'string') headers[name] = value;
  }
  return headers;
}
