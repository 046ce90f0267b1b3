import { AsyncLocalStorage } from 'node:async_hooks';
import { Injectable, Logger } from '@nestjs/common';
import { EventEmitter2 } from '@nestjs/event-emitter';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { DeadlineExceededError, RequestDeadline } from '../common/http/request-deadline';
import { DatabaseDialect } from './dialects/database-dialect';
import { committingSettled, markCommitted, markCommitting } from './safe-subscribers';

/** What subscribers of `<name>.committing` receive: the change, and the transaction it is part of. */
export interface CommittingEvent<T> {
  readonly manager: EntityManager;
  readonly event: T;
}

/** Every recorded change is published under it (in the transaction: `change.recorded.committing`). */
export const CHANGE_RECORDED = 'change.recorded';

/** A change to a resource, `before` and `after` as answered (docs/architecture.md#the-change-pipeline). */
export interface Change {
  readonly resource: string;
  readonly id: string;
  /** `refuse`: a change asked for and refused that the trail keeps (a sign-in: `session.refuse`). */
  readonly operation: 'create' | 'update' | 'delete' | 'refuse';
  readonly before: object | null;
  readonly after: object | null;
  readonly event?: readonly [name: string, payload: object];
}

/** One transaction, as the work inside it sees it. */
export interface Tx {
  readonly manager: EntityManager;
  /** Publishes the change's extension event (if any), then the change under CHANGE_RECORDED. */
  recordChange(change: Change): Promise<void>;
  /** To `<name>.committing` in this transaction, to `<name>` after commit (docs/reference/extension-events.md). */
  publish(name: string, event: object): Promise<void>;
}

/**
 * The unit of work a read or write is part of: a transaction (`Tx`), a `.committing` subscriber's
 * `CommittingEvent`, or a connection of the background work (`WorkerDatabase.connection()`). Service
 * and repository methods take it (or `Tx`) as their last parameter, never an EntityManager
 * (docs/architecture.md#the-change-pipeline).
 */
export type ReadTx = Pick<Tx, 'manager'>;

export interface RunOptions {
  /** A dry run (docs/reference/safe-writes.md): rolled back, resolves with the result, publishes nothing. */
  readonly rollback?: boolean;
}

/** A transaction inside another waits for it forever on SQLite (docs/reference/hardening.md, no hanging). */
export class NestedTransactionError extends Error {
  constructor() {
    super(
      'a transaction was opened inside another one: write with the manager of the open transaction ' +
        '(Tx.manager, or CommittingEvent.manager in a .committing subscriber) instead',
    );
    this.name = 'NestedTransactionError';
  }
}

/** Carries a dry run's result out of the transaction it rolls back. */
class RolledBack<T> extends Error {
  constructor(readonly result: T) {
    super('rolled back: dry run');
  }
}

/** The one way the service writes. It commits only while the request's deadline allows: no 504 hides a change. */
@Injectable()
export class Transactions {
  private readonly logger = new Logger('Transactions');
  /** `open` turns false when the work ends, so what it left behind (a timer) may open transactions. */
  private readonly current = new AsyncLocalStorage<{ open: boolean }>();

  /** @internal Nest injects it. */
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly events: EventEmitter2,
    private readonly dialect: DatabaseDialect,
  ) {}

  run<T>(work: (tx: Tx) => Promise<T>, options: RunOptions = {}): Promise<T> {
    if (this.current.getStore()?.open) return Promise.reject(new NestedTransactionError());
    return this.dialect.retryConflicts(() => this.transaction(work, options));
  }

  private async transaction<T>(work: (tx: Tx) => Promise<T>, options: RunOptions): Promise<T> {
    const deadline = RequestDeadline.current();
    const published: Array<[string, object]> = [];
    const scope = { open: true };
    let committing = false;
    let committed = false;
    try {
      const result = await this.current.run(scope, () =>
        this.dialect.serialise(() =>
          this.dataSource.transaction(async (manager) => {
            const publish = async (name: string, event: object): Promise<void> => {
              if (options.rollback) return;
              // A subscriber that throws or rejects rolls the change back (SafeSubscribers), once
              // the others are done.
              const payload = markCommitting({ manager, event } satisfies CommittingEvent<object>);
              try {
                await this.events.emitAsync(`${name}.committing`, payload);
              } catch (error) {
                await committingSettled(payload);
                throw error;
              }
              published.push([name, event]);
            };
            const value = await work({
              manager,
              publish,
              recordChange: async (change) => {
                if (change.event) await publish(...change.event);
                await publish(CHANGE_RECORDED, change);
              },
            });
            if (options.rollback) throw new RolledBack(value);
            deadline?.beginCommit();
            committing = true;
            return value;
          }),
        ),
      );
      committed = true;
      for (const [name, event] of published) this.emitCommitted(name, markCommitted(event));
      return result;
    } catch (error) {
      if (error instanceof RolledBack) return error.result as T;
      if (error instanceof DeadlineExceededError) {
        this.logger.warn('the request deadline passed before commit: its change was rolled back');
      }
      throw error;
    } finally {
      scope.open = false;
      if (committing) deadline?.endCommit(committed);
    }
  }

  /**
   * A subscriber that fails after commit must neither turn a committed change into an error answer nor
   * stop the process: one that throws, and one that rejects (a listener added with `.on` returning a
   * promise), is logged.
   */
  private emitCommitted(name: string, event: object): void {
    const failed = (error: unknown) => this.logger.error({ err: error }, `a subscriber of ${name} failed`);
    try {
      const done: unknown = this.events.emitAsync(name, event);
      if (done instanceof Promise) void done.catch(failed);
    } catch (error) {
      failed(error);
    }
  }
}
