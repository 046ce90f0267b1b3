import type { DataSource } from 'typeorm';
import { SqliteReadGate } from '../sqlite-read-gate';
import { DatabaseDialect, type PoolConnections } from './database-dialect';

/** SQLite (better-sqlite3): one connection, shared by every caller, and one writer at a time. */
export class SqliteDialect extends DatabaseDialect {
  readonly documentType = 'text';
  readonly waitsForServer = false;
  readonly pooled = false;
  /** SQLite's BINARY collation, every column's, compares bytes. */
  readonly exactAscii = {};
  readonly exactText = {};
  private readonly gate: SqliteReadGate;

  constructor(private readonly dataSource: DataSource) {
    super();
    this.gate = SqliteReadGate.of(dataSource);
  }

  /** Never called: SQLite has one connection, and no second pool (WorkerDatabase). */
  adoptSettings(): void {
    throw new Error('SQLite has no second pool');
  }

  /** SQLite's `=` and `IN` compare bytes (BINARY collation). */
  bytewise(expression: string): string {
    return expression;
  }

  caseless(expression: string): string {
    return `${expression} COLLATE NOCASE`;
  }

  throughIndex(index: string): string {
    return ` INDEXED BY ${index}`;
  }

  lockingRead(): string {
    return '';
  }

  boundWaits(maxWaitMs: number): void {
    this.gate.boundWaits(maxWaitMs);
  }

  async migrate(): Promise<void> {
    await this.dataSource.runMigrations({ transaction: 'all' });
  }

  exclusively<T>(work: () => Promise<T>): Promise<T> {
    return work();
  }

  serialise<T>(transaction: () => Promise<T>): Promise<T> {
    return this.gate.transaction(transaction);
  }

  retryConflicts<T>(attempt: () => Promise<T>): Promise<T> {
    return attempt();
  }

  poolConnections(): PoolConnections {
    return { total: this.dataSource.isInitialized ? 1 : 0 };
  }
}
