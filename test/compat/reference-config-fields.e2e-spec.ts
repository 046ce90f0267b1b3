import fs from 'node:fs';
import path from 'node:path';
import { Checker, FIXTURES, readJson, type Json } from '../support/reference-fields';
import { startTestApp, type TestApp } from '../support/test-app';
import { createTestDatabase, type TestDatabase } from '../support/test-database';

/**
 * The reference system's own configuration files (test/fixtures/openzeppelin-relayer, copied unchanged
 * from its v1.8.0 tag) against fields.json, the list of every field its file format accepts
 * (docs/reference/config-file.md, "Fields of the reference system's file"). Two things are proved:
 * the list is complete against every file the reference system publishes, and what GET /api/v1/config
 * exports stays inside that list (docs/reference/config-file.md#4-fields-of-the-reference-systems-file).
 */

function filesUnder(folder: string): string[] {
  return fs
    .readdirSync(folder, { recursive: true, encoding: 'utf8' })
    .map((name) => path.join(folder, name))
    .filter((file) => file.endsWith('.json') && fs.statSync(file).isFile())
    .map((file) => path.relative(FIXTURES, file))
    .sort();
}

const CONFIG_FILES = filesUnder(FIXTURES).filter(
  (file) => path.basename(file) !== 'fields.json' && /(^|\/)config\/config(\.example)?\.json$/.test(file),
);
const NETWORK_FILES = filesUnder(FIXTURES).filter((file) => file.includes('/networks/'));

describe("The reference system's own files against the field list (docs/reference/config-file.md#4-fields-of-the-reference-systems-file)", () => {
  it('holds its 32 configuration files and 19 network files, as published', () => {
    expect(CONFIG_FILES).toHaveLength(32);
    expect(CONFIG_FILES[0]).toBe('config/config.example.json');
    expect(NETWORK_FILES).toHaveLength(19);
  });

  it.each(CONFIG_FILES)('%s uses only fields of the list, with every required one', (file) => {
    const checker = new Checker();
    checker.configFile(readJson(path.join(FIXTURES, file)));
    expect(checker.problems).toEqual([]);
  });

  it.each(NETWORK_FILES)('%s uses only network fields of the list', (file) => {
    const checker = new Checker();
    checker.networkFile('', readJson(path.join(FIXTURES, file)));
    expect(checker.problems).toEqual([]);
  });

  it('tells a field outside the list (the check can fail)', () => {
    const checker = new Checker();
    checker.configFile({
      _comment: 'x',
      networks: [
        { type: 'evm', network: 'n', rpc_urls: [{ url: { type: 'env', value: 'N_RPC_URL_0' }, weight: 5 }] },
      ],
      relayers: [
        {
          id: 'r',
          name: 'r',
          network: 'n',
          network_type: 'evm',
          paused: false,
          signer_id: 's',
          address: '0x1',
        },
      ],
      signers: [{ id: 's', type: 'plain', config: { key: '0x' } }],
      notifications: [],
    });
    expect(checker.problems).toEqual([
      '._comment: not a field of the reference system',
      'networks[0].rpc_urls[0]: an environment reference, not an RPC URL of the reference system',
      'signers[0].type: "plain" is not a signer type of the reference system',
      'relayers[0].address: not a field of the reference system',
    ]);
  });
});

describe('GET /api/v1/config against the field list (docs/reference/config-file.md#32-no-secret-is-exported)', () => {
  let database: TestDatabase;
  let app: TestApp;

  beforeAll(async () => {
    database = await createTestDatabase();
    app = await startTestApp({
      DATABASE_URL: database.url,
      CONFIG_FILE: path.resolve(__dirname, '../fixtures/config.json'),
    });
    // A notification and a relayer made through the API, so the export has every section.
    await app
      .post('/api/v1/notifications', {
        id: 'export-hook',
        type: 'webhook',
        url: 'https://hooks.example.com/relayer',
        signing_key: 'export-hook-signing-key-0123456789abcdef',
      })
      .expect(201);
    await app
      .post('/api/v1/relayers', {
        id: 'export-relayer',
        name: 'Export relayer',
        network: 'sepolia',
        network_type: 'evm',
        signer_id: 'key-one',
        paused: true,
        notification_id: 'export-hook',
        policies: {
          min_balance: '1000000000000000000',
          gas_limit_estimation: true,
          include_revert_data: false,
        },
        custom_rpc_urls: [{ url: 'https://rpc-a.example.com/', weight: 40 }],
      })
      .expect(201);
  });

  afterAll(async () => {
    await app?.close();
    await database?.drop();
  });

  it('exports only fields of the reference system but the forms of 19.3: `plain` signers, RPC URLs and target URLs as environment references', async () => {
    const res = await app.get('/api/v1/config').expect(200);
    const data = (res.body as { data: Json }).data;
    const checker = new Checker();
    checker.configFile(data);
    // The fixture's networks have URLs with a path (masked in answers), so each is exported as an env
    // reference; the relayer's URL has none and is exported whole. The target's URL has a path, so it
    // is one too (docs/reference/config-file.md#32-no-secret-is-exported). Nothing else leaves the lists.
    expect(checker.problems).toEqual([
      'networks[0].rpc_urls[0]: an environment reference, not an RPC URL of the reference system',
      'networks[1].rpc_urls[0]: an environment reference, not an RPC URL of the reference system',
      'networks[2].rpc_urls[0]: an environment reference, not an RPC URL of the reference system',
      'signers[0].type: "plain" is not a signer type of the reference system',
      'notifications[0].url: an environment reference, not a URL of the reference system',
    ]);
    const signers = data.signers as Json[];
    expect(signers.map((signer) => signer.type)).toEqual(['plain']);
    expect(Object.keys(data).sort()).toEqual(['networks', 'notifications', 'relayers', 'signers']);
    expect((data.relayers as Json[]).map((relayer) => relayer.id)).toEqual(['export-relayer']);
    expect((data.notifications as Json[]).map((notification) => notification.id)).toEqual(['export-hook']);
  });
});
