import { randomBytes, randomInt } from 'node:crypto';
import { DataSource } from 'typeorm';
import { successBody } from '../../support/envelope';
import { secrets } from '../../support/secrets';
import { TEST_DB } from '../../support/test-database';
import { useWebhookApp } from '../../support/webhook-app';
import { relayerBody, uid } from '../../factories';

const BASE58_ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
/** The limits of src/relayers/policies/policy-validation.ts and src/common/validation. */
const MAX_ADDRESS_LIST = 500;
const MAX_TOKENS = 100;
const MAX_RPC_URLS = 20;
const MAX_URL_LENGTH = 2048;
/** MySQL's TEXT: what every value below must outgrow to prove anything. */
const MYSQL_TEXT_BYTES = 65_535;

/** Distinct base58 addresses of the longest valid length (44 characters). */
function addresses(count: number): string[] {
  const made = new Set<string>();
  while (made.size < count) {
    made.add(Array.from({ length: 44 }, () => BASE58_ALPHABET[randomInt(BASE58_ALPHABET.length)]).join(''));
  }
  return [...made];
}

/** A Solana policy with every list at its maximum and every other field set. */
function maximalSolanaPolicies(): Record<string, unknown> {
  return {
    allowed_accounts: addresses(MAX_ADDRESS_LIST),
    allowed_programs: addresses(MAX_ADDRESS_LIST),
    allowed_tokens: addresses(MAX_TOKENS).map((mint, i) => ({
      mint,
      decimals: 9,
      symbol: `T${String(i).padStart(31, '0')}`,
      max_allowed_fee: 9007199254740991,
      swap_config: {
        slippage_percentage: 1.5,
        min_amount: 1000,
        max_amount: 9007199254740991,
        retain_min_amount: 500,
      },
    })),
    fee_margin_percentage: 12.5,
    fee_payment_strategy: 'relayer',
    max_allowed_fee_lamports: 9007199254740991,
    max_signatures: 2147483647,
    max_tx_data_size: 1232,
    min_balance: 9007199254740991,
    swap_config: {
      strategy: 'jupiter-swap',
      cron_schedule: `0 */5 * * * ${'*'.repeat(88)}`,
      min_balance_threshold: 9007199254740991,
      jupiter_swap_options: {
        priority_fee_max_lamports: 9007199254740991,
        priority_level: 'veryHigh',
        dynamic_compute_unit_limit: true,
      },
    },
  };
}

/**
 * 20 URLs of the longest valid length whose masked form (docs/reference/relayers.md#4-policies-and-rpc-urls: the last path segment
 * hidden) is still almost 2 KiB, so that what the API shows proves what was stored. The last
 * segment is a credential.
 */
function maximalRpcUrls(): Array<{ url: string; weight: number }> {
  return Array.from({ length: MAX_RPC_URLS }, (_, i) => {
    const host = `https://rpc${i}.example.com/`;
    const key = secrets.add(`key${randomBytes(12).toString('hex')}`);
    const long = 'p'.repeat(MAX_URL_LENGTH - host.length - key.length - 1);
    return { url: `${host}${long}/${key}`, weight: i };
  });
}

const masked = (rpcs: Array<{ url: string; weight: number }>) =>
  rpcs.map(({ url, weight }) => ({ url: `${url.slice(0, url.lastIndexOf('/'))}/***`, weight }));

