import { AsyncLocalStorage } from 'node:async_hooks';
import { Logger } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { ConnectionWaitTimeoutError, connectionWaitMs } from './connection-wait';

/** A query held longer runs anyway, with a warning: a transaction may await a query started outside it. */
const MAX_HOLD_MS = 5000;

/**
 * SQLite's one connection is shared: a query from outside an open transaction runs inside it (and reads
 * rows a rollback takes back), and transactions interleave. The gate gives the isolation MySQL has:
 * transactions one at a time, outside queries wait for the open one, which waits for those under way.
 */
export class SqliteReadGate {
  private static readonly gates = new WeakMap<DataSource, SqliteReadGate>();

  static of(dataSource: DataSource): SqliteReadGate {
    if (!SqliteReadGate.gates.has(dataSource)) SqliteReadGate.gates.set(dataSource, new SqliteReadGate());
    return SqliteReadGate.gates.get(dataSource)!;
  }

  private readonly logger = new Logger('SqliteReadGate');
  /** Set in the transaction's own async context: its queries pass. */
  private readonly inTransaction = new AsyncLocalStorage<true>();
  /** Resolves when the open transaction ends; null when none is open. */
  private open: Promise<void> | null = null;
  private running = 0;
  private drained: (() => void) | null = null;
  private tail: Promise<unknown> = Promise.resolve();
  private maxWaitMs: number | null = null;

  boundWaits(maxWaitMs: number): void {
    this.maxWaitMs = maxWaitMs;
  }

  /** After those queued before it and the queries under way; refused (never run) if its turn comes late. */
  transaction<T>(work: () => Promise<T>): Promise<T> {
    const limit = this.maxWaitMs === null ? null : connectionWaitMs(this.maxWaitMs);
    return new Promise<T>((resolve, reject) => {
      let refused = false;
      const timer =
        limit === null
          ? undefined
          : setTimeout(() => {
              refused = true;
              reject(new ConnectionWaitTimeoutError(limit));
            }, limit);
      this.tail = this.tail.then(() => {
        clearTimeout(timer);
        if (refused) return undefined;
        return this.runAlone(work).then(resolve, reject);
      });
    });
  }

  private async runAlone<T>(work: () => Promise<T>): Promise<T> {
    let end!: () => void;
    this.open = new Promise<void>((resolve) => (end = resolve));
    try {
      if (this.running > 0) await new Promise<void>((resolve) => (this.drained = resolve));
      return await this.inTransaction.run(true, work);
    } finally {
      this.open = null;
      end();
    }
  }

  /** Before every query; a promise only when the query must wait. */
  enter(): Promise<void> | void {
    if (this.inTransaction.getStore()) return;
    if (this.open) return this.waitThenEnter();
    this.running += 1;
  }

  /** After every query, whether it succeeded or failed. */
  leave(): void {
    if (this.inTransaction.getStore()) return;
    this.running -= 1;
    if (this.running === 0) {
      this.drained?.();
      this.drained = null;
    }
  }

  /** Waits for the open transaction: until the wait bound (then refused) or MAX_HOLD_MS (then runs). */
  private async waitThenEnter(): Promise<void> {
    const limit = this.maxWaitMs === null ? Infinity : connectionWaitMs(this.maxWaitMs);
    const refuse = limit < MAX_HOLD_MS;
    const deadline = Date.now() + Math.min(limit, MAX_HOLD_MS);
    while (this.open) {
      const remaining = deadline - Date.now();
      let timer: NodeJS.Timeout | undefined;
      const timedOut = await Promise.race([
        this.open.then(() => false),
        new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(true), remaining))),
      ]);
      clearTimeout(timer);
      if (timedOut && refuse) throw new ConnectionWaitTimeoutError(limit);
      if (timedOut) {
        this.logger.warn(`a query waited ${MAX_HOLD_MS} ms for a transaction to end; it runs now`);
        break;
      }
    }
    this.running += 1;
  }
}
