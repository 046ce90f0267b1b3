/**
 * Writes deliveries answered 2xx with `statusCode`, while `lease` still holds them, and starts their
 * targets' failure counts again, in one transaction (docs/reference/webhooks.md#10-pausing-a-target).
 */
export type WriteDelivered = (
  delivered: readonly { id: string; latencyMs: number }[],
  notificationIds: readonly string[],
  lease: string,
  statusCode: number,
  at: Date,
) => Promise<void>;

interface Answered {
  readonly notificationId: string;
  readonly id: string;
  readonly lease: string;
  readonly statusCode: number;
  readonly latencyMs: number;
  readonly done: { resolve(): void; reject(error: unknown): void };
}

/**
 * Writes each delivery answered 2xx before its target's next attempt (docs/reference/webhooks.md#29-batches),
 * so that a process killed mid-round sends again at most the attempt in flight of each target. The
 * deliveries of all targets answered while a write is under way are written together by the next
 * one, one statement per lease and status code: many fast targets share their writes.
 */
export class DeliveredWriter {
  private waiting: Answered[] = [];
  private writing: Promise<void> | null = null;

  constructor(private readonly writeDelivered: WriteDelivered) {}

  /** Resolves once the delivery is written delivered. */
  record(
    notificationId: string,
    id: string,
    lease: string,
    statusCode: number,
    latencyMs: number,
  ): Promise<void> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ notificationId, id, lease, statusCode, latencyMs, done: { resolve, reject } });
      this.writing ??= this.write();
    });
  }

  private async write(): Promise<void> {
    // The answers that arrived in the same turn of the event loop go into the first statement too.
    await new Promise((resolve) => setImmediate(resolve));
    while (this.waiting.length > 0) {
      const answered = this.waiting;
      this.waiting = [];
      const at = new Date();
      const groups = Map.groupBy(answered, (a) => `${a.statusCode} ${a.lease}`);
      for (const group of groups.values()) {
        const [{ lease, statusCode }] = group;
        try {
          await this.writeDelivered(
            group.map((a) => ({ id: a.id, latencyMs: a.latencyMs })),
            [...new Set(group.map((a) => a.notificationId))],
            lease,
            statusCode,
            at,
          );
          for (const a of group) a.done.resolve();
        } catch (error) {
          for (const a of group) a.done.reject(error);
        }
      }
    }
    this.writing = null;
  }
}
