import { ConflictError, DomainError } from '../common/errors/domain-errors';

export class IdempotencyKeyReusedError extends DomainError {
  readonly status = 422;

  constructor() {
    super('This Idempotency-Key was used for another request: send a new key for a new request');
  }
}

export class IdempotencyKeyInProgressError extends ConflictError {
  constructor() {
    super('A request with this Idempotency-Key is still in progress: retry later');
  }
}

/** A stored 4xx answer, answered again through the one filter. */
export class ReplayedErrorAnswer extends DomainError {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}
