import fs from 'node:fs';
import path from 'node:path';
import { parseDatabaseUrl } from '../../../src/config/database-url';
import { buildDataSourceOptions } from '../../../src/database/data-source-options';
import { ServiceDataSource } from '../../../src/database/service-data-source';
import { startTestApp, type TestApp } from '../../support/test-app';
import { createTestDatabase, TEST_DB, type TestDatabase } from '../../support/test-database';
import { WebhookReceiver } from '../../support/webhook-receiver';

const MIGRATIONS = path.join(__dirname, '..', '..', '..', 'src', 'database', 'migrations');
const STORE_BODIES_ONCE = '1797700000000';

const at = (iso: string) => iso.replace('T', ' ').replace('Z', '');

/** Bodies as the service wrote them before the migration: one per delivery, each with its event's id. */
function bodyOf(eventId: string, name: string, padding = 0): string {
  return JSON.stringify({
    id: eventId,
    event: 'relayer_updated',
    payload: {
      payload_type: 'relayer_updated',
      relayer: { id: 'r-old', name, note: 'x'.repeat(padding) },
      changed: ['name'],
    },
    timestamp: '2026-12-01T10:00:00.000Z',
  });
}

describe('the migration that stores each event body once (1797700000000): deliveries written before it', () => {
  const receiver = new WebhookReceiver();
  let database: TestDatabase;
  let app: TestApp | undefined;
  beforeAll(async () => {
    database = await createTestDatabase({ empty: true });
    await receiver.start();
  });
  afterAll(async () => {
    await app?.close();
    await receiver.close();
    await database?.drop();
  });

  const files = (filter: (name: string) => boolean) =>
    fs
      .readdirSync(MIGRATIONS)
      .filter((file) => file.endsWith('.ts') && filter(file))
      .map((file) => path.join(MIGRATIONS, file));
  const source = (migrations: string[]) =>
    new ServiceDataSource({ ...buildDataSourceOptions(parseDatabaseUrl(database.url)), migrations });
  const columnsOf = async (dataSource: ServiceDataSource, table: string): Promise<string[]> => {
    const rows = await dataSource.query<Array<{ c: string }>>(
      TEST_DB === 'mysql'
        ? 'SELECT COLUMN_NAME AS c FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = ?'
        : 'SELECT name AS c FROM pragma_table_info(?)',
      [table],
    );
    return rows.map((r) => r.c).sort();
  };

  it('moves the bodies into webhook_events, one per event id; down() puts each back on its deliveries; the service then sends the pending one whole', async () => {
    const before = files((file) => file < STORE_BODIES_ONCE);
    const upTo = files((file) => file < `${STORE_BODIES_ONCE}~`);
    expect(upTo.length - before.length).toBe(1);
    const bodies = {
      'e-1': bodyOf('e-1', 'delivered'),
      // One event, two targets: the same body on both rows, stored once after the migration.
      'e-2': bodyOf('e-2', 'failed twice'),
      // Pending, and larger than MySQL's TEXT: sent by the service after the migration.
      'e-3': bodyOf('e-3', 'pending', 70_000),
    };
    const old = source(before);
    await old.initialize();
    try {
      await old.runMigrations({ transaction: 'all' });
      for (const id of ['old-hook', 'old-hook-2']) {
        await old.query(
          `INSERT INTO notifications (id, type, url, signing_key, created_at, updated_at, version) VALUES (?, 'webhook', ?, NULL, ?, ?, 1)`,
          [id, receiver.url(`/${id}`), at('2026-12-01T10:00:00.000Z'), at('2026-12-01T10:00:00.000Z')],
        );
      }
      const rows: Array<[string, string, keyof typeof bodies, string, string | null]> = [
        ['d-1', 'old-hook', 'e-1', 'delivered', '2026-12-01T10:00:01.000Z'],
        ['d-2', 'old-hook', 'e-2', 'failed', '2026-12-01T10:00:02.000Z'],
        ['d-3', 'old-hook-2', 'e-2', 'failed', '2026-12-01T10:00:02.000Z'],
        ['d-4', 'old-hook', 'e-3', 'pending', null],
      ];
      for (const [id, hook, eventId, status, ended] of rows) {
        await old.query(
          `INSERT INTO webhook_deliveries (id, notification_id, event_id, event, relayer_id, body, status, attempts,
             last_status_code, last_error, next_attempt_at, lease_owner, lease_until, created_at, delivered_at, ended_at, latency_ms)
           VALUES (?, ?, ?, 'relayer_updated', 'r-old', ?, ?, ?, NULL, NULL, ?, NULL, NULL, ?, ?, ?, NULL)`,
          [
            id,
            hook,
            eventId,
            bodies[eventId],
            status,
            status === 'pending' ? 0 : 1,
            at('2026-12-01T10:00:00.000Z'),
            at('2026-12-01T10:00:00.000Z'),
            status === 'delivered' && ended ? at(ended) : null,
            ended && at(ended),
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
      const events = async () =>
        migrated.query<Array<{ id: string; body: string }>>(
          'SELECT id, body FROM webhook_events ORDER BY id',
        );
      const deliveries = async (withBody: boolean) =>
        migrated.query<Array<Record<string, string>>>(
          `SELECT id, event_id${withBody ? ', body' : ''} FROM webhook_deliveries ORDER BY id`,
        );
      const up = {
        events: await events(),
        deliveries: await deliveries(false),
        columns: (await columnsOf(migrated, 'webhook_deliveries')).filter((c) =>
          ['body', 'event_id'].includes(c),
        ),
      };
      expect(up).toEqual({
        events: Object.entries(bodies).map(([id, body]) => ({ id, body })),
        deliveries: [
          { id: 'd-1', event_id: 'e-1' },
          { id: 'd-2', event_id: 'e-2' },
          { id: 'd-3', event_id: 'e-2' },
          { id: 'd-4', event_id: 'e-3' },
        ],
        columns: ['event_id'],
      });

      await migrated.undoLastMigration({ transaction: 'all' });
      expect({
        deliveries: await deliveries(true),
        tables: (await columnsOf(migrated, 'webhook_events')).length,
      }).toEqual({
        deliveries: [
          { id: 'd-1', event_id: 'e-1', body: bodies['e-1'] },
          { id: 'd-2', event_id: 'e-2', body: bodies['e-2'] },
          { id: 'd-3', event_id: 'e-2', body: bodies['e-2'] },
          { id: 'd-4', event_id: 'e-3', body: bodies['e-3'] },
        ],
        tables: 0,
      });

      await migrated.runMigrations({ transaction: 'all' });
      expect(await events()).toEqual(up.events);
    } finally {
      await migrated.destroy();
    }

    app = await startTestApp({ DATABASE_URL: database.url });
    const [sent] = await receiver.waitFor('/old-hook', 1);
    expect({ body: sent.body, eventId: sent.headers['x-event-id'] }).toEqual({
      body: bodies['e-3'],
      eventId: 'e-3',
    });
    const log = await app.get('/api/v1/notifications/old-hook/deliveries').expect(200);
    expect(
      (log.body as { data: Array<{ id: string; event_id: string }> }).data.map((d) => [d.id, d.event_id]),
    ).toEqual([
      ['d-4', 'e-3'],
      ['d-2', 'e-2'],
      ['d-1', 'e-1'],
    ]);
  });
});
