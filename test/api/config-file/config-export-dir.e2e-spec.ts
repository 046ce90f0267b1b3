import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { decryptKeystoreJson } from 'ethers';
import { secrets } from '../../support/secrets';
import { startTestApp, type Env, type TestApp } from '../../support/test-app';
import { KEY1 } from '../../support/test-catalogue';
import { createTestDatabase, type TestDatabase } from '../../support/test-database';

type Json = Record<string, unknown>;

/** The reference system's layout (config/config.json, config/networks/*.json) of the other config-file suite. */
const FIXTURE = path.resolve(__dirname, '../../fixtures/reference-config');
const CONFIG_COMMAND = path.resolve(__dirname, '../../../scripts/config.mjs');
const KEYSTORE_TOOL = path.resolve(__dirname, '../../../scripts/create-keystore.mjs');

const HOOK_KEY = secrets.add(`hook-${randomBytes(16).toString('hex')}`);
const SOURCE_PASSPHRASE = secrets.add(`source-${randomBytes(12).toString('hex')}`);
const API_KEY_HEX = secrets.add(randomBytes(31).toString('hex').padStart(64, '0'));
const STORAGE_ENCRYPTION_KEY = secrets.add(randomBytes(32).toString('base64'));
const ROUTING_KEY = secrets.add(randomBytes(16).toString('hex'));
/** The passphrases the export encrypts the keystores with, one variable per key-holding signer. */
const PASSPHRASES = {
  SIGNER_FIXTURE_SIGNER_PASSPHRASE: secrets.add(`p1-${randomBytes(12).toString('hex')}`),
  SIGNER_FILE_LOCAL_PASSPHRASE: secrets.add(`p2-${randomBytes(12).toString('hex')}`),
  SIGNER_API_SIGNER_PASSPHRASE: secrets.add(`p3-${randomBytes(12).toString('hex')}`),
};

/** Starts the service with the working directory set to `cwd` (paths of the file are found from there). */
async function startIn(cwd: string, env: Env): Promise<TestApp> {
  const before = process.cwd();
  process.chdir(cwd);
  try {
    return await startTestApp(env);
  } finally {
    process.chdir(before);
  }
}

const lists = async (target: TestApp): Promise<Json> => {
  const out: Json = {};
  for (const resource of ['relayers', 'notifications', 'signers', 'networks', 'alert-channels']) {
    const res = await target.get(`/api/v1/${resource}?per_page=100`).expect(200);
    out[resource] = (res.body as { data: Json[] }).data
      .map(({ created_at: _c, updated_at: _u, ...rest }) => rest)
      .sort((a, b) => String(a.id).localeCompare(String(b.id)));
  }
  return out;
};

