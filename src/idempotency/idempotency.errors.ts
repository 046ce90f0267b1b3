import { ConflictError, DomainError } from '../common/errors/domain-errors';

/** 422 (docs/reference/envelope-and-errors.md and docs/reference/safe-writes.md): the key already stands for a request with another path or body. */
export class IdempotencyKeyReusedError extends DomainError {
  readonly status = 422;

  constructor() {
    super('This Idempotency-Key was used for another request: send a new key for a new request');
  }
}

/** 409 (docs/reference/safe-writes.md): the key's first request is still running. */
export class IdempotencyKeyInProgressError extends ConflictError {
  constructor() {
    super('A request with this Idempotency-Key is still in progress: retry later');
  }
}

/** A stored 4xx answer, answered again: through the one filter, as the first one was. */
export class ReplayedErrorAnswer extends DomainError {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}
