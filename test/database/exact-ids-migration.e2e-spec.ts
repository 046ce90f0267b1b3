import fs from 'node:fs';
import path from 'node:path';
import { parseDatabaseUrl } from '../../src/config/database-url';
import { buildDataSourceOptions, ENTITY_FILES } from '../../src/database/data-source-options';
import { ExactIds1797600000000 } from '../../src/database/migrations/1797600000000-ExactIds';
import { ServiceDataSource } from '../../src/database/service-data-source';
import { createTestDatabase, TEST_DB, type TestDatabase } from '../support/test-database';

/**
 * 1797600000000-ExactIds (docs/reference/running.md#37-ids-compare-exactly) on a database
 * that holds rows: migrated from 1797500000000 to the head, then down and up again.
 */

const MIGRATIONS = path.join(__dirname, '..', '..', 'src', 'database', 'migrations');
const migrationFiles = (last?: string): string[] =>
  fs
    .readdirSync(MIGRATIONS)
    .filter((file) => file.endsWith('.ts') && (last === undefined || file.slice(0, 13) <= last))
    .sort()
    .map((file) => path.join(MIGRATIONS, file));

const describeMysql = TEST_DB === 'mysql' ? describe : describe.skip;
const describeSqlite = TEST_DB === 'sqlite' ? describe : describe.skip;

async function open(url: string, options: { migrations?: string[]; entities?: string[] } = {}) {
  const source = new ServiceDataSource({
    ...buildDataSourceOptions(parseDatabaseUrl(url)),
    migrations: options.migrations ?? [],
    entities: options.entities ?? [],
  });
  await source.initialize();
  return source;
}

/** Rows of every table the service had at 1797500000000, with ids in both cases and names outside ASCII. */
const SEED = [
  "INSERT INTO notifications (id, type, url, created_at, updated_at, version) VALUES ('Team-A-Hook', 'webhook', 'https://hooks.example.com/a', '2026-01-02 03:04:05.678', '2026-01-02 03:04:05.678', 3)",
  "INSERT INTO notifications (id, type, url, created_at, updated_at, version) VALUES ('b-hook', 'webhook', 'https://hooks.example.com/b', '2026-01-02 03:04:05.679', '2026-01-02 03:04:05.679', 1)",
  "INSERT INTO signers (id, type, encrypted_key, addresses, created_at) VALUES ('Team-A-Key', 'plain', 'sealed', '{}', '2026-01-02 03:04:05.678')",
  "INSERT INTO relayers (id, name, network, network_type, address, signer_id, notification_id, paused, system_disabled, version, created_at, updated_at) VALUES ('Team-A-1', 'one', 'sepolia', 'evm', '0x01', 'Team-A-Key', 'Team-A-Hook', 0, 0, 2, '2026-01-02 03:04:05.678', '2026-01-02 03:04:05.678')",
  "INSERT INTO relayers (id, name, network, network_type, address, signer_id, notification_id, paused, system_disabled, version, created_at, updated_at) VALUES ('team_b-2', 'two', 'réseau', 'evm', '0x02', 'pool-0001', NULL, 1, 0, 1, '2026-01-02 03:04:05.679', '2026-01-02 03:04:05.679')",
  "INSERT INTO relayer_checks (relayer_id, next_check_at, failures, balance_low, balance) VALUES ('Team-A-1', '2026-01-02 03:04:05.678', 0, 1, '18446744073709551617')",
  "INSERT INTO relayer_balance_alerts (relayer_id, threshold, version, updated_at) VALUES ('Team-A-1', '10', 1, '2026-01-02 03:04:05.678')",
  "INSERT INTO network_balance_alerts (network_id, threshold, version, updated_at) VALUES ('evm:réseau', '20', 1, '2026-01-02 03:04:05.678')",
  "INSERT INTO network_rpc_urls (network_id, rpc_urls, updated_at) VALUES ('evm:réseau', '[]', '2026-01-02 03:04:05.678')",
  "INSERT INTO webhook_deliveries (id, notification_id, event_id, event, relayer_id, body, status, attempts, next_attempt_at, created_at) VALUES ('0194e0a1-0000-7000-8000-00000000000a', 'Team-A-Hook', '0194e0a1-0000-7000-8000-0000000000e1', 'relayer_created', 'Team-A-1', '{}', 'pending', 0, '2026-01-02 03:04:05.678', '2026-01-02 03:04:05.678')",
  "INSERT INTO webhook_target_leases (notification_id, consecutive_failures) VALUES ('Team-A-Hook', 2)",
  "INSERT INTO webhook_subscriptions (notification_id, events, version, created_at, updated_at) VALUES ('Team-A-Hook', NULL, 1, '2026-01-02 03:04:05.678', '2026-01-02 03:04:05.678')",
  "INSERT INTO webhook_subscription_relayers (relayer_id, notification_id) VALUES ('team_b-2', 'Team-A-Hook')",
  "INSERT INTO api_keys (id, name, permissions, key_digest, key_prefix, created_at) VALUES ('0194e0a1-0000-7000-8000-0000000000aa', 'parent', '[]', 'd1', 'rk_a', '2026-01-02 03:04:05.678')",
  "INSERT INTO api_keys (id, name, permissions, key_digest, key_prefix, created_at, created_by_key_id) VALUES ('0194e0a1-0000-7000-8000-0000000000ab', 'child', '[]', 'd2', 'rk_b', '2026-01-02 03:04:05.678', '0194e0a1-0000-7000-8000-0000000000aa')",
  "INSERT INTO audit_events (id, at, actor_type, actor_id, actor_name, action, resource_type, resource_id, request_id) VALUES ('0194e0a1-0000-7000-8000-0000000000f1', '2026-01-02 03:04:05.678', 'api_key', '0194e0a1-0000-7000-8000-0000000000aa', 'parent', 'relayer.create', 'relayer', 'Team-A-1', 'req-1')",
  "INSERT INTO audit_events (id, at, actor_type, actor_id, actor_name, action, resource_type, resource_id, request_id) VALUES ('0194e0a1-0000-7000-8000-0000000000f2', '2026-01-02 03:04:05.679', 'system', NULL, 'service', 'note.create', 'note', 'note-é', '')",
  "INSERT INTO config_entries (kind, id, digest, applied_at) VALUES ('relayer', 'Team-A-1', 'abc', '2026-01-02 03:04:05.678')",
  "INSERT INTO idempotency_keys (scope, idempotency_key, request, request_digest, state, claim_token, created_at) VALUES ('admin', 'Key-1', 'POST /api/v1/relayers', 'r1', 'done', 't1', '2026-01-02 03:04:05.678')",
];

