import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Logger } from '@nestjs/common';
import { createConnection } from 'mysql2/promise';
import { MYSQL_TEST_URL, templateEnv, type DatabaseKind } from './test-database';

type DataSourceModule = typeof import('../../src/database/service-data-source');
type OptionsModule = typeof import('../../src/database/data-source-options');
type UrlModule = typeof import('../../src/config/database-url');

const dist = path.resolve(__dirname, '..', '..', 'dist', 'src');
const load = <T>(file: string): Promise<T> => import(pathToFileURL(path.join(dist, file)).href) as Promise<T>;

/**
 * The service's migrations, run once per test run into a template (a SQLite file, or a MySQL database)
 * that createTestDatabase copies for each test file: a copy costs a few milliseconds where migrating
 * costs seconds on MySQL. Built from dist/ (global-setup.ts has just built it), by the dialect's own
 * migrate(), as the service would. Its place is handed to the workers in TEST_DB_TEMPLATE_<KIND>
 * (templateEnv), once per kind however many projects ask.
 */
export async function createMigratedTemplate(kind: DatabaseKind): Promise<void> {
  if (process.env[templateEnv(kind)]) return;
  let url: string;
  let name: string;
  if (kind === 'sqlite') {
    name = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'relayer-template-')), 'relayer.sqlite');
    url = `sqlite:${name}`;
  } else {
    name = `relayer_test_template_${randomBytes(4).toString('hex')}`;
    const admin = await createConnection({ uri: MYSQL_TEST_URL });
    await admin.query(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
    await admin.end();
    url = `${MYSQL_TEST_URL}/${name}`;
  }
  const { ServiceDataSource } = await load<DataSourceModule>('database/service-data-source.js');
  const { buildDataSourceOptions } = await load<OptionsModule>('database/data-source-options.js');
  const { parseDatabaseUrl } = await load<UrlModule>('config/database-url.js');
  const dataSource = new ServiceDataSource(buildDataSourceOptions(parseDatabaseUrl(url)));
  await dataSource.initialize();
  try {
    await dataSource.dialect.migrate(new Logger('test-template'));
  } finally {
    await dataSource.destroy();
  }
  process.env[templateEnv(kind)] = name;
}

export async function dropMigratedTemplate(kind: DatabaseKind): Promise<void> {
  const name = process.env[templateEnv(kind)];
  if (!name) return;
  delete process.env[templateEnv(kind)];
  if (kind === 'sqlite') {
    fs.rmSync(path.dirname(name), { recursive: true, force: true });
    return;
  }
  const admin = await createConnection({ uri: MYSQL_TEST_URL });
  await admin.query(`DROP DATABASE IF EXISTS \`${name}\``);
  await admin.end();
}
