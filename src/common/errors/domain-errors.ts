/**
 * Errors the services throw. They carry the HTTP status they map to and a message that is safe
 * to show to the client; the one exception filter turns them into the error envelope.
 */
export abstract class DomainError extends Error {
  abstract readonly status: number;

  constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }
}

/**
 * 400: the request is well-formed JSON but breaks rules; the message names every field, sorted
 * and de-duplicated so that the same bad body always gets the same message.
 */
export class ValidationError extends DomainError {
  readonly status = 400;

  constructor(readonly problems: string | readonly string[]) {
    super(typeof problems === 'string' ? problems : [...new Set(problems)].sort().join('; '));
  }
}

/** 400: the body is not usable at all (not JSON, not an object, wrong media type, empty). */
export class BadBodyError extends DomainError {
  readonly status = 400;
}

export class NotFoundError extends DomainError {
  readonly status = 404;
}

export class ConflictError extends DomainError {
  readonly status = 409;
}

/** 412: `If-Match` names no current entity tag of the resource (docs/reference/safe-writes.md); nothing was changed. */
export class PreconditionFailedError extends DomainError {
  readonly status = 412;

  constructor() {
    super('Precondition Failed');
  }
}

export class PayloadTooLargeError extends DomainError {
  readonly status = 413;
}

/** 415: the body comes in a form the service does not read (a Content-Encoding it does not decode). */
export class UnsupportedMediaTypeError extends DomainError {
  readonly status = 415;
}

/** 503: a dependency (the database) cannot be reached; the request may be retried. */
export class ServiceUnavailableError extends DomainError {
  readonly status = 503;

  constructor(message = 'Service Unavailable') {
    super(message);
  }
}

export class UnauthorizedError extends DomainError {
  readonly status = 401;

  constructor() {
    super('Unauthorized');
  }
}

/** A valid API key without the route's permission (docs/reference/keys-and-audit.md). */
export class ForbiddenError extends DomainError {
  readonly status = 403;

  constructor() {
    super('Forbidden');
  }
}
