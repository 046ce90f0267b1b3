import { performance } from 'node:perf_hooks';

/** How long queued pieces may hold the event loop before the network's I/O is served again. */
const SLICE_MS = 10;

/**
 * Synchronous work on request bodies (checking their bytes, parsing them) queued and run in slices
 * of about 10 ms, with the network's I/O served between two slices
 * (docs/reference/hardening.md#3-bodies). Two hundred hostile bodies arriving together then cost the
 * liveness probe a slice's wait, not the sum of all of them: without it, /api/v1/health waited
 * behind every body that arrived in the same turn of the event loop (seconds, on 2 cores).
 */
export class EventLoopTurns {
  private readonly queue: Array<() => void> = [];
  private scheduled = false;

  /** `work` in a later turn (setImmediate), after every piece queued before it. */
  run<T>(work: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push(() => {
        try {
          resolve(work());
        } catch (error) {
          reject(error instanceof Error ? error : new Error(String(error)));
        }
      });
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => this.drain());
  }

  private drain(): void {
    this.scheduled = false;
    const until = performance.now() + SLICE_MS;
    for (let piece = this.queue.shift(); piece; piece = this.queue.shift()) {
      piece();
      if (performance.now() >= until) break;
    }
    if (this.queue.length > 0) this.schedule();
  }
}
