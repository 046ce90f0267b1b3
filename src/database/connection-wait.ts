import type { DataSource } from 'typeorm';
import { MysqlDriver } from 'typeorm/driver/mysql/MysqlDriver';
import { RequestDeadline } from '../common/http/request-deadline';

/** The code of a wait for a database connection that ran out: "unavailable", a 503 (database-errors.ts). */
export const CONNECTION_WAIT_TIMEOUT = 'CONNECTION_WAIT_TIMEOUT';

/** Kept between a wait given up and the request's 504, so that the 503 goes out first. */
const ANSWER_MARGIN_MS = 100;

export class ConnectionWaitTimeoutError extends Error {
  readonly code = CONNECTION_WAIT_TIMEOUT;

  constructor(waitedMs: number) {
    super(`no database connection became free within ${waitedMs} ms`);
    this.name = 'ConnectionWaitTimeoutError';
  }
}

/**
 * How long a database call may wait for a connection now (docs/reference/hardening.md, no hanging): at most
 * REQUEST_TIMEOUT_MS, and in a request only until shortly before its deadline, so that a busy
 * database is answered 503 "Service Unavailable" rather than 504.
 */
export function connectionWaitMs(maxMs: number): number {
  const left = RequestDeadline.current()?.remainingMs();
  return Math.max(0, Math.min(maxMs, left === undefined ? maxMs : left - ANSWER_MARGIN_MS));
}

/**
 * `acquire` within connectionWaitMs(maxMs), else a ConnectionWaitTimeoutError; a connection that
 * comes after the wait was given up goes to `giveBack`.
 */
export function acquireWithin<T>(
  acquire: () => Promise<T>,
  maxMs: number,
  giveBack: (late: T) => void,
): Promise<T> {
  const limit = connectionWaitMs(maxMs);
  return new Promise<T>((resolve, reject) => {
    let expired = false;
    const timer = setTimeout(() => {
      expired = true;
      reject(new ConnectionWaitTimeoutError(limit));
    }, limit);
    acquire().then(
      (connection) => {
        clearTimeout(timer);
        if (expired) giveBack(connection);
        else resolve(connection);
      },
      (error: Error) => {
        clearTimeout(timer);
        if (!expired) reject(error);
      },
    );
  });
}

/** What TypeORM's MysqlDriver hands out: a mysql2 pool connection (its callback API). */
interface PoolConnection {
  query(sql: string, callback: (error: Error | null) => void): void;
  release(): void;
}

/** What bounds a MySQL data source's waits; statement timeouts start once migrations are applied. */
export interface MysqlBounds {
  /**
   * From now on every connection, on its next use, limits each statement to REQUEST_TIMEOUT_MS
   * (docs/reference/hardening.md): a statement waiting for a lock (LOCK TABLES, a row lock, a metadata lock) is
   * aborted by the server and its connection is free again. Migrations run before this: a long
   * ALTER TABLE must not be cut short.
   */
  enableStatementTimeouts(): Promise<void>;
}

/**
 * MySQL: every query runner of TypeORM's MysqlDriver takes its connection through
 * `obtainMasterConnection`, from a mysql2 pool that queues a caller without end while every
 * connection is taken (mysql2 has no acquire timeout). The wait is bounded here, once for all, and
 * the same seam gives each connection its statement timeout.
 *
 * Statement timeouts are the server's, set per session: MariaDB's max_statement_time (every
 * statement, lock waits included), MySQL's max_execution_time (SELECT only). Not mysql2's per-query
 * `timeout` (TypeORM's enableQueryTimeout): it closes the connection while the server goes on
 * waiting with the transaction and its locks, and TypeORM's maxQueryExecutionTime logs every slow
 * statement with its parameters to the console whatever `logging` says.
 */
export function boundMysqlWaits(dataSource: DataSource, maxMs: number): MysqlBounds {
  const driver = dataSource.driver;
  if (!(driver instanceof MysqlDriver)) return { enableStatementTimeouts: () => Promise.resolve() };
  let sessionSql: string | null = null;
  const timed = new WeakSet<PoolConnection>();
  const obtain = driver.obtainMasterConnection.bind(driver) as () => Promise<PoolConnection>;
  driver.obtainMasterConnection = async () => {
    const connection = await acquireWithin(obtain, maxMs, (late) => late.release());
    if (sessionSql === null || timed.has(connection)) return connection;
    const sql = sessionSql;
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
  return {
    async enableStatementTimeouts() {
      const [{ version }] = await dataSource.query<Array<{ version: string }>>('SELECT VERSION() AS version');
      sessionSql = /mariadb/i.test(version)
        ? `SET SESSION max_statement_time = ${maxMs / 1000}`
        : `SET SESSION max_execution_time = ${maxMs}`;
    },
  };
}