/** Every table of SEED, with its rows in the order of their key, byte for byte. */
async function rows(source: ServiceDataSource): Promise<Record<string, unknown[]>> {
  const tables: Record<string, string> = {
    notifications: 'id',
    signers: 'id',
    relayers: 'id',
    relayer_checks: 'relayer_id',
    relayer_balance_alerts: 'relayer_id',
    network_balance_alerts: 'network_id',
    network_rpc_urls: 'network_id',
    webhook_deliveries: 'id',
    webhook_target_leases: 'notification_id',
    webhook_subscriptions: 'notification_id',
    webhook_subscription_relayers: 'relayer_id',
    api_keys: 'id',
    audit_events: 'id',
    config_entries: 'id',
    idempotency_keys: 'scope',
  };
  const all: Record<string, unknown[]> = {};
  for (const [table, key] of Object.entries(tables)) {
    // Sorted here: the migration changes how MySQL orders ids.
    const found = await source.query<Array<Record<string, string>>>(`SELECT * FROM ${table}`);
    all[table] = found.sort((a, b) => (a[key] < b[key] ? -1 : a[key] > b[key] ? 1 : 0));
  }
  return all;
}

interface ColumnRow {
  table_name: string;
  column_name: string;
  column_type: string;
  is_nullable: string;
  column_default: string | null;
  column_key: string;
  charset: string | null;
  collation: string | null;
}

