import { ServiceUnavailableError } from '../common/errors/domain-errors';
import { STALE } from './resource-writes';
import type { Transactions, Tx } from './transactions';

/** What SubResourceWrites needs to know of a sub-resource: a part of a parent, written on a route of its own. */
export interface WrittenSubResource<S, R extends object> {
  /** The parent's audited name (`notification`): a change is recorded as an update of the parent. */
  readonly name: string;
  readonly notFound: (id: string) => Error;
  /**
   * The sub-resource's value, read in the write's transaction with the row written locked until it
   * ends (MySQL; SQLite has one writer at a time); null when its parent does not exist.
   */
  read(id: string, tx: Tx): Promise<S | null>;
  toResponse(value: S): R;
}

/** A write whose insert keeps losing to others: how often it reads again before a 503. */
const MAX_ATTEMPTS = 10;

/**
 * The write path of sub-resources (docs/architecture.md#the-change-pipeline): no version and no
 * `If-Match` of their own, no delete but a value put or removed, audited under their parent's name
 * and id. Concurrent writes of one sub-resource queue on the locked row instead of retrying.
 */
export class SubResourceWrites<S, R extends object> {
  constructor(
    private readonly transactions: Transactions,
    private readonly resource: WrittenSubResource<S, R>,
  ) {}

  /**
   * In one transaction: reads the value (404 without a parent), asks `change` for the next one (null:
   * none, answered as it is, nothing recorded), writes it and records the parent's update with the
   * answers before and after. `write` answers STALE when a row it inserts was inserted meanwhile
   * (there was none to lock): the whole runs again.
   */
  async write(
    id: string,
    change: (current: S) => S | null,
    write: (current: S, next: S, tx: Tx) => Promise<typeof STALE | void>,
  ): Promise<R> {
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const answer = await this.transactions.run(async (tx) => {
        const current = await this.resource.read(id, tx);
        if (current === null) throw this.resource.notFound(id);
        const next = change(current);
        if (next === null) return this.resource.toResponse(current);
        if ((await write(current, next, tx)) === STALE) return STALE;
        const after = this.resource.toResponse(next);
        await tx.recordChange({
          resource: this.resource.name,
          id,
          operation: 'update',
          before: this.resource.toResponse(current),
          after,
        });
        return after;
      });
      if (answer !== STALE) return answer;
    }
    throw new ServiceUnavailableError(
      `Service Unavailable: the ${this.resource.name} is being changed too often, retry`,
    );
  }
}
