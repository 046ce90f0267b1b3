import type { Logger } from '@nestjs/common';
import type { ColumnType } from 'typeorm';

/** The character set and collation of a column compared byte for byte; none where every comparison is (SQLite). */
export interface ExactColumn {
  readonly charset?: string;
  readonly collation?: string;
}

/** A pool's connections by state, for the metric database_pool_connections. */
export type PoolConnections = Partial<Record<'total' | 'free' | 'waiting', number>>;

/** What differs between SQLite and MySQL/MariaDB, chosen once (ServiceDataSource): nothing else asks. */
export abstract class DatabaseDialect {
  /** The column type of a whole document (DocumentColumn). */
  abstract readonly documentType: ColumnType;
  /**
   * Column options for ASCII text compared byte for byte (MySQL's default collation ignores case): the
   * ids the service checks (IdColumn). MySQL's binary collations still ignore trailing spaces.
   */
  abstract readonly exactAscii: ExactColumn;
  /** Column options for any text compared byte for byte (code point by code point): names taken as given (IdColumn). */
  abstract readonly exactText: ExactColumn;
  /** A server unreachable at start is waited for (MySQL); a file that cannot be opened is fatal (SQLite). */
  abstract readonly waitsForServer: boolean;
  /** `expression` compared byte for byte, case included (MySQL's default collation ignores case). */
  abstract bytewise(expression: string): string;
  /**
   * `expression` (a text column) compared and ordered with the case of letters ignored: MySQL's default
   * collations already ignore it (and accents); SQLite's NOCASE, for ASCII letters. In an index's column
   * list as in a query, so that the index gives the order.
   */
  abstract caseless(expression: string): string;
  /**
   * After a table's name in FROM or JOIN: read it through `index`, whatever the planner would choose.
   * For a read that must scan a narrow index whole (a search): SQLite's planner reckons a row by its
   * columns' declared sizes, documents as short as a name, and reads the table instead; MySQL's walks
   * the order's index and reads each row.
   */
  abstract throughIndex(index: string): string;
  /** Appended to a SELECT in a transaction: a locking read on MySQL; '' on SQLite, one writer at a time. */
  abstract lockingRead(mode: 'share' | 'update'): string;
  /** docs/reference/hardening.md, no hanging: a call waits for the connection at most connectionWaitMs(maxWaitMs). */
  abstract boundWaits(maxWaitMs: number): void;
  /** Runs `work` in one instance at a time across every instance on the database (docs/reference/several-instances.md). */
  abstract exclusively<T>(work: () => Promise<T>): Promise<T>;
  /** Applies the pending migrations (connected data source), then bounds each statement (MySQL). */
  abstract migrate(logger: Logger): Promise<void>;
  /** Runs one transaction: on SQLite alone on its one connection, on MySQL as it is. */
  abstract serialise<T>(transaction: () => Promise<T>): Promise<T>;
  /** Runs a transaction again after a conflict the database resolved by rolling it back (MySQL). */
  abstract retryConflicts<T>(attempt: () => Promise<T>): Promise<T>;
  abstract poolConnections(): PoolConnections;
  /** A pool of connections (MySQL), where background work can have connections of its own (WorkerDatabase). */
  abstract readonly pooled: boolean;
  /** Gives this dialect's connections the session settings and bounded waits of `main`'s (a second pool). */
  abstract adoptSettings(main: DatabaseDialect): void;
}
