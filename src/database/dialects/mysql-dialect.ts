import type { Logger } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { DataSource } from 'typeorm';
import type { MysqlDriver } from 'typeorm/driver/mysql/MysqlDriver';
import { isTransientConflict, isUniqueViolation } from '../../common/errors/database-errors';
import { acquireWithin } from '../connection-wait';
import { DatabaseDialect, type PoolConnections } from './database-dialect';

/** Enough for 30 writers of one row through three Galera nodes at once (test/resilience/galera.e2e-spec.ts). */
const MAX_CONFLICT_ATTEMPTS = 10;
const LOCK_TABLE = 'migration_lock';
/** Renewed every third of it; a dead holder's lock is free after it. */
const LOCK_LEASE_S = 30;
const MIGRATION_LOCK_WAIT_S = 120;

/** A mysql2 pool connection (its callback API), as TypeORM's MysqlDriver hands it out. */
interface PoolConnection {
  query(sql: string, callback: (error: Error | null) => void): void;
  release(): void;
}

/** mysql2's pool internals, read at scrape time only. */
interface Mysql2PoolInternals {
  _allConnections?: { length: number };
  _freeConnections?: { length: number };
  _connectionQueue?: { length: number };
}

export class MysqlDialect extends DatabaseDialect {
  /** 16 MiB, far above the 1 MiB request body limit; MySQL's TEXT stops at 64 KiB. */
  readonly documentType = 'mediumtext';
  readonly waitsForServer = true;
  readonly pooled = true;
  readonly exactAscii = { charset: 'ascii', collation: 'ascii_bin' };
  readonly exactText = { charset: 'utf8mb4', collation: 'utf8mb4_bin' };
  /** The SET SESSION of the statement timeout, once migrations are applied. */
  private sessionSql: string | null = null;
  private maxWaitMs = 0;

  constructor(private readonly dataSource: DataSource) {
    super();
  }

  bytewise(expression: string): string {
    return `CAST(${expression} AS BINARY)`;
  }

  /** The column's own collation: the default ones (`utf8mb4_unicode_ci`, `utf8mb4_0900_ai_ci`...) ignore case. */
  caseless(expression: string): string {
    return expression;
  }

  throughIndex(index: string): string {
    return ` FORCE INDEX (${index})`;
  }

  /** `LOCK IN SHARE MODE`: MySQL and MariaDB both accept it. */
  lockingRead(mode: 'share' | 'update'): string {
    return mode === 'share' ? ' LOCK IN SHARE MODE' : ' FOR UPDATE';
  }

  /**
   * mysql2's pool queues a caller without end: every query runner's `obtainMasterConnection` is bounded
   * here, and the same seam gives each connection its statement timeout (migrate).
   */
  boundWaits(maxWaitMs: number): void {
    this.maxWaitMs = maxWaitMs;
    const driver = this.dataSource.driver as MysqlDriver;
    const timed = new WeakSet<PoolConnection>();
    const obtain = driver.obtainMasterConnection.bind(driver) as () => Promise<PoolConnection>;
    driver.obtainMasterConnection = async () => {
      const connection = await acquireWithin(obtain, maxWaitMs, (late) => late.release());
      const sql = this.sessionSql;
      if (sql === null || timed.has(connection)) return connection;
      try {
        await new Promise<void>((resolve, reject) =>
          connection.query(sql, (error) => (error ? reject(error) : resolve())),
        );
      } catch (error) {
        connection.release();
        throw error;
      }
      timed.add(connection);
      return connection;
    };
  }

  /**
   * Under a lock, so that instances starting together apply them once. Then each connection bounds every
   * statement to REQUEST_TIMEOUT_MS, lock waits included (MariaDB's max_statement_time; MySQL's
   * max_execution_time: SELECT only); not before, so a long ALTER TABLE is not cut short. Not mysql2's
   * per-query `timeout`: it closes the connection while the server keeps the transaction and its locks.
   * On a Galera node each read first waits until the node has applied every write the cluster
   * committed before it (`wsrep_sync_wait = 1`): a client that wrote through one instance and reads
   * through another sees its write (docs/reference/several-instances.md#13-conflicts-never-reach-a-client).
   */
  async migrate(logger: Logger): Promise<void> {
    const applied = await this.exclusively(() => this.dataSource.runMigrations({ transaction: 'each' }));
    if (applied.length > 0) logger.log(`applied migrations: ${applied.map((m) => m.name).join(', ')}`);
    const [{ version }] = await this.dataSource.query<Array<{ version: string }>>(
      'SELECT VERSION() AS version',
    );
    const galera = await this.dataSource.query<Array<{ Value: string }>>("SHOW VARIABLES LIKE 'wsrep_on'");
    const causalReads = galera[0]?.Value === 'ON' ? ', wsrep_sync_wait = 1' : '';
    this.sessionSql = /mariadb/i.test(version)
      ? `SET SESSION max_statement_time = ${this.maxWaitMs / 1000}${causalReads}`
      : `SET SESSION max_execution_time = ${this.maxWaitMs}${causalReads}`;
  }

  adoptSettings(main: DatabaseDialect): void {
    if (!(main instanceof MysqlDialect)) throw new Error('a MySQL pool takes the settings of a MySQL pool');
    this.sessionSql = main.sessionSql;
    this.boundWaits(main.maxWaitMs);
  }

  async exclusively<T>(work: () => Promise<T>): Promise<T> {
    const lock = new MigrationLock(this.dataSource);
    await lock.acquire();
    try {
      return await work();
    } finally {
      await lock.release();
    }
  }

  serialise<T>(transaction: () => Promise<T>): Promise<T> {
    return transaction();
  }

  /** A few times with jitter, so that a client sees the outcome of its request (201, 409, 200), not a 5xx. */
  async retryConflicts<T>(attempt: () => Promise<T>): Promise<T> {
    for (let attempts = 1; ; attempts++) {
      try {
        return await attempt();
      } catch (error) {
        if (!isTransientConflict(error) || attempts >= MAX_CONFLICT_ATTEMPTS) throw error;
        await new Promise((resolve) => setTimeout(resolve, Math.random() * 20 * attempts));
      }
    }
  }

  poolConnections(): PoolConnections {
    const pool = (this.dataSource.driver as { pool?: Mysql2PoolInternals }).pool;
    if (!pool) return { total: this.dataSource.isInitialized ? 1 : 0 };
    return {
      total: pool._allConnections?.length ?? 0,
      free: pool._freeConnections?.length ?? 0,
      waiting: pool._connectionQueue?.length ?? 0,
    };
  }
}

/**
 * A lock that holds across a Galera cluster as on one server (docs/reference/several-instances.md):
 * a row taken by a replicated INSERT, which certification lets one node win (`GET_LOCK` is
 * node-local), renewed while migrating and taken over once a dead holder's lease expires.
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

  /** A free lock, or one whose holder's lease ran out. */
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
