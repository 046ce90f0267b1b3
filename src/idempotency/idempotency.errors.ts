import { ConflictError, DomainError, withStatus, type FieldProblem } from '../common/errors/domain-errors';

export const IN_PROGRESS = 'A request with this Idempotency-Key is still in progress: retry later';

export class IdempotencyKeyReusedError extends withStatus(
  422,
  'This Idempotency-Key was used for another request: send a new key for a new request',
) {}

export class IdempotencyKeyInProgressError extends ConflictError {
  constructor() {
    super(IN_PROGRESS);
  }
}

/** A stored 4xx answer, answered again through the one filter (a 400 with the problems it named). */
export class ReplayedErrorAnswer extends DomainError {
  constructor(
    readonly status: number,
    message: string,
    override readonly fieldProblems?: readonly FieldProblem[],
  ) {
    super(message);
  }
}