/** What the schema says of each column, index and foreign key (MySQL). */
async function schema(source: ServiceDataSource) {
  const columns = await source.query<ColumnRow[]>(
    `SELECT TABLE_NAME AS table_name, COLUMN_NAME AS column_name, COLUMN_TYPE AS column_type,
            IS_NULLABLE AS is_nullable, COLUMN_DEFAULT AS column_default, COLUMN_KEY AS column_key,
            CHARACTER_SET_NAME AS charset, COLLATION_NAME AS collation
       FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() ORDER BY TABLE_NAME, ORDINAL_POSITION`,
  );
  const indexes = await source.query<unknown[]>(
    `SELECT TABLE_NAME AS table_name, INDEX_NAME AS index_name, SEQ_IN_INDEX AS seq, COLUMN_NAME AS column_name,
            NON_UNIQUE AS non_unique
       FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = DATABASE() ORDER BY TABLE_NAME, INDEX_NAME, SEQ_IN_INDEX`,
  );
  const foreignKeys = await source.query<unknown[]>(
    `SELECT k.TABLE_NAME AS table_name, k.CONSTRAINT_NAME AS name, k.COLUMN_NAME AS column_name,
            k.REFERENCED_TABLE_NAME AS referenced_table, k.REFERENCED_COLUMN_NAME AS referenced_column,
            r.DELETE_RULE AS delete_rule, r.UPDATE_RULE AS update_rule
       FROM information_schema.KEY_COLUMN_USAGE k
       JOIN information_schema.REFERENTIAL_CONSTRAINTS r
         ON r.CONSTRAINT_SCHEMA = k.TABLE_SCHEMA AND r.CONSTRAINT_NAME = k.CONSTRAINT_NAME AND r.TABLE_NAME = k.TABLE_NAME
      WHERE k.TABLE_SCHEMA = DATABASE() AND k.REFERENCED_TABLE_NAME IS NOT NULL
      ORDER BY k.TABLE_NAME, k.CONSTRAINT_NAME`,
  );
  return { columns, indexes, foreignKeys };
}

/** `table.column` of every column compared byte for byte, with its collation. */
const binaryColumns = (columns: readonly ColumnRow[]) =>
  Object.fromEntries(
    columns
      .filter((c) => c.collation?.endsWith('_bin'))
      .map((c) => [`${c.table_name}.${c.column_name}`, c.collation]),
  );

/** The columns exact from their start (1795800000000, 1797100000000). */
const EXACT_BEFORE = {
  'idempotency_keys.scope': 'ascii_bin',
  'idempotency_keys.idempotency_key': 'ascii_bin',
  'webhook_subscription_relayers.relayer_id': 'ascii_bin',
};

/** What 1797600000000 makes binary. */
const MADE_EXACT = {
  'api_keys.id': 'ascii_bin',
  'api_keys.created_by_key_id': 'ascii_bin',
  'audit_events.id': 'ascii_bin',
  'audit_events.actor_id': 'utf8mb4_bin',
  'audit_events.resource_id': 'utf8mb4_bin',
  'config_entries.id': 'ascii_bin',
  'network_balance_alerts.network_id': 'utf8mb4_bin',
  'network_rpc_urls.network_id': 'utf8mb4_bin',
  'notifications.id': 'ascii_bin',
  'relayer_balance_alerts.relayer_id': 'ascii_bin',
  'relayer_checks.relayer_id': 'ascii_bin',
  'relayers.id': 'ascii_bin',
  'relayers.network': 'utf8mb4_bin',
  'relayers.signer_id': 'ascii_bin',
  'relayers.notification_id': 'ascii_bin',
  'signers.id': 'ascii_bin',
  'webhook_deliveries.id': 'ascii_bin',
  'webhook_deliveries.notification_id': 'ascii_bin',
  'webhook_deliveries.event_id': 'ascii_bin',
  'webhook_deliveries.relayer_id': 'ascii_bin',
  'webhook_subscription_relayers.notification_id': 'ascii_bin',
  'webhook_subscriptions.notification_id': 'ascii_bin',
  'webhook_target_leases.notification_id': 'ascii_bin',
};

/** A database at 1797500000000 holding SEED: its schema and rows then. */
async function seededDatabase() {
  const database = await createTestDatabase({ empty: true });
  const earlier = await open(database.url, { migrations: migrationFiles('1797500000000') });
  try {
    await earlier.runMigrations({ transaction: 'each' });
    for (const sql of SEED) await earlier.query(sql);
    return { database, before: await schema(earlier), seeded: await rows(earlier) };
  } finally {
    await earlier.destroy();
  }
}

