import {
  ConflictError,
  PreconditionFailedError,
  ServiceUnavailableError,
} from '../common/errors/domain-errors';
import { entityTag, Tagged } from '../common/http/tagged';
import { type IfMatch } from '../common/http/if-match';
import type { ReferenceRegistry } from '../common/references/reference-registry';
import type { ReadTx, Transactions, Tx } from './transactions';

/** A row written through ResourceWrites; `version` for a resource written with `If-Match`. */
export interface WrittenRow {
  readonly id: string;
  readonly version?: number;
  readonly createdAt: Date;
}

/** What ResourceWrites needs to know of a resource (one per feature, in its service). */
export interface WrittenResource<E extends WrittenRow, R extends object> {
  /** Its audited name (`relayer`); its events are `<name>.created`, `<name>.updated`, `<name>.deleted`. */
  readonly name: string;
  /** The payload of its events (`{ relayer }`); without it, a change publishes no event of its own. */
  readonly event?: (response: R) => object;
  readonly notFound: (id: string) => Error;
  /** Read in the write's transaction; a resource whose users hold it with a shared lock reads it locked. */
  read(id: string, tx?: ReadTx): Promise<E | null>;
  toResponse(row: E): R;
  /** Who references a row: one in use is not deleted. */
  readonly users?: ReferenceRegistry;
  readonly inUse?: (id: string, uses: readonly string[]) => Error;
}

/** A write that lost to another one on the row's version: read again and retry. */
export const STALE = 'stale';

const OPERATION_EVENTS = { create: 'created', update: 'updated', delete: 'deleted' } as const;

/** A write that keeps losing to others: how often it reads again before a 503 (random back-off). */
const MAX_ATTEMPTS = 200;

/**
 * The one write path of a feature's resources (docs/architecture.md#the-change-pipeline): read,
 * `If-Match`, the write conditional on the version read, `tx.recordChange` with the event derived
 * from the change, one retry policy and one rule for deleting a row that others reference.
 */
export class ResourceWrites<E extends WrittenRow, R extends object> {
  constructor(
    private readonly transactions: Transactions,
    private readonly resource: WrittenResource<E, R>,
  ) {}

  /** The answer of a write: the resource with its entity tag (docs/reference/safe-writes.md). */
  private tagged(row: E): Tagged<R> {
    return new Tagged(this.resource.toResponse(row), entityTag(row.version ?? 1, row.createdAt));
  }

  /**
   * `insert` writes the new row in the transaction (a dry run rolls it back) and answers it; it throws
   * the answer to a refusal (a taken id, a reference gone), reading on the transaction's connection.
   */
  async create(insert: (tx: Tx) => Promise<E>, options: { dryRun?: boolean } = {}): Promise<Tagged<R>> {
    return this.transactions.run(
      async (tx) => {
        const row = await insert(tx);
        const created = this.tagged(row);
        await this.record(tx, row.id, 'create', null, created.data);
        return created;
      },
      { rollback: options.dryRun },
    );
  }

  /**
   * Reads the row, checks `If-Match`, asks `plan` for the changes to that version (null: none, the
   * row answered unchanged) and writes them only while the row still has that version; a write in
   * between makes it read again (and `If-Match`, if given, then answers 412). `plan` runs outside
   * the transaction, once per version read; `write` answers STALE when the version moved on.
   */
  async update<C extends Partial<E>>(
    id: string,
    plan: (current: E) => C | null | Promise<C | null>,
    write: (current: E, changes: C, tx: Tx) => Promise<typeof STALE | void>,
    options: {
      ifMatch?: IfMatch | null;
      dryRun?: boolean;
      /** More for the `updated` event than the resource (the relayer's `changed`). */
      eventExtra?: (current: E, changes: C) => object;
    } = {},
  ): Promise<Tagged<R>> {
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const current = await this.readOrFail(id);
      this.assertMatches(current, options.ifMatch);
      const changes = await plan(current);
      if (changes === null) return this.tagged(current);
      const updated = this.tagged({ ...current, ...changes, version: (current.version ?? 0) + 1 });
      const written = await this.transactions.run(
        async (tx) => {
          if ((await write(current, changes, tx)) === STALE) return false;
          const extra = options.eventExtra?.(current, changes) ?? {};
          const before = this.resource.toResponse(current);
          await this.record(tx, id, 'update', before, updated.data, extra);
          return true;
        },
        { rollback: options.dryRun },
      );
      if (written) return updated;
      await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(50, 2 * attempt)));
    }
    throw new ServiceUnavailableError(
      `Service Unavailable: the ${this.resource.name} is being changed too often, retry`,
    );
  }

  /**
   * In one transaction: reads the row (404), checks `If-Match` (412), refuses while anything
   * references it (409, its users named), then deletes it, only at the version read when `If-Match`
   * was given. `remove` answers false when no row was deleted, 'in_use' when a reference the users
   * did not name (a foreign key, racing) refused it, or the rows that went with it (each recorded
   * after it). Answers the ids of the rows removed.
   */
  async remove(
    id: string,
    remove: (row: E, version: number | undefined, tx: Tx) => Promise<boolean | 'in_use' | readonly E[]>,
    options: { ifMatch?: IfMatch | null } = {},
  ): Promise<string[]> {
    const { ifMatch } = options;
    return this.transactions.run(async (tx) => {
      const last = await this.resource.read(id, tx);
      if (!last) throw this.resource.notFound(id);
      this.assertMatches(last, ifMatch);
      await this.assertUnused(id, tx);
      const removed = await remove(last, ifMatch ? last.version : undefined, tx);
      if (removed === 'in_use') {
        await this.assertUnused(id, tx);
        throw this.inUse(id, []);
      }
      if (!removed) throw ifMatch ? new PreconditionFailedError() : this.resource.notFound(id);
      const gone = [last, ...(removed === true ? [] : removed)];
      for (const row of gone) await this.record(tx, row.id, 'delete', this.resource.toResponse(row), null);
      return gone.map((row) => row.id);
    });
  }

  private async readOrFail(id: string): Promise<E> {
    const row = await this.resource.read(id);
    if (!row) throw this.resource.notFound(id);
    return row;
  }

  private assertMatches(row: E, ifMatch: IfMatch | null | undefined): void {
    ifMatch?.assertMatches(entityTag(row.version ?? 1, row.createdAt));
  }

  private async assertUnused(id: string, tx: Tx): Promise<void> {
    const uses = (await this.resource.users?.describeUsesOf(id, tx)) ?? [];
    if (uses.length > 0) throw this.inUse(id, uses);
  }

  /** No users named: a reference written meanwhile, which this transaction cannot see. */
  private inUse(id: string, uses: readonly string[]): Error {
    const named = uses.length > 0 ? this.resource.inUse?.(id, uses) : undefined;
    return named ?? new ConflictError(`The ${this.resource.name} ${id} is in use`);
  }

  /** The change, and the resource's event derived from it (`<name>.<created|updated|deleted>`). */
  private async record(
    tx: Tx,
    id: string,
    operation: keyof typeof OPERATION_EVENTS,
    before: R | null,
    after: R | null,
    extra: object = {},
  ): Promise<void> {
    const { name, event } = this.resource;
    const subject = after ?? before;
    await tx.recordChange({
      resource: name,
      id,
      operation,
      before,
      after,
      ...(event &&
        subject && { event: [`${name}.${OPERATION_EVENTS[operation]}`, { ...event(subject), ...extra }] }),
    });
  }
}
