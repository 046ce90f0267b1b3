import { EventEmitter2 } from '@nestjs/event-emitter';
import type { DataSource, EntityManager } from 'typeorm';
import type { DatabaseDialect } from './dialects/database-dialect';
import { MysqlDialect } from './dialects/mysql-dialect';
import { SqliteDialect } from './dialects/sqlite-dialect';
import { Transactions } from './transactions';

/** A data source whose transactions fail with the given driver errors first, then commit. */
function dataSource(
  type: 'mysql' | 'better-sqlite3',
  failures: Error[],
): { source: DataSource; dialect: DatabaseDialect; runs: () => number } {
  let runs = 0;
  const source = {
    transaction: async <T>(work: (manager: EntityManager) => Promise<T>): Promise<T> => {
      runs += 1;
      const result = await work({} as EntityManager);
      const failure = failures.shift();
      if (failure) throw failure;
      return result;
    },
  } as unknown as DataSource;
  const dialect = type === 'mysql' ? new MysqlDialect(source) : new SqliteDialect(source);
  return { source, dialect, runs: () => runs };
}

/** A driver error as TypeORM wraps it (QueryFailedError.driverError). */
const driverFailure = (errno: number, code: string): Error =>
  Object.assign(new Error(code), { driverError: { errno, code } });
const deadlock = driverFailure(1213, 'ER_LOCK_DEADLOCK');
const lockWait = driverFailure(1205, 'ER_LOCK_WAIT_TIMEOUT');
const duplicate = driverFailure(1062, 'ER_DUP_ENTRY');

describe('Transactions: conflicts the database resolved by rolling one side back are run again', () => {
  it('a deadlock (or Galera certification conflict) and a lock wait timeout: run again, then committed', async () => {
    const { source, dialect, runs } = dataSource('mysql', [deadlock, lockWait]);
    const published: string[] = [];
    const events = new EventEmitter2();
    events.on('thing.done', () => published.push('done'));
    const result = await new Transactions(source, events, dialect).run(async (tx) => {
      await tx.publish('thing.done', {});
      return 'committed';
    });
    // Published once: only the committed attempt's events go out.
    expect({ result, runs: runs(), published }).toEqual({
      result: 'committed',
      runs: 3,
      published: ['done'],
    });
  });

  it('gives up after ten attempts and lets the conflict through', async () => {
    const { source, dialect, runs } = dataSource(
      'mysql',
      Array.from({ length: 10 }, () => deadlock),
    );
    await expect(
      new Transactions(source, new EventEmitter2(), dialect).run(() => Promise.resolve('x')),
    ).rejects.toBe(deadlock);
    expect(runs()).toBe(10);
  });

  it('any other error is not retried', async () => {
    const { source, dialect, runs } = dataSource('mysql', [duplicate]);
    await expect(
      new Transactions(source, new EventEmitter2(), dialect).run(() => Promise.resolve('x')),
    ).rejects.toBe(duplicate);
    expect(runs()).toBe(1);
  });
});

describe('Transactions: a dry run (rollback) runs the work and keeps nothing', () => {
  it('resolves with the work result, rolls the transaction back and publishes nothing at all', async () => {
    let outcome: 'committed' | 'rolled back' | undefined;
    const source = {
      transaction: async <T>(work: (manager: EntityManager) => Promise<T>): Promise<T> => {
        try {
          const result = await work({} as EntityManager);
          outcome = 'committed';
          return result;
        } catch (error) {
          outcome = 'rolled back';
          throw error;
        }
      },
    } as unknown as DataSource;
    const heard: string[] = [];
    const events = new EventEmitter2({ wildcard: true });
    events.onAny((name) => heard.push(String(name)));
    const result = await new Transactions(source, events, new SqliteDialect(source)).run(
      async (tx) => {
        await tx.publish('thing.done', {});
        return 'would be';
      },
      { rollback: true },
    );
    expect({ result, outcome, heard }).toEqual({ result: 'would be', outcome: 'rolled back', heard: [] });
  });

  it("the work's own error still reaches the caller", async () => {
    const { source, dialect } = dataSource('better-sqlite3', []);
    const refusal = new Error('refused');
    await expect(
      new Transactions(source, new EventEmitter2(), dialect).run(() => Promise.reject(refusal), {
        rollback: true,
      }),
    ).rejects.toBe(refusal);
  });
});