describeMysql('1797600000000-ExactIds on MySQL, from 1797500000000 with rows', () => {
  let database: TestDatabase | undefined;
  let source: ServiceDataSource | undefined;
  let before: Awaited<ReturnType<typeof schema>>;
  let seeded: Record<string, unknown[]>;
  const migration = new ExactIds1797600000000();
  const db = (): ServiceDataSource => {
    if (!source) throw new Error('the database has not been migrated');
    return source;
  };
  const run = async (step: 'up' | 'down') => {
    const runner = db().createQueryRunner();
    try {
      await migration[step](runner);
    } finally {
      await runner.release();
    }
  };

  beforeAll(async () => {
    ({ database, before, seeded } = await seededDatabase());
    source = await open(database.url, { migrations: migrationFiles('1797600000000') });
    await source.runMigrations({ transaction: 'each' });
  });
  afterAll(async () => {
    await source?.destroy();
    await database?.drop();
  });

  it('before it, only the columns exact from their start are binary', () => {
    expect(binaryColumns(before.columns)).toEqual(EXACT_BEFORE);
  });

  it('makes every id column binary and changes nothing else: types, lengths, nullability, defaults, keys, indexes, foreign keys, rows', async () => {
    const after = await schema(db());
    expect(binaryColumns(after.columns)).toEqual({ ...EXACT_BEFORE, ...MADE_EXACT });
    const exact: Record<string, string> = MADE_EXACT;
    expect(after.columns).toEqual(
      before.columns.map((c) => {
        const collation = exact[`${c.table_name}.${c.column_name}`];
        return collation === undefined ? c : { ...c, collation, charset: collation.split('_')[0] };
      }),
    );
    expect({ indexes: after.indexes, foreignKeys: after.foreignKeys }).toEqual({
      indexes: before.indexes,
      foreignKeys: before.foreignKeys,
    });
    expect(await rows(db())).toEqual(seeded);
  });

  it('ids in another case are two rows now; down() refuses while they are, and changes nothing', async () => {
    await db().query(
      "INSERT INTO notifications (id, type, url, created_at, updated_at, version) VALUES ('TEAM-A-HOOK', 'webhook', 'https://hooks.example.com/c', '2026-01-02 03:04:05.680', '2026-01-02 03:04:05.680', 1)",
    );
    expect(
      await db().query<unknown[]>("SELECT id FROM notifications WHERE id IN ('team-a-hook', 'TEAM-A-HOOK')"),
    ).toEqual([{ id: 'TEAM-A-HOOK' }]);
    const binary = await schema(db());
    await expect(run('down')).rejects.toThrow(
      'ExactIds: notifications has rows whose id differ only in case, which PRIMARY would take for one once case is ignored again: delete or rename one of them first; nothing was changed',
    );
    expect(await schema(db())).toEqual(binary);
    await db().query("DELETE FROM notifications WHERE id = 'TEAM-A-HOOK'");
  });

  it('down() restores every column, index and foreign key as at 1797500000000, rows intact; up() again', async () => {
    const binary = await schema(db());
    await run('down');
    expect(await schema(db())).toEqual(before);
    expect(await rows(db())).toEqual(seeded);
    await run('up');
    expect(await schema(db())).toEqual(binary);
    expect(await rows(db())).toEqual(seeded);
  });

  it('up() stops before any change when an id it would make ASCII is not', async () => {
    await run('down');
    await db().query("UPDATE config_entries SET id = 'Team-Ä-1' WHERE id = 'Team-A-1'");
    await expect(run('up')).rejects.toThrow(
      'ExactIds: config_entries.id holds "Team-Ä-1", which is not ASCII as every id the service writes is: nothing was changed',
    );
    expect(await schema(db())).toEqual(before);
    await db().query("UPDATE config_entries SET id = 'Team-A-1' WHERE id = 'Team-Ä-1'");
    await run('up');
    expect(binaryColumns((await schema(db())).columns)).toEqual({ ...EXACT_BEFORE, ...MADE_EXACT });
  });
});

