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

/** Sorted and de-duplicated, so that the same bad body always gets the same message. */
export class ValidationError extends withStatus(400, 'Bad Request') {
  constructor(readonly problems: string | readonly string[]) {
    super(typeof problems === 'string' ? problems : [...new Set(problems)].sort().join('; '));
  }
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
