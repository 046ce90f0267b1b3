import fs from 'node:fs';
import path from 'node:path';
import { parseDatabaseUrl } from '../../../src/config/database-url';
import { buildDataSourceOptions } from '../../../src/database/data-source-options';
import { ServiceDataSource } from '../../../src/database/service-data-source';
import { successBody } from '../../support/envelope';
import { startTestApp, type TestApp } from '../../support/test-app';
import { createTestDatabase, TEST_DB, type TestDatabase } from '../../support/test-database';

const MIGRATIONS = path.join(__dirname, '..', '..', '..', 'src', 'database', 'migrations');
const KEEP_FAILURES = '1797810000000';

/** A datetime as the service stores it (UTC, milliseconds). */
const stored = (at: Date) => at.toISOString().replace('T', ' ').replace('Z', '');

describe('the migration that keeps failures (1797810000000): deliveries written before it', () => {
  let database: TestDatabase;
  let app: TestApp | undefined;
  beforeAll(async () => {
    database = await createTestDatabase({ empty: true });
  });
  afterAll(async () => {
    await app?.close();
    await database?.drop();
  });

  const files = (filter: (name: string) => boolean) =>
    fs
      .readdirSync(MIGRATIONS)
      .filter((file) => file.endsWith('.ts') && filter(file))
      .map((file) => path.join(MIGRATIONS, file));
  const source = (migrations: string[]) =>
    new ServiceDataSource({ ...buildDataSourceOptions(parseDatabaseUrl(database.url)), migrations });
  const columnsOf = async (dataSource: ServiceDataSource): Promise<string[]> => {
    const rows = await dataSource.query<Array<{ c: string }>>(
      TEST_DB === 'mysql'
        ? "SELECT COLUMN_NAME AS c FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = 'webhook_deliveries'"
        : "SELECT name AS c FROM pragma_table_info('webhook_deliveries')",
    );
    return rows.map((r) => r.c).filter((c) => c.startsWith('failed_'));
  };

  it('takes the failures of the deliveries failed then (when they ended, their error); the stats read them; down() drops the columns', async () => {
    const before = files((file) => file < KEEP_FAILURES);
    const upTo = files((file) => file < `${KEEP_FAILURES}~`);
    expect(upTo.length - before.length).toBe(1);
    const now = Date.now();
    const created = new Date(now - 3 * 3600_000);
    const failedAt = new Date(now - 2 * 3600_000);
    const olderFailure = new Date(now - 2.5 * 3600_000);
    const deliveredAt = new Date(now - 3600_000);
    const old = source(before);
    await old.initialize();
    try {
      await old.runMigrations({ transaction: 'all' });
      await old.query(
        `INSERT INTO notifications (id, type, url, signing_key, created_at, updated_at, version) VALUES ('old-hook', 'webhook', 'https://hooks.example.com/old', NULL, ?, ?, 1)`,
        [stored(created), stored(created)],
      );
      await old.query(`INSERT INTO webhook_events (id, body, created_at) VALUES ('e-1', '{}', ?)`, [
        stored(created),
      ]);
      const rows: Array<[string, string, string | null, Date | null]> = [
        ['d-1', 'failed', 'HTTP 410', failedAt],
        ['d-2', 'failed', 'timed out', olderFailure],
        ['d-3', 'delivered', null, deliveredAt],
        // Queued again by a replay before the migration: its failure was forgotten already.
        ['d-4', 'pending', 'HTTP 503', null],
      ];
      for (const [id, status, error, ended] of rows) {
        await old.query(
          `INSERT INTO webhook_deliveries (id, notification_id, event_id, event, relayer_id, status, attempts,
             last_status_code, last_error, next_attempt_at, lease_owner, lease_until, created_at, delivered_at,
             ended_at, latency_ms, replayed_at)
           VALUES (?, 'old-hook', 'e-1', 'relayer_updated', NULL, ?, 1, NULL, ?, ?, NULL, NULL, ?, ?, ?, ?, NULL)`,
          [
            id,
            status,
            error,
            // The pending one is due far in the future: the service leaves it alone.
            stored(status === 'pending' ? new Date('2999-01-01T00:00:00.000Z') : created),
            stored(created),
            status === 'delivered' && ended ? stored(ended) : null,
            ended && stored(ended),
            status === 'delivered' ? 12 : null,
          ],
        );
      }
    } finally {
      await old.destroy();
    }

    const migrated = source(upTo);
    await migrated.initialize();
    try {
      await migrated.runMigrations({ transaction: 'all' });
      const failures = () =>
        migrated.query<Array<{ id: string; failed_at: Date | string | null; failed_error: string | null }>>(
          'SELECT id, failed_at, failed_error FROM webhook_deliveries ORDER BY id',
        );
      // MySQL's driver answers a Date, SQLite's the stored text.
      const asIso = (value: Date | string | null) =>
        value === null ? null : value instanceof Date ? value.toISOString() : `${value.replace(' ', 'T')}Z`;
      expect((await failures()).map((row) => [row.id, asIso(row.failed_at), row.failed_error])).toEqual([
        ['d-1', failedAt.toISOString(), 'HTTP 410'],
        ['d-2', olderFailure.toISOString(), 'timed out'],
        ['d-3', null, null],
        ['d-4', null, null],
      ]);
      await migrated.undoLastMigration({ transaction: 'all' });
      expect(await columnsOf(migrated)).toEqual([]);
      await migrated.runMigrations({ transaction: 'all' });
      expect((await columnsOf(migrated)).sort()).toEqual(['failed_at', 'failed_error']);
    } finally {
      await migrated.destroy();
    }

    app = await startTestApp({ DATABASE_URL: database.url });
    const stats = await app.get('/api/v1/notifications/old-hook/stats');
    expect({ status: stats.status, body: stats.body as unknown }).toEqual({
      status: 200,
      body: successBody({
        window: '24h',
        delivered: 1,
        failed: 2,
        pending: 1,
        retried: 0,
        success_rate: 0.3333,
        latency_ms: { p50: 12, p95: 12, max: 12 },
        last_delivered_at: deliveredAt.toISOString(),
        last_failed_at: failedAt.toISOString(),
        last_error: 'HTTP 410',
      }),
    });
  });
});