describe('npm run config -- export <dir>: back to the reference system (19.4)', () => {
  let database: TestDatabase;
  let fresh: TestDatabase;
  let root: string;
  let app: TestApp;
  let env: Env;

  beforeAll(async () => {
    database = await createTestDatabase();
    fresh = await createTestDatabase();
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'export-source-'));
    fs.cpSync(FIXTURE, root, { recursive: true });
    // A local signer of the file: a keystore made by the project's tool.
    const made = spawnSync(
      process.execPath,
      [KEYSTORE_TOOL, '--out', 'config/keys/file-local.json', '--scrypt-n', '1024'],
      {
        cwd: root,
        env: { PATH: process.env.PATH, INIT_CWD: root, KEYSTORE_PASSPHRASE: SOURCE_PASSPHRASE },
        encoding: 'utf8',
      },
    );
    expect(made.status).toBe(0);
    const file = path.join(root, 'config', 'config.json');
    const config = JSON.parse(fs.readFileSync(file, 'utf8')) as Json;
    fs.writeFileSync(
      file,
      JSON.stringify({
        ...config,
        signers: [
          ...(config.signers as Json[]),
          {
            id: 'file-local',
            type: 'local',
            config: {
              path: 'config/keys/file-local.json',
              passphrase: { type: 'env', value: 'SOURCE_PASSPHRASE' },
            },
          },
        ],
      }),
    );
    env = {
      DATABASE_URL: database.url,
      CONFIG_FILE: file,
      STORAGE_ENCRYPTION_KEY,
      FIXTURE_SIGNER_KEY: KEY1.hex,
      FIXTURE_HOOK_SIGNING_KEY: HOOK_KEY,
      SOURCE_PASSPHRASE,
    };
    app = await startIn(root, env);
    await app
      .post('/api/v1/signers', { id: 'api-signer', type: 'plain', config: { key: API_KEY_HEX } })
      .expect(201);
    await app
      .post('/api/v1/notifications', {
        id: 'api-hook',
        type: 'webhook',
        url: 'https://hooks.example.com/api',
      })
      .expect(201);
    await app
      .post('/api/v1/relayers', {
        id: 'api-relayer',
        name: 'API relayer',
        network: 'hollow-test',
        network_type: 'evm',
        signer_id: 'file-local',
        notification_id: 'api-hook',
        paused: false,
      })
      .expect(201);
    await app
      .post('/api/v1/alert-channels', {
        id: 'api-pd',
        type: 'pagerduty',
        config: { routing_key: ROUTING_KEY },
        relayer_ids: ['api-relayer'],
      })
      .expect(201);
  });
  afterAll(async () => {
    await app?.close();
    await database.drop();
    await fresh.drop();
    if (app) expect(secrets.foundIn(app.logText())).toEqual([]);
  });

  const runExport = (dir: string, extra: Env, options: string[] = []) => {
    const result = spawnSync(process.execPath, [CONFIG_COMMAND, 'export', dir, ...options], {
      cwd: root,
      env: { ...process.env, ...env, NODE_ENV: 'test', LOG_LEVEL: 'silent', INIT_CWD: root, ...extra },
      encoding: 'utf8',
    });
    return { status: result.status, stdout: result.stdout, stderr: result.stderr };
  };

  it('refuses, naming the variable, when a passphrase is unset: exit 1, nothing written', () => {
    const dir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'export-refused-')), 'config');
    const { SIGNER_API_SIGNER_PASSPHRASE: _unset, ...others } = PASSPHRASES;
    expect(runExport(dir, others)).toEqual({
      status: 1,
      stdout: '',
      stderr:
        'set SIGNER_API_SIGNER_PASSPHRASE: the passphrase of the exported keystores (nothing written)\n',
    });
    expect(fs.existsSync(dir)).toBe(false);
  });

  it('refuses a scrypt cost that is not a power of two from 1024 to 1048576: exit 1, nothing written', () => {
    const dir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'export-refused-')), 'config');
    expect(runExport(dir, PASSPHRASES, ['--scrypt-n', '1000'])).toEqual({
      status: 1,
      stdout: '',
      stderr:
        '--scrypt-n must be a power of two from 1024 to 1048576\n' +
        'usage: npm run config -- check|plan [--online] [file] | export <dir> [--scrypt-n <N>]\n',
    });
    expect(fs.existsSync(dir)).toBe(false);
  });

  it('writes config.json, networks/ and a keystore per key-holding signer; the reference layout starts the same state', async () => {
    const parent = fs.mkdtempSync(path.join(os.tmpdir(), 'export-target-'));
    const dir = path.join(parent, 'config');
    // Throwaway keys: scrypt's cost lowered (the default is 2^17), as the keystores say.
    const run = runExport(dir, PASSPHRASES, ['--scrypt-n', '1024']);
    expect(run).toEqual({ status: 0, stdout: `${dir}: 6 files written\n`, stderr: '' });
    expect(fs.readdirSync(dir).sort()).toEqual(['config.json', 'keys', 'networks']);
    expect((fs.statSync(path.join(dir, 'config.json')).mode & 0o777).toString(8)).toBe('600');
    expect(fs.readdirSync(path.join(dir, 'keys')).sort()).toEqual([
      'api-signer.json',
      'file-local.json',
      'fixture-signer.json',
    ]);

    const written = JSON.parse(fs.readFileSync(path.join(dir, 'config.json'), 'utf8')) as Json;
    const inApi = (await app.get('/api/v1/config').expect(200)).body as { data: Json };
    const local = (id: string, variable: string) => ({
      id,
      type: 'local',
      config: { path: `config/keys/${id}.json`, passphrase: { type: 'env', value: variable } },
    });
    // Target URLs whole, as GET /notifications answers them to the administrator: the HTTP export
    // gives a URL beyond `/` as NOTIFICATION_<ID>_URL (docs/reference/notifications.md#16-who-sees-a-targets-url), this one is the operator's, 0600.
    const targets = (await app.get('/api/v1/notifications?per_page=100').expect(200)).body as {
      data: Array<{ id: string; url: string }>;
    };
    const urls = new Map(targets.data.map(({ id, url }) => [id, url]));
    expect((inApi.data.notifications as Json[]).map(({ url }) => url)).toEqual([
      { type: 'env', value: 'NOTIFICATION_FIXTURE_HOOK_URL' },
      { type: 'env', value: 'NOTIFICATION_API_HOOK_URL' },
    ]);
    expect(written).toEqual({
      ...inApi.data,
      notifications: (inApi.data.notifications as Json[]).map((target) => ({
        ...target,
        url: urls.get(String(target.id)),
      })),
      networks: './config/networks',
      signers: [
        local('fixture-signer', 'SIGNER_FIXTURE_SIGNER_PASSPHRASE'),
        local('file-local', 'SIGNER_FILE_LOCAL_PASSPHRASE'),
        local('api-signer', 'SIGNER_API_SIGNER_PASSPHRASE'),
      ],
      plugins: [],
    });
    // The reference system does not read alert channels: their secrets stay environment references.
    expect(written.alert_channels).toEqual([
      {
        id: 'api-pd',
        type: 'pagerduty',
        config: { routing_key: { type: 'env', value: 'ALERT_CHANNEL_API_PD_ROUTING_KEY' } },
        events: ['relayer_state_update', 'relayer_low_balance', 'relayer_balance_restored'],
        relayer_ids: ['api-relayer'],
      },
    ]);
    const networks = inApi.data.networks as Json[];
    expect(fs.readdirSync(path.join(dir, 'networks')).sort()).toEqual(['evm.json', 'stellar.json']);
    for (const type of ['evm', 'stellar']) {
      expect(JSON.parse(fs.readFileSync(path.join(dir, 'networks', `${type}.json`), 'utf8'))).toEqual({
        networks: networks.filter((network) => network.type === type),
      });
    }

    const signers = (await app.get('/api/v1/signers?per_page=100').expect(200)).body as {
      data: Array<{ id: string; addresses: { evm: string } }>;
    };
    expect(signers.data.map(({ id }) => id)).toEqual(['fixture-signer', 'file-local', 'api-signer']);
    expect(signers.data[0].addresses.evm).toBe(KEY1.evm);
    const variables: Record<string, string> = {
      'fixture-signer': PASSPHRASES.SIGNER_FIXTURE_SIGNER_PASSPHRASE,
      'file-local': PASSPHRASES.SIGNER_FILE_LOCAL_PASSPHRASE,
      'api-signer': PASSPHRASES.SIGNER_API_SIGNER_PASSPHRASE,
    };
    for (const { id, addresses } of signers.data) {
      const keystore = fs.readFileSync(path.join(dir, 'keys', `${id}.json`), 'utf8');
      expect((fs.statSync(path.join(dir, 'keys', `${id}.json`)).mode & 0o777).toString(8)).toBe('600');
      expect((JSON.parse(keystore) as { Crypto: { kdfparams: Json } }).Crypto.kdfparams.n).toBe(1024);
      const account = await decryptKeystoreJson(keystore, variables[id]);
      expect(account.address).toBe(addresses.evm);
    }
    expect(run.stdout + run.stderr).not.toContain(API_KEY_HEX);

    // The reference system's container layout: a working directory holding config/ (the export).
    const before = await lists(app);
    const copy = await startIn(parent, {
      DATABASE_URL: fresh.url,
      CONFIG_FILE: path.join(dir, 'config.json'),
      NOTIFICATION_FIXTURE_HOOK_SIGNING_KEY: HOOK_KEY,
      ALERT_CHANNEL_API_PD_ROUTING_KEY: ROUTING_KEY,
      ...PASSPHRASES,
    });
    try {
      expect(await lists(copy)).toEqual(before);
      expect((before.relayers as Json[]).map(({ id }) => id)).toEqual(['api-relayer', 'fixture-relayer']);
    } finally {
      await copy.close();
    }
  });
});
