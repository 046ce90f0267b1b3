import { Logger } from '@nestjs/common';
import { AsyncResource } from 'node:async_hooks';

/** Runs `round` `idleMs` after the last ended, or at once when woken; rounds never overlap. */
export class PollingLoop {
  private readonly logger: Logger;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private wakeAgain = false;
  private stopped = true;
  /**
   * Runs a round in the context the loop was made in, never in that of the request that woke it: a
   * round must not read as that request's key (its relayer scope, docs/reference/keys-and-audit.md#3-relayer-scope).
   */
  private readonly detached = AsyncResource.bind(<T>(work: () => T): T => work());

  constructor(
    private readonly name: string,
    private readonly round: () => Promise<void>,
    private readonly idleMs: number,
  ) {
    this.logger = new Logger(name);
  }

  start(): void {
    this.stopped = false;
    this.schedule(0);
  }

  wake(): void {
    if (this.stopped) return;
    if (this.running) this.wakeAgain = true;
    else this.schedule(0);
  }

  get isStopped(): boolean {
    return this.stopped;
  }

  /** `interrupt` (cutting connections short, say) runs before waiting for the round under way. */
  async stop(interrupt?: () => Promise<void>): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await interrupt?.();
    await this.running;
  }

  async drain<T>(size: number, next: () => Promise<T[]>, handle: (batch: T[]) => Promise<void>) {
    for (;;) {
      const batch = await next();
      if (batch.length === 0 || this.stopped) return;
      await handle(batch);
      if (batch.length < size) return;
    }
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      this.running = this.detached(() => this.round())
        .catch((error: unknown) => this.logger.warn({ err: error }, `${this.name} round failed; retrying`))
        .finally(() => {
          this.running = null;
          const again = this.wakeAgain;
          this.wakeAgain = false;
          this.schedule(again ? 0 : this.idleMs);
        });
    }, delayMs);
    this.timer.unref();
  }
}
