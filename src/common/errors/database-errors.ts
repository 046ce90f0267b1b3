import { ServiceUnavailableError } from './domain-errors';

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

function driverError(error: unknown): DriverErrorFields {
  const fields = fieldsOf(error);
  return fields.driverError !== undefined ? fieldsOf(fields.driverError) : fields;
}

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
  // A Galera node outside the primary component (errno 1047, "WSREP has not yet prepared node").
  'ER_UNKNOWN_COM_ERROR',
  'SQLITE_BUSY',
  'SQLITE_IOERR',
  'SQLITE_FULL',
  'SQLITE_CANTOPEN',
  // Every connection taken for longer than the wait allows (src/database/connection-wait.ts).
  'CONNECTION_WAIT_TIMEOUT',
]);

/** A deadlock or Galera certification conflict (1213) or a lock wait timeout (1205): worth running again. */
export function isTransientConflict(error: unknown): boolean {
  const e = driverError(error);
  return (
    e.errno === 1213 || e.errno === 1205 || e.code === 'ER_LOCK_DEADLOCK' || e.code === 'ER_LOCK_WAIT_TIMEOUT'
  );
}

export function isDatabaseUnavailable(error: unknown): boolean {
  if (error instanceof ServiceUnavailableError) return true;
  const e = driverError(error);
  if (typeof e.code === 'string' && CONNECTION_CODES.has(e.code)) return true;
  // Statement timeouts (src/database/connection-wait.ts): MariaDB's 1969, MySQL's 3024.
  if (e.errno === 1969 || e.errno === 3024) return true;
  const outer = fieldsOf(error);
  return (
    outer.name === 'CannotExecuteNotConnectedError' ||
    outer.name === 'ConnectionIsNotSetError' ||
    /Pool is closed|Connection lost|connect ETIMEDOUT|Can't add new command when connection is in closed state/i.test(
      messageOf(e),
    )
  );
}

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
