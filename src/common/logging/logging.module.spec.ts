import Database from 'better-sqlite3';
import pino from 'pino';
import pinoHttp from 'pino-http';
import { QueryFailedError } from 'typeorm';
import { loadConfig } from '../../config/app-config';
import { chooseLogFormat, LOG_SERIALIZERS, logMethodHook } from './logging.module';

const KEY = 'k'.repeat(32);

describe('chooseLogFormat', () => {
  it.each([
    [{}, true, 'pretty'],
    [{}, false, 'json'],
    [{ NODE_ENV: 'production' }, true, 'json'],
    [{ LOG_FILE: '/tmp/service.log' }, true, 'json'],
    [{ LOG_FORMAT: 'json' }, true, 'json'],
    [{ LOG_FORMAT: 'pretty' }, false, 'pretty'],
    [{ LOG_FORMAT: 'PRETTY', NODE_ENV: 'production' }, false, 'pretty'],
    [{ LOG_FORMAT: 'pretty', LOG_FILE: '/tmp/service.log' }, false, 'pretty'],
  ])('%j with stdout a terminal: %s gives %s', (env, stdoutIsTty, expected) => {
    expect(chooseLogFormat(loadConfig({ API_KEY: KEY, ...env }), stdoutIsTty)).toBe(expected);
  });
});

describe('LOG_SERIALIZERS: a logged error never carries a statement or its values (docs/reference/hardening.md)', () => {
  const SECRET = 'sk-0123456789abcdef-secret';
  const DROPPED = ['parameters', 'query', 'sql', 'sqlMessage', 'driverError'];

  /** A QueryFailedError as TypeORM makes it from a real better-sqlite3 failure. */
  function sqliteFailure(): QueryFailedError {
    const db = new Database(':memory:');
    try {
      db.exec('CREATE TABLE notifications (id TEXT PRIMARY KEY, signing_key TEXT)');
      const insert = 'INSERT INTO notifications (id, signing_key) VALUES (?, ?)';
      db.prepare(insert).run('n1', SECRET);
      try {
        db.prepare(insert).run('n1', SECRET);
      } catch (error) {
        return new QueryFailedError(insert, ['n1', SECRET], error as Error);
      }
    } finally {
      db.close();
    }
    throw new Error('the duplicate insert did not fail');
  }

  /** A QueryFailedError from an error shaped as mysql2 makes it: the statement with its values inlined. */
  function mysqlFailure(): QueryFailedError {
    const message = `Duplicate entry '${SECRET}' for key 'uq_notifications_signing_key'`;
    const driverError = Object.assign(new Error(message), {
      code: 'ER_DUP_ENTRY',
      errno: 1062,
      sqlState: '23000',
      sqlMessage: message,
      sql: `UPDATE notifications SET signing_key = '${SECRET}' WHERE id = 'n1'`,
    });
    return new QueryFailedError(
      'UPDATE notifications SET signing_key = ? WHERE id = ?',
      [SECRET, 'n1'],
      driverError,
    );
  }

  function loggers(): Array<[string, pino.Logger, string[]]> {
    const viaHttp: string[] = [];
    const plain: string[] = [];
    return [
      [
        'pino-http (nestjs-pino)',
        pinoHttp(
          { serializers: LOG_SERIALIZERS, hooks: { logMethod: logMethodHook('json') } },
          { write: (line: string) => viaHttp.push(line) },
        ).logger,
        viaHttp,
      ],
      [
        'plain pino',
        pino(
          { serializers: LOG_SERIALIZERS, hooks: { logMethod: logMethodHook('json') } },
          { write: (line: string) => plain.push(line) },
        ),
        plain,
      ],
    ];
  }

  /** Every key of a logged line, at any depth. */
  function keysOf(value: unknown): string[] {
    if (typeof value !== 'object' || value === null) return [];
    return Object.entries(value).flatMap(([key, inner]) => [key, ...keysOf(inner)]);
  }

  it.each([
    ['SQLite', sqliteFailure, { code: 'SQLITE_CONSTRAINT_PRIMARYKEY' }],
    ['MySQL', mysqlFailure, { code: 'ER_DUP_ENTRY', errno: 1062, sqlState: '23000' }],
  ])(
    '%s: the error, as a cause, aggregated and nested, keeps its name, message and codes only',
    (_db, fail, codes) => {
      for (const [name, logger, lines] of loggers()) {
        const error = fail();
        logger.warn({ err: error }, 'database unavailable');
        logger.error({ err: new Error('a subscriber failed', { cause: fail() }) }, 'wrapped');
        logger.error({ err: new AggregateError([fail()], 'several failed') }, 'aggregated');
        logger.error(
          { err: Object.assign(new Error('outer'), { inner: fail(), list: [{ deeper: fail() }] }) },
          'nested',
        );
        logger.error(fail());
        const text = lines.join('');
        expect({ logger: name, secret: text.includes(SECRET) }).toEqual({ logger: name, secret: false });
        const parsed = lines.map((line) => JSON.parse(line) as { err: Record<string, unknown> });
        expect({
          logger: name,
          dropped: parsed.flatMap(keysOf).filter((key) => DROPPED.includes(key)),
        }).toEqual({
          logger: name,
          dropped: [],
        });
        expect(parsed[0].err).toEqual({
          type: 'QueryFailedError',
          message: expect.any(String),
          stack: expect.stringContaining('QueryFailedError'),
          ...codes,
        });
        expect(parsed[0].err.message).toBe(error.message.replace(SECRET, '[redacted]'));
      }
    },
  );
});
