/** A delivery answered 2xx, to be written delivered while `lease` still holds it. */
export interface AnsweredDelivery {
  readonly notificationId: string;
  readonly id: string;
  readonly lease: string;
  readonly statusCode: number;
  readonly latencyMs: number;
}

/**
 * Writes deliveries answered 2xx and starts their targets' failure counts again, with one commit
 * (docs/reference/webhooks.md#10-pausing-a-target).
 */
export type WriteDelivered = (answered: readonly AnsweredDelivery[], at: Date) => Promise<void>;

interface Waiting {
  readonly answer: AnsweredDelivery;
  readonly done: { resolve(): void; reject(error: unknown): void };
}

/**
 * Writes each delivery answered 2xx before its target's next attempt (docs/reference/webhooks.md#29-batches),
 * so that a process killed mid-round sends again at most the attempt in flight of each target. The
 * deliveries of all targets answered while a write is under way are written together by the next
 * one, with one commit whatever their leases and status codes: a commit is what a durable write
 * waits for (docs/benchmarks.md), and many fast targets share it.
 */
export class DeliveredWriter {
  private waiting: Waiting[] = [];
  private writing: Promise<void> | null = null;

  constructor(private readonly writeDelivered: WriteDelivered) {}

  /** Resolves once the delivery is written delivered. */
  record(answer: AnsweredDelivery): Promise<void> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ answer, done: { resolve, reject } });
      this.writing ??= this.write();
    });
  }

  private async write(): Promise<void> {
    // The answers that arrived in the same turn of the event loop go into the first commit too.
    await new Promise((resolve) => setImmediate(resolve));
    while (this.waiting.length > 0) {
      const batch = this.waiting;
      this.waiting = [];
      try {
        await this.writeDelivered(
          batch.map((waiting) => waiting.answer),
          new Date(),
        );
        for (const waiting of batch) waiting.done.resolve();
      } catch (error) {
        for (const waiting of batch) waiting.done.reject(error);
      }
    }
    this.writing = null;
  }
}
