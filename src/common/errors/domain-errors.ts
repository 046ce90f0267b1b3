/** Errors the services throw, with their HTTP status and a message safe to show to the client. */
export abstract class DomainError extends Error {
  abstract readonly status: number;

  constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }
}

/** Sorted and de-duplicated, so that the same bad body always gets the same message. */
export class ValidationError extends DomainError {
  readonly status = 400;

  constructor(readonly problems: string | readonly string[]) {
    super(typeof problems === 'string' ? problems : [...new Set(problems)].sort().join('; '));
  }
}

export class BadBodyError extends DomainError {
  readonly status = 400;
}

export class NotFoundError extends DomainError {
  readonly status = 404;
}

export class ConflictError extends DomainError {
  readonly status = 409;
}

export class PreconditionFailedError extends DomainError {
  readonly status = 412;

  constructor() {
    super('Precondition Failed');
  }
}

export class PayloadTooLargeError extends DomainError {
  readonly status = 413;
}

export class UnsupportedMediaTypeError extends DomainError {
  readonly status = 415;
}

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

export class ForbiddenError extends DomainError {
  readonly status = 403;

  constructor() {
    super('Forbidden');
  }
}
