import { AsyncLocalStorage } from 'node:async_hooks';
import { withStatus } from '../errors/domain-errors';

export class DeadlineExceededError extends withStatus(504, 'Gateway Timeout') {}

/** A 504 means nothing changed (docs/reference/envelope-and-errors.md): no 504 once a commit started. */
export class RequestDeadline {
  private static readonly storage = new AsyncLocalStorage<RequestDeadline>();
  #expired = false;
  #committing = 0;
  #committed = false;
  #aborted: AbortController | undefined;

  constructor(private readonly expiresAt: number) {}

  static current(): RequestDeadline | undefined {
    return RequestDeadline.storage.getStore();
  }

  run(next: () => void): void {
    RequestDeadline.storage.run(this, next);
  }

  static outside<T>(work: () => T): T {
    return RequestDeadline.storage.exit(work);
  }

  /**
   * Aborted, with a DeadlineExceededError, when the 504 is answered: work the request started and
   * that nobody waits for any more (the probes of `POST .../check`) stops there.
   */
  get signal(): AbortSignal {
    this.#aborted ??= new AbortController();
    if (this.#expired) this.#aborted.abort(new DeadlineExceededError());
    return this.#aborted.signal;
  }

  remainingMs(): number {
    return Math.max(0, this.expiresAt - Date.now());
  }

  /** True when the 504 may be answered. */
  expire(): boolean {
    if (this.#committing > 0 || this.#committed) return false;
    this.#expired = true;
    this.#aborted?.abort(new DeadlineExceededError());
    return true;
  }

  beginCommit(): void {
    if (this.#expired) throw new DeadlineExceededError();
    this.#committing += 1;
  }

  endCommit(committed: boolean): void {
    this.#committing -= 1;
    if (committed) this.#committed = true;
  }
}
