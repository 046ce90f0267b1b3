import {
  ArgumentsHost,
  Catch,
  ExceptionFilter,
  HttpException,
  Logger,
  NotFoundException,
} from '@nestjs/common';
import { ThrottlerException } from '@nestjs/throttler';
import type { Request, Response } from 'express';
import { STATUS_CODES } from 'node:http';
import { QueryFailedError } from 'typeorm';
import { Authenticator } from '../auth/authenticator';
import { expiryHeader } from '../auth/expiry-header';
import { isDatabaseUnavailable } from '../errors/database-errors';
import { FailedAuthenticationsThrottled } from '../rate-limit/failed-authentications';
import { DomainError, RetryLaterError, ValidationError, type FieldProblem } from '../errors/domain-errors';
import { allowedMethods } from './allowed-methods';
import { errorAnswer } from './problem-details';
import { DeadlineExceededError } from './request-deadline';

/** Recorded on the response, so that the filter needs to know nobody who counts. */
type AnsweredError = 'rate-limited' | 'database-unavailable' | 'database-query';

export const answeredErrorOf = (response: Response): AnsweredError | undefined =>
  response.locals.answeredError as AnsweredError | undefined;

/** Nest's own exceptions of these statuses are answered with the reason phrase; others as 400 or 500. */
const PHRASED = new Set([400, 401, 403, 404, 406, 408, 409, 413, 415, 429, 500, 503, 504]);

/**
 * The HttpExceptions a route threw (its handler, pipes or interceptors), as the envelope interceptor saw
 * them pass: they keep their words. Those thrown before the route (the router's 404, a guard, a body
 * parser) are Nest's, and answered with the reason phrase, whatever text Nest gave them.
 */
const thrownByRoute = new WeakSet<HttpException>();

/** Called by the envelope interceptor on what a route threw; anything may be thrown. */
export function recordRouteError(error: unknown): void {
  if (error instanceof HttpException) thrownByRoute.add(error);
}

/** Its message as given: a string, or `{ message }` (a list, as Nest's ValidationPipe makes, joined). */
function ownMessage(exception: HttpException): Pick<Answer, 'message' | 'problems'> | undefined {
  const body = exception.getResponse();
  const message = typeof body === 'string' ? body : (body as { message?: unknown }).message;
  if (typeof message === 'string' && message !== '') return { message };
  if (Array.isArray(message) && message.length > 0 && message.every((m) => typeof m === 'string')) {
    const error = new ValidationError(message);
    return { message: error.message, problems: error.fieldProblems };
  }
  return undefined;
}

interface Answer {
  readonly status: number;
  readonly message: string;
  /** A 400's problems, each with its field, for problem details. */
  readonly problems?: readonly FieldProblem[];
  readonly kind?: AnsweredError;
  readonly allow?: readonly string[];
  readonly retryAfterSeconds?: number;
}

/**
 * The one place that turns an exception into the error envelope (docs/reference/envelope-and-errors.md),
 * or into problem details when the request asks for them
 * (docs/reference/envelope-and-errors.md#4-problem-details).
 */
@Catch()
export class ApiExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('ApiExceptionFilter');

  constructor(private readonly authenticator: Authenticator) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const request = host.switchToHttp().getRequest<Request>();
    const response = host.switchToHttp().getResponse<Response>();
    if (exception instanceof NotFoundException && !thrownByRoute.has(exception)) {
      void this.unknownRoute(request, response).then(
        (answer) => this.send(request, response, exception, answer),
        (error: unknown) => this.send(request, response, error, this.describe(error)),
      );
      return;
    }
    this.send(request, response, exception, this.describe(exception));
  }

  private send(
    request: Request,
    response: Response,
    exception: unknown,
    { status, message, problems, kind, allow, retryAfterSeconds }: Answer,
  ): void {
    if (kind) response.locals.answeredError = kind;
    if (response.headersSent) {
      // Work that ended because its 504 was answered is no error.
      if (!(exception instanceof DeadlineExceededError)) {
        this.logger.error({ err: exception }, 'error after the response was sent');
      }
      return;
    }
    if (allow) response.setHeader('Allow', allow.join(', '));
    if (retryAfterSeconds !== undefined) response.setHeader('Retry-After', String(retryAfterSeconds));
    // A route may have set its own Content-Type (@Header) before it failed: an error is JSON.
    const answer = errorAnswer(request.headers.accept, request.originalUrl, { status, message, problems });
    response.vary('Accept').status(status).type(answer.contentType).json(answer.body);
  }

  /** Nest's router throws NotFoundException: an unknown path, or a method the path does not answer. */
  private async unknownRoute(request: Request, response: Response): Promise<Answer> {
    const principal = await this.authenticator.authenticate(request);
    if (principal === null) return { status: 401, message: 'Unauthorized' };
    expiryHeader(principal, response);
    const allow = allowedMethods(request);
    return { status: 404, message: 'Not Found', ...(allow.length > 0 ? { allow } : {}) };
  }

  private describe(exception: unknown): Answer {
    if (exception instanceof DomainError) {
      if (exception instanceof RetryLaterError) {
        // Expected under load (a refusal, not a fault), and the request log records each 503: a
        // flood of hostile bodies must not become a flood of warnings too.
        this.logger.debug(exception.message);
        return { status: 503, message: exception.message, retryAfterSeconds: exception.retryAfterSeconds };
      }
      if (exception.status >= 500) this.logger.warn({ err: exception }, exception.message);
      return { status: exception.status, message: exception.message, problems: exception.fieldProblems };
    }
    if (exception instanceof FailedAuthenticationsThrottled) {
      return {
        status: 429,
        message: 'Too Many Requests',
        kind: 'rate-limited',
        retryAfterSeconds: exception.retryAfterSeconds,
      };
    }
    // The throttler guard set Retry-After before it threw.
    if (exception instanceof ThrottlerException) {
      return { status: 429, message: 'Too Many Requests', kind: 'rate-limited' };
    }
    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      const own =
        thrownByRoute.has(exception) && status >= 400 && status <= 599 ? ownMessage(exception) : undefined;
      if (own !== undefined) {
        if (status >= 500) this.logger.warn({ err: exception }, own.message);
        return { status, ...own };
      }
      const phrase = PHRASED.has(status) ? STATUS_CODES[status] : undefined;
      return { status, message: phrase ?? (status >= 500 ? 'Internal Server Error' : 'Bad Request') };
    }
    if (isDatabaseUnavailable(exception)) {
      this.logger.warn({ err: exception }, 'database unavailable');
      return { status: 503, message: 'Service Unavailable', kind: 'database-unavailable' };
    }
    this.logger.error({ err: exception }, 'unexpected error');
    return {
      status: 500,
      message: 'Internal Server Error',
      kind: exception instanceof QueryFailedError ? 'database-query' : undefined,
    };
  }
}
