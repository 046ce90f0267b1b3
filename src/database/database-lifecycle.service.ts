import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { DataSource } from 'typeorm';
import {
  isDatabaseUnavailable,
  isTransientConflict,
  isUniqueViolation,
} from '../common/errors/database-errors';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { boundMysqlWaits, type MysqlBounds } from './connection-wait';
import { SqliteReadGate } from './sqlite-read-gate';

const LOCK_TABLE = 'migration_lock';
/** A holder renews its lease every third of it; a dead holder's lock is free after it. */
const LOCK_LEASE_S = 30;
const MIGRATION_LOCK_WAIT_S = 120;
const RETRY_DELAY_MS = 2000;

/**
 * Connects the data source and applies pending migrations under a lock (on MySQL a lock row that
 * holds across a Galera cluster too, so that instances starting together apply them once). A MySQL server that cannot be reached
 * at start does not stop the service: it keeps trying in the background, answers 503 meanwhile
 * and reports not-ready, so orchestrators see a live process that is waiting for its database.
 */
@Injectable()
export class DatabaseLifecycle implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Database');
  private ready = false;
  private retryTimer: NodeJS.Timeout | null = null;
  private stopped = false;
  private readonly mysqlBounds: MysqlBounds;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    // docs/reference/hardening.md, no hanging: a database call waits at most REQUEST_TIMEOUT_MS for a connection.
    // MySQL statements get the same bound once the migrations are applied (connectAndMigrate).
    const maxWaitMs = config.http.requestTimeoutMs;
    if (dataSource.options.type === 'better-sqlite3') SqliteReadGate.of(dataSource).boundWaits(maxWaitMs);
    this.mysqlBounds = boundMysqlWaits(dataSource, maxWaitMs);
  }

  get isReady(): boolean {
    return this.ready;
  }

  async onApplicationBootstrap(): Promise<void> {
    try {
      await this.connectAndMigrate();
    } catch (error) {
      if (this.config.database.kind !== 'mysql' || !isDatabaseUnavailable(error)) throw error;
      this.logger.error(
        `database unreachable at start, retrying every ${RETRY_DELAY_MS} ms: ${describe(error)}`,
      );
      this.scheduleRetry();
    }
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    if (this.dataSource.isInitialized) await this.dataSource.destroy();
  }

  private scheduleRetry(): void {
    if (this.stopped) return;
    this.retryTimer = setTimeout(() => {
      this.connectAndMigrate().then(
        () => this.logger.log('database reachable: migrations applied, ready'),
        (error: unknown) => {
          this.logger.warn(`database still unreachable: ${describe(error)}`);
          this.scheduleRetry();
        },
      );
    }, RETRY_DELAY_MS);
    this.retryTimer.unref();
  }

  private async connectAndMigrate(): Promise<void> {
    if (!this.dataSource.isInitialized) {
      try {
        await this.dataSource.initialize();
      } catch (error) {
        // A failed initialize leaves the driver's pool behind; close it before the next attempt.
        await this.dataSource.driver.disconnect().catch(() => undefined);
        throw error;
      }
    }
    await this.runMigrationsUnderLock();
    await this.mysqlBounds.enableStatementTimeouts();
    this.ready = true;
  }

  private async runMigrationsUnderLock(): Promise<void> {
    if (this.dataSource.options.type !== 'mysql') {
      // SQLite: one writer at a time; the migrations run in one transaction.
      await this.dataSource.runMigrations({ transaction: 'all' });
      return;
    }
    const lock = new MigrationLock(this.dataSource);
    await lock.acquire();
    try {
      const applied = await this.dataSource.runMigrations({ transaction: 'each' });
      if (applied.length > 0) this.logger.log(`applied migrations: ${applied.map((m) => m.name).join(', ')}`);
    } finally {
      await lock.release();
    }
  }
}

/**
 * A lock that holds across a whole Galera cluster as on one MySQL server (docs/reference/several-instances.md): a row of
 * its own table, taken by a replicated INSERT, so that certification lets exactly one of two
 * instances on different nodes win (`GET_LOCK` is node-local on Galera). The holder renews it
 * while migrating; a holder that died leaves a row that expires and is taken over. Once the
 * INSERT commits on a node, every write certified before it (the previous holder's migrations)
 * has been applied there too, so the winner sees what is already done.
 */
class MigrationLock {
  private readonly owner = `${hostname().slice(0, 40)}-${process.pid}-${randomBytes(4).toString('hex')}`;
  private renewal: NodeJS.Timeout | null = null;

  constructor(private readonly dataSource: DataSource) {}

  async acquire(): Promise<void> {
    await this.dataSource.query(
      `CREATE TABLE IF NOT EXISTS ${LOCK_TABLE} (id INT NOT NULL PRIMARY KEY, owner VARCHAR(80) NOT NULL, expires_at DATETIME(3) NOT NULL)`,
    );
    const deadline = Date.now() + MIGRATION_LOCK_WAIT_S * 1000;
    while (!(await this.tryTake())) {
      if (Date.now() > deadline) {
        throw new Error(`could not take the migration lock within ${MIGRATION_LOCK_WAIT_S} s`);
      }
      await new Promise((resolve) => setTimeout(resolve, 250 + Math.random() * 250));
    }
    this.renewal = setInterval(
      () => {
        this.dataSource
          .query(
            `UPDATE ${LOCK_TABLE} SET expires_at = NOW(3) + INTERVAL ${LOCK_LEASE_S} SECOND WHERE id = 1 AND owner = ?`,
            [this.owner],
          )
          .catch(() => undefined);
      },
      (LOCK_LEASE_S * 1000) / 3,
    );
    this.renewal.unref();
  }

  async release(): Promise<void> {
    if (this.renewal) clearInterval(this.renewal);
    await this.dataSource.query(`DELETE FROM ${LOCK_TABLE} WHERE id = 1 AND owner = ?`, [this.owner]);
  }

  /** True when this instance holds the lock now: a free one, or one whose holder's lease ran out. */
  private async tryTake(): Promise<boolean> {
    try {
      await this.dataSource.query(
        `INSERT INTO ${LOCK_TABLE} (id, owner, expires_at) VALUES (1, ?, NOW(3) + INTERVAL ${LOCK_LEASE_S} SECOND)`,
        [this.owner],
      );
      return true;
    } catch (error) {
      // Taken (duplicate key), or lost to another node's insert (a certification conflict).
      if (!isUniqueViolation(error) && !isTransientConflict(error)) throw error;
    }
    try {
      const result = await this.dataSource.query<{ affectedRows?: number }>(
        `UPDATE ${LOCK_TABLE} SET owner = ?, expires_at = NOW(3) + INTERVAL ${LOCK_LEASE_S} SECOND WHERE id = 1 AND expires_at < NOW(3)`,
        [this.owner],
      );
      return (result.affectedRows ?? 0) === 1;
    } catch (error) {
      if (isTransientConflict(error)) return false;
      throw error;
    }
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