describe('whole resources on every database (docs/reference/hardening.md)', () => {
  const { receiver, handle, app } = useWebhookApp({
    WEBHOOK_RETRY_BASE_MS: '40',
    WEBHOOK_TIMEOUT_MS: '30000',
  });

  it('a Solana relayer with every list at its maximum and 20 RPC URLs of 2 KiB: stored, read back, patched, audited and delivered whole', async () => {
    const hook = uid('whole');
    await app()
      .post('/api/v1/notifications', { id: hook, url: receiver.url('/whole') })
      .expect(201);
    const policies = maximalSolanaPolicies();
    const rpcs = maximalRpcUrls();
    expect(JSON.stringify(policies).length).toBeGreaterThan(MYSQL_TEXT_BYTES);
    const id = uid('whole');

    const created = await app().post(
      '/api/v1/relayers',
      relayerBody('solana', { id, name: 'maximal', notification_id: hook, custom_rpc_urls: rpcs, policies }),
    );
    expect(created.status).toBe(201);
    const createdData = created.body.data as Record<string, unknown>;
    expect({ policies: createdData.policies, custom_rpc_urls: createdData.custom_rpc_urls }).toEqual({
      policies,
      custom_rpc_urls: masked(rpcs),
    });
    const read = await app().get(`/api/v1/relayers/${id}`);
    expect({ status: read.status, body: read.body as unknown }).toEqual({
      status: 200,
      body: successBody(createdData),
    });

    // A new maximal list, and the URLs sent back as GET showed them, in another order.
    const programs = addresses(MAX_ADDRESS_LIST);
    const patched = await app().patch(`/api/v1/relayers/${id}`, {
      name: 'maximal, patched',
      custom_rpc_urls: masked(rpcs).reverse(),
      policies: { allowed_programs: programs },
    });
    expect(patched.status).toBe(200);
    const patchedData = patched.body.data as Record<string, unknown>;
    expect({ policies: patchedData.policies, custom_rpc_urls: patchedData.custom_rpc_urls }).toEqual({
      policies: { ...policies, allowed_programs: programs },
      custom_rpc_urls: masked(rpcs).reverse(),
    });
    const reread = await app().get(`/api/v1/relayers/${id}`);
    expect({ status: reread.status, body: reread.body as unknown }).toEqual({
      status: 200,
      body: successBody(patchedData),
    });

    const audit = await app().get(`/api/v1/audit?resource_type=relayer&resource_id=${id}`);
    expect(audit.status).toBe(200);
    const records = (audit.body as { data: Array<Record<string, unknown>> }).data;
    expect(records.map((r) => [r.action, r.before, r.after])).toEqual([
      ['relayer.update', createdData, patchedData],
      ['relayer.create', null, createdData],
    ]);

    const delivered = await receiver.waitFor('/whole', 2);
    expect(delivered.map((r) => r.json.payload)).toEqual([
      { payload_type: 'relayer_created', relayer: createdData },
      {
        payload_type: 'relayer_updated',
        relayer: patchedData,
        changed: ['custom_rpc_urls', 'name', 'policies'],
      },
    ]);
    expect(delivered.every((r) => r.body.length > MYSQL_TEXT_BYTES)).toBe(true);
  });

  it('the migrated schema has the column types the entities declare: documents are MEDIUMTEXT on MySQL, TEXT on SQLite', async () => {
    const dataSource = handle.current.app.get(DataSource);
    // One plain catalogue query rather than TypeORM's getTables, whose INFORMATION_SCHEMA joins over
    // key and constraint tables are the kind of query MariaDB 10.11 once crashed on (signal 11) here.
    const rows = await dataSource.query<Array<{ t: string; c: string; d: string }>>(
      TEST_DB === 'mysql'
        ? 'SELECT TABLE_NAME AS t, COLUMN_NAME AS c, DATA_TYPE AS d FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE()'
        : "SELECT m.name AS t, p.name AS c, p.type AS d FROM sqlite_master m, pragma_table_info(m.name) p WHERE m.type = 'table'",
    );
    const typeOf = new Map(rows.map((r) => [`${r.t}.${r.c}`, r.d.toLowerCase().replace(/\(.*\)$/, '')]));
    const declared: string[] = [];
    const migrated: string[] = [];
    const tables = new Set(rows.map((r) => r.t));
    // The entities of tables the migrations made. Nest's forFeature keeps the entities it was given
    // for the rest of the jest file, so an extension's entity registered by another spec of this
    // group (test/api/extension: ext_notes, whose migration only its own app runs) is declared here
    // too, without its table; a column of the service's missing from its table still shows.
    for (const entity of dataSource.entityMetadatas.filter((e) => tables.has(e.tableName))) {
      for (const column of entity.columns) {
        const name = `${entity.tableName}.${column.databaseName}`;
        declared.push(`${name} ${dataSource.driver.normalizeType(column)}`);
        migrated.push(`${name} ${typeOf.get(name) ?? 'missing'}`);
      }
    }
    expect(migrated).toEqual(declared);
    const documentType = TEST_DB === 'mysql' ? 'mediumtext' : 'text';
    expect(
      [
        'relayers.policies',
        'relayers.custom_rpc_urls',
        'relayers.disabled_reason',
        'audit_events.before',
        'audit_events.after',
        'webhook_events.body',
        'network_rpc_urls.rpc_urls',
        'idempotency_keys.response_body',
      ].filter((column) => !migrated.includes(`${column} ${documentType}`)),
    ).toEqual([]);
  });
});
