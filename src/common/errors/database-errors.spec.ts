import { QueryFailedError } from 'typeorm';
import { isDatabaseUnavailable, isTransientConflict, isUniqueViolation } from './database-errors';

/** A TypeORM QueryFailedError around a driver error with mysql2's fields. */
const mysqlError = (code: string, errno: number, message = code) =>
  new QueryFailedError('INSERT …', [], Object.assign(new Error(message), { code, errno }));

describe('database error classes', () => {
  it.each([
    ['ER_LOCK_DEADLOCK', 1213, 'Deadlock found when trying to get lock; try restarting transaction'],
    ['ER_LOCK_WAIT_TIMEOUT', 1205, 'Lock wait timeout exceeded; try restarting transaction'],
  ])(
    '%s (a Galera certification conflict or a lock wait) is a conflict to run again',
    (code, errno, message) => {
      expect(isTransientConflict(mysqlError(code, errno, message))).toBe(true);
    },
  );

  it.each([
    ['ECONNREFUSED', 0, 'connect ECONNREFUSED 127.0.0.1:3313'],
    ['PROTOCOL_CONNECTION_LOST', 0, 'Connection lost: The server closed the connection.'],
    ['ER_UNKNOWN_COM_ERROR', 1047, 'WSREP has not yet prepared node for application use'],
    ['ER_OPTION_PREVENTS_STATEMENT', 1290, 'The MariaDB server is running with the --read-only option'],
  ])('%s means the database cannot take the work now (503)', (code, errno, message) => {
    expect(isDatabaseUnavailable(mysqlError(code, errno, message))).toBe(true);
  });

  it.each([
    ['ER_DUP_ENTRY', 1062],
    ['ER_NO_SUCH_TABLE', 1146],
    ['ER_PARSE_ERROR', 1064],
  ])('%s is neither unavailable nor a conflict to retry', (code, errno) => {
    const error = mysqlError(code, errno);
    expect([isDatabaseUnavailable(error), isTransientConflict(error)]).toEqual([false, false]);
  });

  it('a duplicate key is a unique violation on MySQL and on SQLite', () => {
    const sqlite = new QueryFailedError(
      'INSERT …',
      [],
      Object.assign(new Error('UNIQUE'), { code: 'SQLITE_CONSTRAINT_PRIMARYKEY' }),
    );
    expect([isUniqueViolation(mysqlError('ER_DUP_ENTRY', 1062)), isUniqueViolation(sqlite)]).toEqual([
      true,
      true,
    ]);
  });
});
