import type { EntityManager } from 'typeorm';

/**
 * Row locks for reads inside a transaction. MySQL/MariaDB take them (`LOCK IN SHARE MODE`, which
 * both accept, or `FOR UPDATE`); SQLite runs one write transaction at a time and needs none.
 */
export function takesRowLocks(manager: EntityManager): boolean {
  return manager.connection.options.type === 'mysql';
}

/** The clause that makes a SELECT a locking read in the caller's transaction, or '' on SQLite. */
export function lockingReadClause(manager: EntityManager, mode: 'share' | 'update'): string {
  if (!takesRowLocks(manager)) return '';
  return mode === 'share' ? ' LOCK IN SHARE MODE' : ' FOR UPDATE';
}
