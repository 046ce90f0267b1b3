import { ServiceUnavailableError } from './domain-errors';

/** Driver error fields we look at; both mysql2 and better-sqlite3 put them on the thrown error. */
interface DriverErrorFields {
  code?: unknown;
  errno?: unknown;
  driverError?: unknown;
  name?: unknown;
  message?: unknown;
}

const messageOf = (fields: DriverErrorFields): string =>
  typeof fields.message === 'string' ? fields.message : '';

function fieldsOf(error: unknown): DriverErrorFields {
  return typeof error === 'object' && error !== null ? error : {};
}

/** The innermost driver error of a TypeORM QueryFailedError (or the error itself). */
function driverError(error: unknown): DriverErrorFields {
  const fields = fieldsOf(error);
  return fields.driverError !== undefined ? fieldsOf(fields.driverError) : fields;
}

/** True for a unique-key violation on MySQL/MariaDB (errno 1062) or SQLite. */
export function isUniqueViolation(error: unknown): boolean {
  const e = driverError(error);
  return (
    e.errno === 1062 ||
    e.code === 'ER_DUP_ENTRY' ||
    e.code === 'SQLITE_CONSTRAINT_UNIQUE' ||
    e.code === 'SQLITE_CONSTRAINT_PRIMARYKEY'
  );
}

const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'PROTOCOL_CONNECTION_LOST',
  'PROTOCOL_SEQUENCE_TIMEOUT',
  'ER_CON_COUNT_ERROR',
  'ER_SERVER_SHUTDOWN',
  'ER_LOCK_WAIT_TIMEOUT',
  'ER_LOCK_DEADLOCK',
  // A pooled connection still on a demoted primary after a failover.
  'ER_OPTION_PREVENTS_STATEMENT',
  // A Galera node that is not (yet) part of the primary component: "WSREP has not yet prepared node
  // for application use" (errno 1047), while it rejoins or when it is cut off from the majority.
  'ER_UNKNOWN_COM_ERROR',
  'SQLITE_BUSY',
  'SQLITE_IOERR',
  'SQLITE_FULL',
  'SQLITE_CANTOPEN',
  // Every connection taken for longer than the wait allows (src/database/connection-wait.ts).
  'CONNECTION_WAIT_TIMEOUT',
]);

/**
 * True for a transaction the database gave up on because of another one, which is worth running
 * again: a deadlock or a Galera certification conflict (MySQL errno 1213) or a lock wait timeout
 * (1205); SQLite's busy database is handled by its own timeout.
 */
export function isTransientConflict(error: unknown): boolean {
  const e = driverError(error);
  return (
    e.errno === 1213 || e.errno === 1205 || e.code === 'ER_LOCK_DEADLOCK' || e.code === 'ER_LOCK_WAIT_TIMEOUT'
  );
}

/** True when the database cannot be reached or cannot take the work right now. */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (error instanceof ServiceUnavailableError) return true;
  const e = driverError(error);
  if (typeof e.code === 'string' && CONNECTION_CODES.has(e.code)) return true;
  // A statement that ran out of its time (src/database/connection-wait.ts): MariaDB's
  // max_statement_time (1969), MySQL's max_execution_time (3024).
  if (e.errno === 1969 || e.errno === 3024) return true;
  const outer = fieldsOf(error);
  // TypeORM's own errors for a data source that is not (yet) connected.
  return (
    outer.name === 'CannotExecuteNotConnectedError' ||
    outer.name === 'ConnectionIsNotSetError' ||
    /Pool is closed|Connection lost|connect ETIMEDOUT|Can't add new command when connection is in closed state/i.test(
      messageOf(e),
    )
  );
}

/** True when a foreign key refused the write (MySQL 1451/1452, SQLite FOREIGNKEY). */
export function isForeignKeyViolation(error: unknown): boolean {
  const e = driverError(error);
  return (
    e.errno === 1451 ||
    e.errno === 1452 ||
    e.code === 'ER_ROW_IS_REFERENCED_2' ||
    e.code === 'ER_NO_REFERENCED_ROW_2' ||
    e.code === 'SQLITE_CONSTRAINT_FOREIGNKEY' ||
    // SQLite enforces ON DELETE RESTRICT like a trigger.
    (e.code === 'SQLITE_CONSTRAINT_TRIGGER' && messageOf(e) === 'FOREIGN KEY constraint failed')
  );
}
