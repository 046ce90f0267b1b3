import { AsyncLocalStorage } from 'node:async_hooks';
import { DomainError } from '../errors/domain-errors';

/** The deadline passed before the change was committed: it was rolled back and 504 was answered. */
export class DeadlineExceededError extends DomainError {
  readonly status = 504;

  constructor() {
    super('Gateway Timeout');
  }
}

/**
 * The REQUEST_TIMEOUT_MS deadline of one request, shared by the timeout middleware and the code
 * that commits its changes, so that a 504 always means nothing changed (docs/reference/envelope-and-errors.md): the 504 is
 * answered only while no commit has started, and a commit refuses to start once it was answered.
 * A deadline that passes during a commit lets the commit finish and the real answer go out.
 */
export class RequestDeadline {
  private static readonly storage = new AsyncLocalStorage<RequestDeadline>();
  #expired = false;
  #committing = 0;
  #committed = false;

  /** @param expiresAt when the 504 is due (Date.now() + REQUEST_TIMEOUT_MS at the request's start) */
  constructor(private readonly expiresAt: number) {}

  /** The deadline of the request being handled, if any (none outside HTTP requests). */
  static current(): RequestDeadline | undefined {
    return RequestDeadline.storage.getStore();
  }

  /** Runs `next` (the rest of the request's pipeline) under this deadline. */
  run(next: () => void): void {
    RequestDeadline.storage.run(this, next);
  }

  /** Runs `work` under no deadline: writes that are not the request's change (its idempotency key). */
  static outside<T>(work: () => T): T {
    return RequestDeadline.storage.exit(work);
  }

  /** What is left of the request's time, in ms (0 once it is up). */
  remainingMs(): number {
    return Math.max(0, this.expiresAt - Date.now());
  }

  /** Called when the time is up: true when the 504 may be answered (nothing committed or committing). */
  expire(): boolean {
    if (this.#committing > 0 || this.#committed) return false;
    this.#expired = true;
    return true;
  }

  /** Called right before COMMIT: throws (so the transaction rolls back) once the 504 was answered. */
  beginCommit(): void {
    if (this.#expired) throw new DeadlineExceededError();
    this.#committing += 1;
  }

  endCommit(committed: boolean): void {
    this.#committing -= 1;
    if (committed) this.#committed = true;
  }
}
