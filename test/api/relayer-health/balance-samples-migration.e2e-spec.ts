import fs from 'node:fs';
import path from 'node:path';
import { parseDatabaseUrl } from '../../../src/config/database-url';
import { buildDataSourceOptions } from '../../../src/database/data-source-options';
import { ServiceDataSource } from '../../../src/database/service-data-source';
import { successBody } from '../../support/envelope';
import { startTestApp, type TestApp } from '../../support/test-app';
import { createTestDatabase, TEST_DB, type TestDatabase } from '../../support/test-database';

const MIGRATIONS = path.join(__dirname, '..', '..', '..', 'src', 'database', 'migrations');
const SAMPLES = '1797811000000';
const CHECKED_AT = '2026-11-30 10:11:12.345';

describe('the migration that makes balance samples (1797811000000): relayers checked before it', () => {
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
  const tableExists = async (dataSource: ServiceDataSource): Promise<boolean> =>
    (
      await dataSource.query<unknown[]>(
        TEST_DB === 'mysql'
          ? "SELECT 1 FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = 'relayer_balance_samples'"
          : "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'relayer_balance_samples'",
      )
    ).length > 0;

  it('gives each relayer checked then its stored balance as a first sample, at its last check; down() drops the table', async () => {
    const before = files((file) => file < SAMPLES);
    const upTo = files((file) => file < `${SAMPLES}~`);
    expect(upTo.length - before.length).toBe(1);
    const old = source(before);
    await old.initialize();
    try {
      await old.runMigrations({ transaction: 'all' });
      for (const [id, address] of [
        ['r-checked', '0x01'],
        ['r-never', '0x02'],
      ]) {
        await old.query(
          `INSERT INTO relayers (id, name, network, network_type, address, signer_id, notification_id, paused,
             system_disabled, version, created_at, updated_at)
           VALUES (?, 'old', 'sepolia', 'evm', ?, ?, NULL, 0, 0, 1, '2026-11-01 00:00:00.000', '2026-11-01 00:00:00.000')`,
          [id, address, `pool-00${address.slice(2)}`],
        );
      }
      await old.query(
        `INSERT INTO relayer_checks (relayer_id, next_check_at, checked_at, balance, failures)
         VALUES ('r-checked', '2999-01-01 00:00:00.000', ?, '123456789012345678901234567890', 0),
                ('r-never', '2999-01-01 00:00:00.000', NULL, NULL, 0)`,
        [CHECKED_AT],
      );
    } finally {
      await old.destroy();
    }

    const migrated = source(upTo);
    await migrated.initialize();
    try {
      await migrated.runMigrations({ transaction: 'all' });
      expect(
        (
          await migrated.query<Array<{ relayer_id: string; balance: string }>>(
            'SELECT relayer_id, balance FROM relayer_balance_samples ORDER BY relayer_id',
          )
        ).map((row) => ({ ...row })),
      ).toEqual([{ relayer_id: 'r-checked', balance: '123456789012345678901234567890' }]);
      await migrated.undoLastMigration({ transaction: 'all' });
      expect(await tableExists(migrated)).toBe(false);
      await migrated.runMigrations({ transaction: 'all' });
      expect(await tableExists(migrated)).toBe(true);
    } finally {
      await migrated.destroy();
    }

    app = await startTestApp({ DATABASE_URL: database.url, RELAYER_HEALTH_CHECKS: 'false' });
    const checked = await app.get('/api/v1/relayers/r-checked/balance-history?window=24h');
    expect({ status: checked.status, body: checked.body as unknown }).toEqual({
      status: 200,
      body: successBody({
        window: '24h',
        samples: [{ at: '2026-11-30T10:11:12.345Z', balance: '123456789012345678901234567890' }],
      }),
    });
    const never = await app.get('/api/v1/relayers/r-never/balance-history?window=30d');
    expect({ status: never.status, body: never.body as unknown }).toEqual({
      status: 200,
      body: successBody({ window: '30d', samples: [] }),
    });
  });
});
