import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, DataSourceOptions } from 'typeorm';
import { DatabaseDialect } from './dialects/database-dialect';
import { ServiceDataSource } from './service-data-source';
import type { ReadTx } from './transactions';

/** A health-check batch and the webhook dispatcher at once; the API keeps its whole pool. */
const CONNECTIONS = 2;

/**
 * The connections of background rounds, health checks and webhook dispatch
 * (docs/reference/relayer-health.md#27-off-the-apis-path): on MySQL a small pool of their own,
 * opened on first use, with the same per-statement timeout and bounded waits as the API's, closed
 * with the API's (DatabaseLifecycle); on SQLite the one connection every statement shares.
 */
@Injectable()
export class WorkerDatabase {
  private source: Promise<DataSource> | null = null;

  constructor(
    @InjectDataSource() private readonly main: DataSource,
    private readonly dialect: DatabaseDialect,
  ) {}

  /** The unit of work of a background read or write outside a transaction: these connections. */
  async connection(): Promise<ReadTx> {
    if (!this.dialect.pooled) return this.main;
    // A failed start is tried again by the next round (the database may be down).
    this.source ??= this.open().catch((error: unknown) => {
      this.source = null;
      throw error;
    });
    return this.source;
  }

  /**
   * One statement on these connections, outside a transaction, run again after a conflict the
   * database rolled back (DatabaseDialect): `work` must be safe to repeat.
   */
  async statement<T>(work: (tx: ReadTx) => Promise<T>): Promise<T> {
    const connection = await this.connection();
    return this.dialect.retryConflicts(() => work(connection));
  }

  /**
   * One transaction on these connections: on SQLite alone on its connection, on MySQL run again
   * after a conflict the database rolled back (DatabaseDialect).
   */
  async transaction<T>(work: (tx: ReadTx) => Promise<T>): Promise<T> {
    const { manager } = await this.connection();
    return this.dialect.retryConflicts(() =>
      this.dialect.serialise(() => manager.transaction((inner) => work({ manager: inner }))),
    );
  }

  async close(): Promise<void> {
    const source = await this.source?.catch(() => null);
    this.source = null;
    if (source?.isInitialized) await source.destroy();
  }

  private async open(): Promise<DataSource> {
    const source = new ServiceDataSource({
      ...this.main.options,
      poolSize: CONNECTIONS,
      extra: { ...(this.main.options as { extra?: object }).extra, maxIdle: CONNECTIONS },
      migrations: [],
      migrationsRun: false,
    } as DataSourceOptions);
    await source.initialize();
    source.dialect.adoptSettings(this.dialect);
    return source;
  }
}
