import { AsyncLocalStorage } from 'node:async_hooks';
import { Injectable, Logger } from '@nestjs/common';
import { EventEmitter2 } from '@nestjs/event-emitter';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { DeadlineExceededError, RequestDeadline } from '../common/http/request-deadline';
import { DatabaseDialect } from './dialects/database-dialect';

/** What subscribers of `<name>.committing` receive: the change, and the transaction it is part of. */
export interface CommittingEvent<T> {
  readonly manager: EntityManager;
  readonly event: T;
}

/** The name under which every recorded change is published (in the transaction: `change.recorded.committing`). */
export const CHANGE_RECORDED = 'change.recorded';

/**
 * A change to a resource, recorded once by the service that makes it (docs/architecture.md#the-change-pipeline).
 * `before` (null for a create) and `after` (null for a delete) are as answered, with no secret;
 * `event` is the extension event that announces it (docs/reference/extension-events.md), if any.
 */
export interface Change {
  readonly resource: string;
  readonly id: string;
  readonly operation: 'create' | 'update' | 'delete';
  readonly before: object | null;
  readonly after: object | null;
  readonly event?: readonly [name: string, payload: object];
}

/** One transaction, as the work inside it sees it. */
export interface Tx {
  readonly manager: EntityManager;
  /** Publishes the change's extension event (if any), then the change under CHANGE_RECORDED (the audit trail). */
  recordChange(change: Change): Promise<void>;
  /**
   * Publishes a change (docs/reference/extension-events.md): now to the subscribers of `<name>.committing`, which write
   * with this transaction (the webhook outbox), and after commit to every subscriber of `<name>`.
   * Nothing is published after a rollback.
   */
  publish(name: string, event: object): Promise<void>;
}

export interface RunOptions {
  /**
   * A dry run (docs/reference/safe-writes.md): the work runs with every statement and check, then the
   * transaction is rolled back and `run` resolves with the work's result; nothing is published.
   */
  readonly rollback?: boolean;
}

/**
 * `Transactions.run` called from inside a transaction (docs/reference/hardening.md, no hanging). The work inside a
 * transaction writes with its manager (`Tx.manager`, `CommittingEvent.manager`); a second
 * transaction would wait for the first forever on SQLite (one connection) and take a second pool
 * connection on MySQL, outside the first one's atomicity.
 */
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

/**
 * The one way the service writes: every change runs in a transaction through `run`, which
 * - commits only while the request's deadline allows it, so a 504 never hides a committed change;
 * - publishes the change's events after commit;
 * - runs it as the dialect wants: on SQLite alone on the one connection, on MySQL again after a
 *   conflict the database resolved by rolling it back (a deadlock, a Galera certification conflict).
 */
@Injectable()
export class Transactions {
  private readonly logger = new Logger('Transactions');
  /** Set in the work's async context; `open` turns false when it ends, so what it left behind (a timer) may open transactions. */
  private readonly current = new AsyncLocalStorage<{ open: boolean }>();

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
    let committing = false;
    let committed = false;
    try {
      const result = await this.inTransaction(() =>
        this.dataSource.transaction(async (manager) => {
          const publish = async (name: string, event: object): Promise<void> => {
            if (options.rollback) return;
            await this.events.emitAsync(`${name}.committing`, {
              manager,
              event,
            } satisfies CommittingEvent<object>);
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
      );
      committed = true;
      for (const [name, event] of published) this.publishCommitted(name, event);
      return result;
    } catch (error) {
      if (error instanceof RolledBack) return error.result as T;
      if (error instanceof DeadlineExceededError) {
        this.logger.warn('the request deadline passed before commit: its change was rolled back');
      }
      throw error;
    } finally {
      if (committing) deadline?.endCommit(committed);
    }
  }

  /** Runs a transaction (serialised as the dialect wants) with its scope marked open while it lasts. */
  private async inTransaction<T>(work: () => Promise<T>): Promise<T> {
    const scope = { open: true };
    try {
      return await this.current.run(scope, () => this.dialect.serialise(work));
    } finally {
      scope.open = false;
    }
  }

  /** A subscriber that fails after commit must not turn a committed change into an error answer. */
  private publishCommitted(name: string, event: object): void {
    try {
      this.events.emit(name, event);
    } catch (error) {
      this.logger.error({ err: error }, `a subscriber of ${name} failed`);
    }
  }
}
