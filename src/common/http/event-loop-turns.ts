/**
 * Synchronous work on request bodies (checking their bytes, parsing them) queued and run one piece
 * per turn of the event loop, in order, with the network's I/O served between two pieces
 * (docs/reference/hardening.md#3-bodies). A piece's promise settles in its turn, so what the request
 * does next without waiting on I/O (its validation) runs in that turn too. Two hundred hostile
 * bodies arriving together then cost the liveness probe one piece's wait, not the sum of all of
 * them: without it, /api/v1/health waited behind every body that arrived in the same turn (seconds,
 * on 2 cores).
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
    setImmediate(() => this.next());
  }

  private next(): void {
    this.scheduled = false;
    this.queue.shift()?.();
    if (this.queue.length > 0) this.schedule();
  }
}
