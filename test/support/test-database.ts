import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { createConnection } from 'mysql2/promise';

export type DatabaseKind = 'sqlite' | 'mysql';

/** What a global set-up is told of its jest project (jest.config.js). */
export interface JestProject {
  readonly globals: { readonly TEST_DB?: unknown };
}

const kindOf = (value: unknown): DatabaseKind => (value === 'mysql' ? 'mysql' : 'sqlite');

/** The database of a jest project: its `globals.TEST_DB` (jest.config.js: e2e on SQLite, e2e-mysql). */
export const projectDatabase = (project: JestProject): DatabaseKind => kindOf(project.globals.TEST_DB);

/** Which database this test file runs on: its jest project's `globals.TEST_DB`. */
export const TEST_DB: DatabaseKind = kindOf((globalThis as { TEST_DB?: unknown }).TEST_DB);

/** Where test databases are created; the user may only create and drop databases named relayer_test*. */
export const MYSQL_TEST_URL =
  process.env.MYSQL_TEST_URL ?? 'mysql://relayer_test:relayer_test@127.0.0.1:3306';

/** Where the global set-up left the migrated template of a kind (test/support/migrated-template.ts). */
export const templateEnv = (kind: DatabaseKind): string => `TEST_DB_TEMPLATE_${kind.toUpperCase()}`;

export interface TestDatabaseOptions {
  readonly kind?: DatabaseKind;
  /** No table at all, for the suites about migrating (the service migrates it when it starts). */
  readonly empty?: boolean;
}

export interface TestDatabase {
  readonly url: string;
  /** Raw bytes of everything stored (to prove what is not in there). */
  dump(): Promise<string>;
  /** Runs one statement directly (to set up states the API cannot reach, e.g. system_disabled). */
  exec(sql: string): Promise<void>;
  /** The rows one statement reads, directly (to look at what the API does not show, e.g. hourly totals). */
  query<T extends object>(sql: string): Promise<T[]>;
  drop(): Promise<void>;
}

async function mysqlAdmin<T>(
  fn: (c: Awaited<ReturnType<typeof createConnection>>) => Promise<T>,
): Promise<T> {
  const connection = await createConnection({ uri: MYSQL_TEST_URL, multipleStatements: false });
  try {
    return await fn(connection);
  } finally {
    await connection.end();
  }
}

/** Copies every table of the template, rows included (the migrations table), into an empty database. */
async function copyMysqlTemplate(template: string, name: string): Promise<void> {
  await mysqlAdmin(async (c) => {
    const [tables] = await c.query<import('mysql2').RowDataPacket[]>(
      'SELECT table_name AS name FROM information_schema.tables WHERE table_schema = ?',
      [template],
    );
    await c.query(`USE \`${name}\``);
    await c.query('SET SESSION foreign_key_checks = 0');
    for (const { name: table } of tables as Array<{ name: string }>) {
      const [[created]] = await c.query<import('mysql2').RowDataPacket[]>(
        `SHOW CREATE TABLE \`${template}\`.\`${table}\``,
      );
      await c.query(String(created['Create Table']));
      await c.query(`INSERT INTO \`${table}\` SELECT * FROM \`${template}\`.\`${table}\``);
    }
  });
}

/**
 * A fresh database of the kind under test, owned by the calling test file: migrated (a copy of the
 * run's template) unless `empty`.
 */
export async function createTestDatabase(options: TestDatabaseOptions = {}): Promise<TestDatabase> {
  const { kind = TEST_DB, empty = false } = options;
  const template = empty ? undefined : process.env[templateEnv(kind)];
  if (kind === 'sqlite') {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'relayer-test-'));
    const file = path.join(dir, 'relayer.sqlite');
    if (template) fs.copyFileSync(template, file);
    return {
      url: `sqlite:${file}`,
      dump: () =>
        Promise.resolve(
          ['', '-wal', '-shm']
            .map((suffix) => file + suffix)
            .filter((f) => fs.existsSync(f))
            .map((f) => fs.readFileSync(f).toString('latin1'))
            .join('\n'),
        ),
      exec: (sql) => {
        const db = new Database(file);
        try {
          db.exec(sql);
        } finally {
          db.close();
        }
        return Promise.resolve();
      },
      query: <T extends object>(sql: string) => {
        const db = new Database(file);
        try {
          return Promise.resolve(db.prepare(sql).all() as T[]);
        } finally {
          db.close();
        }
      },
      drop: () => Promise.resolve(fs.rmSync(dir, { recursive: true, force: true })),
    };
  }
  const name = `relayer_test_${randomBytes(5).toString('hex')}`;
  await mysqlAdmin((c) =>
    c.query(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`),
  );
  if (template) await copyMysqlTemplate(template, name);
  return {
    url: `${MYSQL_TEST_URL}/${name}`,
    dump: () =>
      mysqlAdmin(async (c) => {
        const [tables] = await c.query<import('mysql2').RowDataPacket[]>(`SHOW TABLES FROM \`${name}\``);
        const parts: string[] = [];
        for (const row of tables) {
          const table = String(Object.values(row)[0]);
          const [rows] = await c.query(`SELECT * FROM \`${name}\`.\`${table}\``);
          parts.push(JSON.stringify(rows));
        }
        return parts.join('\n');
      }),
    exec: (sql) =>
      mysqlAdmin((c) => c.query(`USE \`${name}\``).then(() => c.query(sql))).then(() => undefined),
    query: <T extends object>(sql: string) =>
      mysqlAdmin(async (c) => {
        await c.query(`USE \`${name}\``);
        const [rows] = await c.query<import('mysql2').RowDataPacket[]>(sql);
        return rows as unknown as T[];
      }),
    drop: () => mysqlAdmin((c) => c.query(`DROP DATABASE IF EXISTS \`${name}\``)).then(() => undefined),
  };
}
