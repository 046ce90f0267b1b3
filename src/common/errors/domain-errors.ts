/** Errors the services throw, with their HTTP status and a message safe to show to the client. */
export abstract class DomainError extends Error {
  abstract readonly status: number;

  constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }
}

export function withStatus<S extends number>(status: S, reason: string) {
  return class extends DomainError {
    readonly status: S = status;

    constructor(message: string = reason) {
      super(message);
    }
  };
}

/** docs/reference/envelope-and-errors.md 2.2: a 400 names at most this many problems. */
export const MAX_NAMED_PROBLEMS = 50;

/**
 * Sorted and de-duplicated, so that the same bad body always gets the same message; beyond
 * MAX_NAMED_PROBLEMS, the last entry says how many more there are (a short answer, also where an
 * Idempotency-Key keeps it).
 */
export class ValidationError extends withStatus(400, 'Bad Request') {
  constructor(readonly problems: string | readonly string[]) {
    super(typeof problems === 'string' ? problems : problemList(problems));
  }
}

function problemList(problems: readonly string[]): string {
  const sorted = [...new Set(problems)].sort();
  const more = sorted.length - MAX_NAMED_PROBLEMS;
  if (more <= 0) return sorted.join('; ');
  return [
    ...sorted.slice(0, MAX_NAMED_PROBLEMS),
    `and ${more} more ${more === 1 ? 'problem' : 'problems'}`,
  ].join('; ');
}

export class BadBodyError extends withStatus(400, 'Bad Request') {}
export class UnauthorizedError extends withStatus(401, 'Unauthorized') {}
export class ForbiddenError extends withStatus(403, 'Forbidden') {}
export class NotFoundError extends withStatus(404, 'Not Found') {}
export class ConflictError extends withStatus(409, 'Conflict') {}
export class PreconditionFailedError extends withStatus(412, 'Precondition Failed') {}
export class PayloadTooLargeError extends withStatus(413, 'Payload Too Large') {}
export class UnsupportedMediaTypeError extends withStatus(415, 'Unsupported Media Type') {}
export class ServiceUnavailableError extends withStatus(503, 'Service Unavailable') {}

/** A 503 that says when to come back: the filter sends `Retry-After` with it. */
export class RetryLaterError extends ServiceUnavailableError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(message);
  }
}