describeMysql('the migrations after 1797600000000 on MySQL, and the entities', () => {
  let database: TestDatabase | undefined;
  afterAll(async () => {
    await database?.drop();
  });

  it('at the head: the rows of 1797500000000 intact, their id columns binary, as every entity declares', async () => {
    const seededAt = await seededDatabase();
    database = seededAt.database;
    const head = await open(database.url, { migrations: migrationFiles(), entities: [ENTITY_FILES] });
    try {
      await head.runMigrations({ transaction: 'each' });
      // 1797700000000 moved each delivery's body to webhook_events and added replayed_at; 1797800000000
      // added balance_order, the balance as text that sorts as the number; 1797810000000 failed_at and
      // failed_error (the seeded delivery never failed); 1798010000000 each target's signing_scheme,
      // `reference`; 1798100000000 channel_config, null for a webhook: the rest as seeded.
      const {
        webhook_deliveries: deliveries,
        relayer_checks: checks,
        notifications,
        ...others
      } = seededAt.seeded;
      const bodies = await head.query<Array<{ id: string; body: string }>>(
        'SELECT id, body FROM webhook_events ORDER BY id',
      );
      expect({ ...(await rows(head)), bodies }).toEqual({
        ...others,
        notifications: (notifications as Array<Record<string, unknown>>).map((target) => ({
          ...target,
          signing_scheme: 'reference',
          channel_config: null,
        })),
        relayer_checks: (checks as Array<{ balance: string | null }>).map((check) => ({
          ...check,
          balance_order:
            check.balance === null
              ? null
              : `${String(check.balance.length).padStart(3, '0')}${check.balance}`,
        })),
        webhook_deliveries: (deliveries as Array<Record<string, unknown>>).map(
          ({ body: _body, ...delivery }) => ({
            ...delivery,
            replayed_at: null,
            failed_at: null,
            failed_error: null,
          }),
        ),
        bodies: (deliveries as Array<{ event_id: string; body: string }>).map((d) => ({
          id: d.event_id,
          body: d.body,
        })),
      });
      const { columns } = await schema(head);
      expect(binaryColumns(columns)).toEqual(expect.objectContaining({ ...EXACT_BEFORE, ...MADE_EXACT }));
      // What `migration:generate` compares: the collation each entity declares is its column's.
      const inSchema = new Map(columns.map((c) => [`${c.table_name}.${c.column_name}`, c]));
      const declared = head.entityMetadatas.flatMap((entity) =>
        entity.columns.map((column) => {
          const name = `${entity.tableName}.${column.databaseName}`;
          return { name, declared: column.collation ?? null, stored: inSchema.get(name)?.collation };
        }),
      );
      expect(declared.filter((c) => c.stored?.endsWith('_bin') || c.declared !== null)).toEqual(
        declared
          .filter((c) => c.stored?.endsWith('_bin') || c.declared !== null)
          .map((c) => ({ ...c, declared: c.stored })),
      );
    } finally {
      await head.destroy();
    }
  });
});

describeSqlite('1797600000000-ExactIds on SQLite: nothing to do, SQLite compares bytes', () => {
  let database: TestDatabase | undefined;
  afterAll(async () => {
    await database?.drop();
  });

  it('leaves the schema and the rows as they were, up and down', async () => {
    database = await createTestDatabase({ empty: true });
    const master = (source: ServiceDataSource) =>
      source.query<unknown[]>('SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY name');
    const earlier = await open(database.url, { migrations: migrationFiles('1797500000000') });
    let before: unknown[];
    let seeded: Record<string, unknown[]>;
    try {
      await earlier.runMigrations({ transaction: 'all' });
      for (const sql of SEED) await earlier.query(sql);
      before = await master(earlier);
      seeded = await rows(earlier);
    } finally {
      await earlier.destroy();
    }
    const source = await open(database.url, { migrations: migrationFiles('1797600000000') });
    try {
      await source.runMigrations({ transaction: 'all' });
      expect({ schema: await master(source), rows: await rows(source) }).toEqual({
        schema: before,
        rows: seeded,
      });
      await source.undoLastMigration({ transaction: 'all' });
      expect({ schema: await master(source), rows: await rows(source) }).toEqual({
        schema: before,
        rows: seeded,
      });
    } finally {
      await source.destroy();
    }
  });
});
