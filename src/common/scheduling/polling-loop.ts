import { Logger } from '@nestjs/common';

/**
 * A background loop that runs `round` again `idleMs` after each round ends, and at once when
 * woken (a change was just committed here); a wake during a round runs another right after it.
 * Rounds never overlap, a failing round is logged and retried, and `stop` waits for the round
 * under way. The webhook dispatcher and the health scheduler are built on it.
 */
export class PollingLoop {
  private readonly logger: Logger;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private wakeAgain = false;
  private stopped = true;

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

  /** Stops scheduling; `interrupt` (cutting connections short, say) runs before waiting for the round. */
  async stop(interrupt?: () => Promise<void>): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await interrupt?.();
    await this.running;
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      this.running = this.round()
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
