import { execFile, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { successBody } from '../../support/envelope';
import { secrets } from '../../support/secrets';
import { createApp } from '../../../src/bootstrap';
import { loadConfig } from '../../../src/config/app-config';
import { newApiKey, startTestApp, type Env, type TestApp } from '../../support/test-app';
import { KEY1 } from '../../support/test-catalogue';
import { Secp256k1TestKey, VaultFake } from '../../support/key-service-fakes';
import { createTestDatabase, type TestDatabase } from '../../support/test-database';
import { verifySignatures, WebhookReceiver } from '../../support/webhook-receiver';
import { createKey, ISO, signerKey } from '../../factories';
import { JsonRpcServer } from '../../support/json-rpc-server';
import { TEST_DB } from '../../support/test-database';

type Json = Record<string, unknown>;

/** The fixture in the reference system's layout: config/config.json and config/networks/*.json. */
const FIXTURE = path.resolve(__dirname, '../../fixtures/reference-config');
const HOOK_KEY = secrets.add('fixture-hook-signing-key-0123456789abcdef');

/** A copy of the fixture folder in a temporary folder, config.json replaced by `config` when given. */
function layout(config?: Json): { root: string; file: string } {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'reference-config-'));
  fs.cpSync(FIXTURE, root, { recursive: true });
  const file = path.join(root, 'config', 'config.json');
  if (config) fs.writeFileSync(file, JSON.stringify(config));
  return { root, file };
}

function fixtureConfig(): Json {
  return JSON.parse(fs.readFileSync(path.join(FIXTURE, 'config', 'config.json'), 'utf8')) as Json;
}

/** Starts the service with the working directory set to `cwd` for the start (the folder is looked up from there). */
async function startIn(cwd: string, env: Env): Promise<TestApp> {
  const before = process.cwd();
  process.chdir(cwd);
  try {
    return await startTestApp(env);
  } finally {
    process.chdir(before);
  }
}

/** The message a start fails with; the half-started app is closed (its database pool and loops too). */
async function startError(cwd: string, env: Env): Promise<string> {
  const before = process.cwd();
  process.chdir(cwd);
  const config = loadConfig({
    NODE_ENV: 'test',
    API_KEY: newApiKey(),
    LOG_LEVEL: 'silent',
    RELAYER_HEALTH_CHECKS: 'false',
    DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'relayer-data-')),
    ...env,
  });
  let app: Awaited<ReturnType<typeof createApp>> | null = null;
  try {
    app = await createApp(config);
    await app.init();
    return 'started';
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  } finally {
    process.chdir(before);
    await app?.close();
  }
}

const CONFIG_COMMAND = path.resolve(__dirname, '../../../scripts/config.mjs');
const SECRETS_ENV = { FIXTURE_SIGNER_KEY: KEY1.hex, FIXTURE_HOOK_SIGNING_KEY: HOOK_KEY };

describe('the reference system config.json: networks folder, inheritance, extra fields', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database.drop());

  it('starts on "networks": "./config/networks" from the folder above config/, resolving from[] over two levels', async () => {
    const { root, file } = layout();
    const app = await startIn(root, { DATABASE_URL: database.url, CONFIG_FILE: file, ...SECRETS_ENV });
    try {
      const dev = await app.get('/api/v1/networks/evm:hollow-dev').expect(200);
      expect(dev.body).toEqual(
        successBody({
          id: 'evm:hollow-dev',
          name: 'hollow-dev',
          network_type: 'evm',
          rpc_urls: [{ url: 'https://rpc.hollow.example/', weight: 100 }],
          is_testnet: true,
          chain_id: 424244,
          symbol: 'HLW',
          explorer_urls: ['https://scan.hollow.example'],
          average_blocktime_ms: 6000,
          required_confirmations: 8,
          features: ['eip1559', 'blobs'],
          tags: ['main', 'test'],
          gas_price_cache: { enabled: true, stale_after_ms: 15000, expire_after_ms: 40000 },
        }),
      );
      const stellar = await app.get('/api/v1/networks/stellar:lumen-test').expect(200);
      expect(stellar.body).toEqual(
        successBody({
          id: 'stellar:lumen-test',
          name: 'lumen-test',
          network_type: 'stellar',
          rpc_urls: [{ url: 'https://rpc.lumen.example/', weight: 100 }],
          is_testnet: true,
          passphrase: 'Lumen Test Ledger ; 2026',
          horizon_url: 'https://horizon.lumen.example',
        }),
      );
    } finally {
      await app.close();
    }
  });

  it('finds a folder beside the file when the working directory has none, and CONFIG_DIR/CONFIG_FILE_NAME name the file', async () => {
    const { root } = layout({ ...fixtureConfig(), networks: 'networks' });
    fs.renameSync(path.join(root, 'config', 'config.json'), path.join(root, 'config', 'relayer.json'));
    const app = await startIn(os.tmpdir(), {
      DATABASE_URL: database.url,
      CONFIG_FILE: undefined,
      CONFIG_DIR: path.join(root, 'config'),
      CONFIG_FILE_NAME: 'relayer.json',
      ...SECRETS_ENV,
    });
    try {
      const list = await app.get('/api/v1/networks?per_page=100').expect(200);
      expect((list.body as { data: { id: string }[] }).data.map((n) => n.id)).toEqual([
        'evm:hollow-main',
        'evm:hollow-test',
        'evm:hollow-dev',
        'stellar:lumen-test',
      ]);
    } finally {
      await app.close();
    }
  });

  it('uses ./config/networks when networks is absent, and stops naming networks when that folder is missing', async () => {
    const withoutNetworks = fixtureConfig();
    delete withoutNetworks.networks;
    const { root, file } = layout(withoutNetworks);
    const app = await startIn(root, { DATABASE_URL: database.url, CONFIG_FILE: file, ...SECRETS_ENV });
    await app.get('/api/v1/networks/evm:hollow-main').expect(200);
    await app.close();

    fs.rmSync(path.join(root, 'config', 'networks'), { recursive: true });
    expect(await startError(root, { DATABASE_URL: database.url, CONFIG_FILE: file, ...SECRETS_ENV })).toBe(
      `CONFIG_FILE ${file}: networks must be an array of networks or the path of a folder of network files ` +
        `(it is absent and the default folder ${path.join(root, 'config', 'networks')} does not exist)`,
    );
  });

  it.each([
    [
      'a missing parent',
      { from: 'nowhere', type: 'evm', network: 'orphan', chain_id: 9 },
      "network 'orphan' (evm): from 'nowhere' names no network of the catalogue",
    ],
    [
      'a parent of another type',
      { from: 'lumen-test', type: 'evm', network: 'mixed', chain_id: 9 },
      "network 'mixed' (evm): from 'lumen-test' names a network of another type (stellar)",
    ],
    [
      'a key the reference system does not know',
      { from: 'hollow-main', type: 'evm', network: 'extra', chain_id: 9, gas_limit: 5 },
      `network 'extra' (evm): unknown key "gas_limit"`,
    ],
  ])('stops the start naming the network for %s', async (_case, network, problem) => {
    const { root, file } = layout();
    const extra = path.join(root, 'config', 'networks', 'z-extra.json');
    fs.writeFileSync(extra, JSON.stringify({ networks: [network] }));
    expect(await startError(root, { DATABASE_URL: database.url, CONFIG_FILE: file, ...SECRETS_ENV })).toBe(
      `CONFIG_FILE ${file}: network file ${extra}: ${problem}`,
    );
  });

  it('stops the start naming the network of a cycle', async () => {
    const { root, file } = layout();
    const extra = path.join(root, 'config', 'networks', 'z-cycle.json');
    fs.writeFileSync(
      extra,
      JSON.stringify({
        networks: [
          { from: 'loop-b', type: 'evm', network: 'loop-a', chain_id: 7 },
          { from: 'loop-a', type: 'evm', network: 'loop-b', chain_id: 8 },
        ],
      }),
    );
    expect(await startError(root, { DATABASE_URL: database.url, CONFIG_FILE: file, ...SECRETS_ENV })).toBe(
      `CONFIG_FILE ${file}: network file ${extra}: network 'loop-b' (evm): from 'loop-a' makes a cycle (loop-a -> loop-b -> loop-a)`,
    );
  });

  it('stops the start naming an unknown top-level key, logs that plugins are not run and exports them as they were', async () => {
    const { root, file } = layout({ ...fixtureConfig(), server: { port: 8080 } });
    expect(await startError(root, { DATABASE_URL: database.url, CONFIG_FILE: file, ...SECRETS_ENV })).toBe(
      `CONFIG_FILE ${file}: unknown top-level key "server" (expected networks, signers, relayers, notifications, alert_channels or plugins)`,
    );
    const plugins = [
      { id: 'p1', path: 'p1.ts' },
      { id: 'p2', path: 'plugins/p2.ts', timeout: 30, emit_logs: true, config: { featureFlag: true } },
    ];
    const withPlugin = layout({ ...fixtureConfig(), plugins });
    const app = await startIn(withPlugin.root, {
      DATABASE_URL: database.url,
      CONFIG_FILE: withPlugin.file,
      ...SECRETS_ENV,
    });
    try {
      expect(await app.waitForLog(/this service does not run plugins/)).toHaveLength(1);
      const exported = await app.get('/api/v1/config').expect(200);
      expect((exported.body as { data: Json }).data.plugins).toEqual(plugins);
    } finally {
      await app.close();
    }
  });

  it('stops the start naming a missing environment variable and a masked URL, never printing a value', async () => {
    const { root, file } = layout();
    expect(
      await startError(root, { DATABASE_URL: database.url, CONFIG_FILE: file, FIXTURE_SIGNER_KEY: KEY1.hex }),
    ).toBe(
      `CONFIG_FILE ${file}: notifications[0]: signing_key: environment variable FIXTURE_HOOK_SIGNING_KEY is not set`,
    );
    const config = fixtureConfig();
    const [relayer] = config.relayers as Json[];
    const masked = layout({
      ...config,
      relayers: [{ ...relayer, custom_rpc_urls: ['https://rpc.hollow.example/***'] }],
    });
    expect(
      await startError(masked.root, { DATABASE_URL: database.url, CONFIG_FILE: masked.file, ...SECRETS_ENV }),
    ).toBe(
      `CONFIG_FILE ${masked.file}: relayers[0]: custom_rpc_urls[0] is a masked URL (*** hides a secret that is not in the file)`,
    );
  });
  it('reads an RPC URL from an environment variable wherever one may stand, and stops naming an unset one or a masked URL', async () => {
    const config = fixtureConfig();
    const [relayer] = config.relayers as Json[];
    const networkKey = secrets.add(randomBytes(16).toString('hex'));
    const relayerKey = secrets.add(randomBytes(16).toString('hex'));
    const network = {
      type: 'evm',
      network: 'hollow-test',
      chain_id: 424243,
      rpc_urls: [
        { type: 'env', value: 'HAND_NETWORK_RPC' },
        { url: { type: 'env', value: 'HAND_NETWORK_RPC_W' }, weight: 25 },
        'https://rpc.hollow.example/',
      ],
    };
    const { root, file } = layout({
      ...config,
      networks: [network],
      relayers: [
        {
          ...relayer,
          custom_rpc_urls: [
            { type: 'env', value: 'HAND_RELAYER_RPC' },
            { url: { type: 'env', value: 'HAND_RELAYER_RPC_W' }, weight: 40 },
          ],
        },
      ],
    });
    // A database of its own: the relayer is created here, not updated (updatesOf reads every start's log).
    const own = await createTestDatabase();
    const env = {
      DATABASE_URL: own.url,
      CONFIG_FILE: file,
      ...SECRETS_ENV,
      HAND_NETWORK_RPC: `https://eth.hand.example/v2/${networkKey}`,
      HAND_NETWORK_RPC_W: 'https://1rpc.io/sepolia',
      HAND_RELAYER_RPC: `https://eth.hand.example/relayer?key=${relayerKey}`,
      HAND_RELAYER_RPC_W: 'https://rpc-b.hollow.example/',
    };
    const app = await startIn(root, env);
    try {
      const served = await app.get('/api/v1/networks/evm:hollow-test').expect(200);
      expect(served.body).toEqual(
        successBody({
          id: 'evm:hollow-test',
          name: 'hollow-test',
          network_type: 'evm',
          rpc_urls: [
            { url: 'https://eth.hand.example/v2/***', weight: 100 },
            { url: 'https://1rpc.io/***', weight: 25 },
            { url: 'https://rpc.hollow.example/', weight: 100 },
          ],
          is_testnet: false,
          chain_id: 424243,
        }),
      );
      const created = await app.get('/api/v1/relayers/fixture-relayer').expect(200);
      expect((created.body as { data: Json }).data.custom_rpc_urls).toEqual([
        { url: 'https://eth.hand.example/***?key=***', weight: 100 },
        { url: 'https://rpc-b.hollow.example/', weight: 40 },
      ]);
      expect(secrets.foundIn(app.logText())).toEqual([]);
    } finally {
      await app.close();
    }
    const { HAND_RELAYER_RPC_W: _unset, ...withoutRelayerUrl } = env;
    expect(await startError(root, withoutRelayerUrl)).toBe(
      `CONFIG_FILE ${file}: relayers[0]: custom_rpc_urls[1].url: environment variable HAND_RELAYER_RPC_W is not set`,
    );
    const { HAND_NETWORK_RPC: _unset2, ...withoutNetworkUrl } = env;
    expect(await startError(root, withoutNetworkUrl)).toBe(
      `CONFIG_FILE ${file}: network 'hollow-test' (evm): rpc_urls[0]: environment variable HAND_NETWORK_RPC is not set`,
    );
    expect(await startError(root, { ...env, HAND_NETWORK_RPC_W: 'not a url' })).toBe(
      `CONFIG_FILE ${file}: network 'hollow-test' (evm): rpc_urls[1] must be an http(s) URL`,
    );
    const masked = layout({ ...config, networks: [{ ...network, rpc_urls: ['https://1rpc.io/***'] }] });
    expect(await startError(masked.root, { ...env, CONFIG_FILE: masked.file })).toBe(
      `CONFIG_FILE ${masked.file}: network 'hollow-test' (evm): rpc_urls[0] is a masked URL (*** hides a secret that is not in the file)`,
    );
    await own.drop();
  });
});

describe("the reference system's pending shapes in a network file: status_check (PR #847) and env rpc_urls (PR #517)", () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database.drop());

  const STATUS_CHECK = { enabled: true, interval_seconds: 30, timeout_ms: 5000 };
  const pendingNetworks = (statusCheck: unknown = STATUS_CHECK): Json => ({
    networks: [
      {
        type: 'evm',
        network: 'pending-net',
        chain_id: 424250,
        rpc_urls: [
          { type: 'env', value: 'PENDING_RPC_URL' },
          { url: { type: 'env', value: 'PENDING_RPC_URL_W' }, weight: 30 },
          'https://rpc.pending.example/',
        ],
        status_check: statusCheck,
      },
      { from: 'pending-net', type: 'evm', network: 'pending-child', chain_id: 424251 },
    ],
  });
  /** The fixture with the pending network file beside its own; the file's path. */
  function pendingLayout(statusCheck?: unknown): { root: string; file: string; networkFile: string } {
    const { root, file } = layout();
    const networkFile = path.join(root, 'config', 'networks', 'z-pending.json');
    fs.writeFileSync(networkFile, JSON.stringify(pendingNetworks(statusCheck)));
    return { root, file, networkFile };
  }
  const pendingKey = secrets.add(randomBytes(16).toString('hex'));
  const PENDING_ENV = {
    PENDING_RPC_URL: `https://eth.pending.example/v2/${pendingKey}`,
    // Whole in answers, yet exported under its variable: the file chose to keep it out of the file.
    PENDING_RPC_URL_W: 'https://rpc-w.pending.example/',
  };
  const served = (name: string, chainId: number) =>
    successBody({
      id: `evm:${name}`,
      name,
      network_type: 'evm',
      rpc_urls: [
        { url: 'https://eth.pending.example/v2/***', weight: 100 },
        { url: 'https://rpc-w.pending.example/', weight: 30 },
        { url: 'https://rpc.pending.example/', weight: 100 },
      ],
      is_testnet: false,
      chain_id: chainId,
      status_check: STATUS_CHECK,
    });
  const exportedRpcUrls = [
    { type: 'env', value: 'PENDING_RPC_URL' },
    { url: { type: 'env', value: 'PENDING_RPC_URL_W' }, weight: 30 },
    { url: 'https://rpc.pending.example/', weight: 100 },
  ];

  it('starts on them, answers the URL read from the variable masked and the block as written, and exports both as written', async () => {
    const { root, file } = pendingLayout();
    const env = { DATABASE_URL: database.url, CONFIG_FILE: file, ...SECRETS_ENV, ...PENDING_ENV };
    const app = await startIn(root, env);
    let exported: Json[];
    try {
      expect((await app.get('/api/v1/networks/evm:pending-net').expect(200)).body).toEqual(
        served('pending-net', 424250),
      );
      // Inherited through `from` as every field is.
      expect((await app.get('/api/v1/networks/evm:pending-child').expect(200)).body).toEqual(
        served('pending-child', 424251),
      );
      const answer = await app.get('/api/v1/config').expect(200);
      const data = (answer.body as { data: Json }).data;
      expect(answer.body).toEqual(successBody(data));
      exported = (data.networks as Json[]).filter((n) => String(n.network).startsWith('pending-'));
      expect(exported).toEqual([
        {
          type: 'evm',
          network: 'pending-net',
          chain_id: 424250,
          is_testnet: false,
          status_check: STATUS_CHECK,
          rpc_urls: exportedRpcUrls,
        },
        {
          type: 'evm',
          network: 'pending-child',
          chain_id: 424251,
          is_testnet: false,
          status_check: STATUS_CHECK,
          rpc_urls: exportedRpcUrls,
        },
      ]);
      expect(secrets.foundIn(JSON.stringify(answer.body))).toEqual([]);
      expect(secrets.foundIn(app.logText())).toEqual([]);
    } finally {
      await app.close();
    }
    // The export starts a fresh instance with the same variables, which answers the same networks.
    const fresh = await createTestDatabase();
    const exportFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'exported-')), 'config.json');
    fs.writeFileSync(exportFile, JSON.stringify({ networks: exported, signers: [] }));
    const copy = await startTestApp({ DATABASE_URL: fresh.url, CONFIG_FILE: exportFile, ...PENDING_ENV });
    try {
      expect((await copy.get('/api/v1/networks/evm:pending-child').expect(200)).body).toEqual(
        served('pending-child', 424251),
      );
    } finally {
      await copy.close();
      await fresh.drop();
    }
  });

  it('keeps the variable name of a URL that a PATCH of the list kept, and names the new URLs as every export does', async () => {
    const own = await createTestDatabase();
    const { root, file } = pendingLayout();
    const app = await startIn(root, {
      DATABASE_URL: own.url,
      CONFIG_FILE: file,
      ...SECRETS_ENV,
      ...PENDING_ENV,
    });
    try {
      await app
        .patch('/api/v1/networks/evm:pending-net', {
          rpc_urls: [{ url: 'https://eth.pending.example/v2/***', weight: 10 }, 'https://1rpc.io/holesky'],
        })
        .expect(200);
      const answer = await app.get('/api/v1/config').expect(200);
      const networks = (answer.body as { data: { networks: Json[] } }).data.networks;
      expect(networks.find((n) => n.network === 'pending-net')?.rpc_urls).toEqual([
        { url: { type: 'env', value: 'PENDING_RPC_URL' }, weight: 10 },
        { type: 'env', value: 'NETWORK_EVM_PENDING_NET_RPC_URL_1' },
      ]);
    } finally {
      await app.close();
      await own.drop();
    }
  });

  it('stops the start naming a missing variable, never printing a value', async () => {
    const { root, file, networkFile } = pendingLayout();
    const { PENDING_RPC_URL_W: _unset, ...rest } = PENDING_ENV;
    expect(
      await startError(root, { DATABASE_URL: database.url, CONFIG_FILE: file, ...SECRETS_ENV, ...rest }),
    ).toBe(
      `CONFIG_FILE ${file}: network file ${networkFile}: network 'pending-net' (evm): rpc_urls[1].url: environment variable PENDING_RPC_URL_W is not set`,
    );
  });

  it.each([
    [
      'a block that is not an object',
      [30],
      'status_check must be an object of scalar values (strings, numbers, booleans)',
    ],
    [
      'a block holding an object',
      { enabled: true, retry: { seconds: 5 } },
      'status_check.retry must be a string, a number or a boolean',
    ],
  ])('stops the start naming status_check for %s', async (_case, statusCheck, problem) => {
    const { root, file, networkFile } = pendingLayout(statusCheck);
    expect(
      await startError(root, {
        DATABASE_URL: database.url,
        CONFIG_FILE: file,
        ...SECRETS_ENV,
        ...PENDING_ENV,
      }),
    ).toBe(`CONFIG_FILE ${file}: network file ${networkFile}: network 'pending-net' (evm): ${problem}`);
  });
});

const KEYSTORE_TOOL = path.resolve(__dirname, '../../../scripts/create-keystore.mjs');
const KEYSTORE_PASSPHRASE = secrets.add(`pass-${randomBytes(12).toString('hex')}`);

/** A keystore written by the project's own tool at `root/<relative>`; its address. */
function createKeystore(root: string, relative: string): string {
  const made = spawnSync(process.execPath, [KEYSTORE_TOOL, '--out', relative, '--scrypt-n', '1024'], {
    cwd: root,
    env: { PATH: process.env.PATH, INIT_CWD: root, KEYSTORE_PASSPHRASE },
    encoding: 'utf8',
  });
  expect(made.status).toBe(0);
  return /address: (0x[0-9a-fA-F]{40})/.exec(made.stdout)?.[1] ?? '';
}

describe('the reference system files as they are (19.4): paths, numbers, ignored keys', () => {
  // A database each: each test's relayers use the fixture signer on the same network.
  let database: TestDatabase;
  beforeEach(async () => {
    database = await createTestDatabase();
  });
  afterEach(() => database.drop());

  const localSigner = {
    id: 'local-signer',
    type: 'local',
    config: {
      path: 'config/keys/local-signer.json',
      passphrase: { type: 'env', value: 'KEYSTORE_PASSPHRASE' },
    },
  };

  it('finds config/keys/... from the working directory, and keys and networks beside the file when CONFIG_DIR points elsewhere', async () => {
    const config = fixtureConfig();
    delete config.networks;
    // No relayer: the entries of this describe have their own ids, so that no start here writes in the
    // update log lines that the reconciliation tests below count.
    const { root } = layout({
      ...config,
      relayers: [],
      signers: [...(config.signers as Json[]), localSigner],
    });
    const address = createKeystore(root, 'config/keys/local-signer.json');
    const env = { DATABASE_URL: database.url, KEYSTORE_PASSPHRASE, ...SECRETS_ENV };
    for (const [cwd, where] of [
      [root, { CONFIG_FILE: undefined }],
      [os.tmpdir(), { CONFIG_FILE: undefined, CONFIG_DIR: path.join(root, 'config') }],
    ] as const) {
      const app = await startIn(cwd, { ...env, ...where });
      try {
        await app.get('/api/v1/ready').expect(200);
        const signer = await app.get('/api/v1/signers/local-signer').expect(200);
        expect(signer.body).toEqual(
          successBody({
            id: 'local-signer',
            type: 'local',
            config: {},
            addresses: {
              evm: address,
              solana: expect.stringMatching(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/) as string,
              stellar: expect.stringMatching(/^G[A-Z2-7]{55}$/) as string,
            },
          }),
        );
        await app.get('/api/v1/networks/evm:hollow-main').expect(200);
      } finally {
        await app.close();
      }
    }
  });

  it('reads "min_balance": 1000000000000000000 in the file exactly, as a number or a decimal string', async () => {
    const config = fixtureConfig();
    const [relayer] = config.relayers as Json[];
    const first = { ...relayer, id: 'exact-1' };
    const second = {
      ...relayer,
      id: 'exact-2',
      network: 'hollow-main',
      policies: { min_balance: '1000000000000000001' },
    };
    const text = JSON.stringify({ ...config, relayers: [first, second] }).replace(
      '"min_balance":1000}',
      '"min_balance":1000000000000000000}',
    );
    const { root, file } = layout();
    fs.writeFileSync(file, text);
    const app = await startIn(root, { DATABASE_URL: database.url, CONFIG_FILE: file, ...SECRETS_ENV });
    try {
      const one = await app.get('/api/v1/relayers/exact-1').expect(200);
      expect(one.text).toContain('"policies":{"min_balance":1000000000000000000}');
      const other = await app.get('/api/v1/relayers/exact-2').expect(200);
      expect(other.text).toContain('"policies":{"min_balance":1000000000000000001}');
    } finally {
      await app.close();
    }
  });

  it('ignores a top-level _comment, a relayer address and extra keys of entries with one warning each; CONFIG_STRICT=true refuses them', async () => {
    const config = fixtureConfig();
    const [relayer] = config.relayers as Json[];
    const [hook] = config.notifications as Json[];
    const [signer] = config.signers as Json[];
    const { root, file } = layout({
      _comment: 'copied from the reference system',
      ...config,
      relayers: [{ ...relayer, id: 'ignoring-1', address: '0x0000000000000000000000000000000000000001' }],
      notifications: [{ ...hook, description: 'ops hook' }],
      signers: [{ ...signer, _note: 'rotated yearly' }],
    });
    const env = { DATABASE_URL: database.url, CONFIG_FILE: file, ...SECRETS_ENV };
    const app = await startIn(root, env);
    try {
      const warnings = (await app.waitForLog(/is ignored \(the reference system ignores it too\)/)).map(
        (line) => (JSON.parse(line) as { msg: string }).msg,
      );
      const reason = 'is ignored (the reference system ignores it too)';
      expect(warnings).toEqual([
        `CONFIG_FILE ${file}: "_comment" ${reason}`,
        `CONFIG_FILE ${file}: signer 'fixture-signer': "_note" ${reason}`,
        `CONFIG_FILE ${file}: notifications[0]: "description" ${reason}`,
        `CONFIG_FILE ${file}: relayers[0]: "address" ${reason}`,
      ]);
      await app.get('/api/v1/relayers/ignoring-1').expect(200);
    } finally {
      await app.close();
    }
    expect(await startError(root, { ...env, CONFIG_STRICT: 'true' })).toBe(
      `CONFIG_FILE ${file}: key "_comment" not read: CONFIG_STRICT=true refuses the keys the reference system ignores`,
    );
  });
});

describe('reconciliation at every start, and the export', () => {
  const receiver = new WebhookReceiver();
  let database: TestDatabase;
  let root: string;
  let file: string;
  let app: TestApp | null = null;

  const env = (): Env => ({
    DATABASE_URL: database.url,
    CONFIG_FILE: file,
    WEBHOOK_RETRY_BASE_MS: '40',
    ...SECRETS_ENV,
  });
  const hookPath = '/file-hook';

  /** The file: two relayers and the notification, its URL the local receiver. */
  function config(change: (relayers: Json[]) => Json[] = (r) => r): Json {
    const base = fixtureConfig();
    const [relayer] = base.relayers as Json[];
    const second = {
      id: 'fixture-stellar',
      name: 'Stellar relayer',
      network: 'lumen-test',
      network_type: 'stellar',
      paused: false,
      signer_id: 'fixture-signer',
    };
    return {
      ...base,
      notifications: [{ ...(base.notifications as Json[])[0], url: receiver.url(hookPath) }],
      relayers: change([relayer, second]),
    };
  }

  async function restart(next: Json): Promise<TestApp> {
    await app?.close();
    app = null;
    fs.writeFileSync(file, JSON.stringify(next));
    app = await startIn(root, env());
    return app;
  }

  const current = (): TestApp => {
    if (!app) throw new Error('no app');
    return app;
  };
  /** The start log's updates of a relayer, in all the starts of this file's process. */
  const updatesOf = async (id: string): Promise<string[]> =>
    (await current().waitForLog(new RegExp(`update relayer '${id}'`))).map(
      (line) => (JSON.parse(line) as { msg: string }).msg,
    );
  const auditOf = async (id: string): Promise<Json[]> =>
    (await current().get(`/api/v1/audit?resource_id=${id}&per_page=100`).expect(200)).body.data as Json[];

  beforeAll(async () => {
    await receiver.start();
    database = await createTestDatabase();
    ({ root, file } = layout());
  });
  afterAll(async () => {
    await app?.close();
    await receiver.close();
    await database.drop();
    if (app) expect(secrets.foundIn(app.logText())).toEqual([]);
  });

  it('creates the relayers and notifications of the file, served with their address and has_signing_key, audited as config', async () => {
    await restart(config());
    const relayer = await current().get('/api/v1/relayers/fixture-relayer').expect(200);
    expect(relayer.body).toEqual(
      successBody({
        id: 'fixture-relayer',
        name: 'Fixture relayer',
        network: 'hollow-test',
        network_type: 'evm',
        address: KEY1.evm,
        signer_id: 'fixture-signer',
        notification_id: 'fixture-hook',
        paused: false,
        system_disabled: false,
        disabled_reason: null,
        custom_rpc_urls: [
          { url: 'https://rpc-a.hollow.example/', weight: 100 },
          { url: 'https://rpc-b.hollow.example/', weight: 40 },
        ],
        policies: { min_balance: 1000 },
        created_at: ISO,
        updated_at: ISO,
      }),
    );
    const stellar = await current().get('/api/v1/relayers/fixture-stellar').expect(200);
    expect((stellar.body as { data: Json }).data.address).toBe(KEY1.stellar);
    const hook = await current().get('/api/v1/notifications/fixture-hook').expect(200);
    expect(hook.body).toEqual(
      successBody({
        id: 'fixture-hook',
        type: 'webhook',
        url: receiver.url(hookPath),
        has_signing_key: true,
      }),
    );
    const [created] = await auditOf('fixture-relayer');
    expect(created).toMatchObject({
      actor: { type: 'config', id: null, name: 'config.json' },
      action: 'relayer.create',
      resource_id: 'fixture-relayer',
    });
    // The relayer's notification got its relayer_created event, signed with the file's key.
    const [delivered] = await receiver.waitFor(hookPath, 1);
    expect(delivered.json.event).toBe('relayer_created');
    expect(verifySignatures(delivered, HOOK_KEY)).toEqual({
      signature: true,
      signature256: true,
      t: expect.any(Number) as number,
    });
    expect(delivered.json.payload).toMatchObject({
      payload_type: 'relayer_created',
      relayer: { id: 'fixture-relayer' },
    });
  });

  it('writes nothing and sends nothing on a restart with an unchanged file, and keeps what the API changed', async () => {
    await current()
      .patch('/api/v1/relayers/fixture-stellar', { name: 'Renamed through the API' })
      .expect(200);
    const auditBefore = (await auditOf('fixture-relayer')).length + (await auditOf('fixture-stellar')).length;
    const webhooksBefore = receiver.to(hookPath).length;
    await restart(config());
    expect((await auditOf('fixture-relayer')).length + (await auditOf('fixture-stellar')).length).toBe(
      auditBefore,
    );
    const stellar = await current().get('/api/v1/relayers/fixture-stellar').expect(200);
    expect((stellar.body as { data: Json }).data.name).toBe('Renamed through the API');
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(receiver.to(hookPath).length).toBe(webhooksBefore);
  });

  it('applies a changed entry once: audited as config, one relayer_updated event', async () => {
    const webhooksBefore = receiver.to(hookPath).length;
    await restart(config(([relayer, second]) => [{ ...relayer, paused: true }, second]));
    const relayer = await current().get('/api/v1/relayers/fixture-relayer').expect(200);
    expect((relayer.body as { data: Json }).data).toMatchObject({ paused: true, name: 'Fixture relayer' });
    expect(await updatesOf('fixture-relayer')).toEqual([
      "update relayer 'fixture-relayer' (relayers[0]): paused",
    ]);
    const [update] = await auditOf('fixture-relayer');
    expect(update).toMatchObject({
      actor: { type: 'config', id: null, name: 'config.json' },
      action: 'relayer.update',
    });
    const received = await receiver.waitFor(hookPath, webhooksBefore + 1);
    expect(
      received
        .slice(webhooksBefore)
        .map((r) => [r.json.event, (r.json.payload.relayer as Json).id, r.json.payload.changed]),
    ).toEqual([['relayer_updated', 'fixture-relayer', ['paused']]]);
    // The next start with the same file changes nothing more.
    const auditCount = (await auditOf('fixture-relayer')).length;
    await restart(config(([first, second]) => [{ ...first, paused: true }, second]));
    expect((await auditOf('fixture-relayer')).length).toBe(auditCount);
  });

  it('keeps an incident pause made through the API when the file renames the relayer: only the name is written', async () => {
    const paused = await current().patch('/api/v1/relayers/fixture-stellar', { paused: true }).expect(200);
    expect((paused.body as { data: Json }).data).toMatchObject({
      name: 'Renamed through the API',
      paused: true,
    });
    await restart(
      config(([relayer, second]) => [
        { ...relayer, paused: true },
        { ...second, name: 'Stellar relayer, renamed in the file' },
      ]),
    );
    const stellar = await current().get('/api/v1/relayers/fixture-stellar').expect(200);
    expect(stellar.body).toEqual(
      successBody({
        id: 'fixture-stellar',
        name: 'Stellar relayer, renamed in the file',
        network: 'lumen-test',
        network_type: 'stellar',
        address: KEY1.stellar,
        signer_id: 'fixture-signer',
        notification_id: null,
        paused: true,
        system_disabled: false,
        disabled_reason: null,
        custom_rpc_urls: null,
        policies: null,
        created_at: ISO,
        updated_at: ISO,
      }),
    );
    expect(await updatesOf('fixture-stellar')).toEqual([
      "update relayer 'fixture-stellar' (relayers[1]): name",
    ]);
    const [update] = await auditOf('fixture-stellar');
    expect({
      actor: update.actor,
      action: update.action,
      before: update.before,
      after: update.after,
    }).toEqual({
      actor: { type: 'config', id: null, name: 'config.json' },
      action: 'relayer.update',
      before: (paused.body as { data: Json }).data,
      after: (stellar.body as { data: Json }).data,
    });
  });

  it('keeps a removed entry (named in the log) and creates an added one', async () => {
    await restart(
      config(([relayer]) => [
        { ...relayer, paused: true },
        {
          id: 'fixture-dev',
          name: 'Dev relayer',
          network: 'hollow-dev',
          network_type: 'evm',
          paused: false,
          signer_id: 'fixture-signer',
        },
      ]),
    );
    await current().get('/api/v1/relayers/fixture-stellar').expect(200);
    await current().get('/api/v1/relayers/fixture-dev').expect(200);
    expect(
      await current().waitForLog(/relayer 'fixture-stellar' is no longer in config\.json: kept as it is/),
    ).not.toHaveLength(0);
  });

  it('refuses to start on a changed immutable field, naming the entry', async () => {
    await app?.close();
    app = null;
    const next = config(([relayer]) => [{ ...relayer, paused: true, network: 'hollow-main' }]);
    fs.writeFileSync(file, JSON.stringify(next));
    expect(await startError(root, env())).toBe(
      `CONFIG_FILE ${file}: relayers[0] (relayer 'fixture-relayer'): network cannot change (stored "hollow-test"); delete the relayer through the API first`,
    );
  });

  it('exports the managed state, and a fresh instance on the export answers the same', async () => {
    await restart(config(([relayer]) => [{ ...relayer, paused: true }]));
    // Ids that map to the environment names of others: each secret gets a name of its own.
    const fixtureKey = signerKey();
    await current()
      .post('/api/v1/signers', { id: 'fixture_signer', type: 'plain', config: { key: fixtureKey } })
      .expect(201);
    const hookKeys = {
      'n-a': secrets.add(randomBytes(24).toString('hex')),
      N_A: secrets.add(randomBytes(24).toString('hex')),
    };
    for (const [id, signingKey] of Object.entries(hookKeys)) {
      await current()
        .post('/api/v1/notifications', {
          id,
          url: `https://hooks.example.com/${id}`,
          signing_key: signingKey,
        })
        .expect(201);
    }
    // RPC URLs an answer masks (a path, a key in the path): exported as env references, whole ones whole.
    const relayerKey = secrets.add(randomBytes(16).toString('hex'));
    await current()
      .patch('/api/v1/networks/evm:hollow-main', {
        rpc_urls: [
          { url: 'https://1rpc.io/sepolia' },
          { url: 'https://rpc.hollow.example/', weight: 50 },
          { url: 'https://1rpc.io/holesky', weight: 20 },
        ],
      })
      .expect(200);
    await current()
      .post('/api/v1/relayers', {
        id: 'keyed-relayer',
        name: 'Keyed relayer',
        network: 'hollow-main',
        network_type: 'evm',
        paused: false,
        signer_id: 'fixture-signer',
        custom_rpc_urls: [{ url: `https://eth.keyed.example/v2/${relayerKey}`, weight: 30 }],
      })
      .expect(201);
    const exported = await current().get('/api/v1/config').expect(200);
    const data = (exported.body as { data: Json }).data;
    expect(secrets.foundIn(JSON.stringify(exported.body))).toEqual([]);
    expect((data.networks as Json[]).find((n) => n.network === 'hollow-main')?.rpc_urls).toEqual([
      { type: 'env', value: 'NETWORK_EVM_HOLLOW_MAIN_RPC_URL_0' },
      { url: 'https://rpc.hollow.example/', weight: 50 },
      { url: { type: 'env', value: 'NETWORK_EVM_HOLLOW_MAIN_RPC_URL_2' }, weight: 20 },
    ]);
    expect((data.relayers as Json[]).find((r) => r.id === 'keyed-relayer')).toEqual({
      id: 'keyed-relayer',
      name: 'Keyed relayer',
      network: 'hollow-main',
      network_type: 'evm',
      signer_id: 'fixture-signer',
      paused: false,
      custom_rpc_urls: [{ url: { type: 'env', value: 'RELAYER_KEYED_RELAYER_RPC_URL_0' }, weight: 30 }],
    });
    expect((data.relayers as Json[]).find((r) => r.id === 'fixture-relayer')?.custom_rpc_urls).toEqual([
      { url: 'https://rpc-a.hollow.example/', weight: 100 },
      { url: 'https://rpc-b.hollow.example/', weight: 40 },
    ]);
    expect(exported.body).toEqual(successBody(data));
    expect(data.signers).toEqual([
      {
        id: 'fixture-signer',
        type: 'plain',
        config: { key: { type: 'env', value: 'SIGNER_FIXTURE_SIGNER_KEY' } },
      },
      {
        id: 'fixture_signer',
        type: 'plain',
        config: { key: { type: 'env', value: 'SIGNER_FIXTURE_SIGNER_KEY_2' } },
      },
    ]);
    // Target URLs with a path beyond `/` as env references, as masked RPC URLs are (docs/reference/config-file.md#32-no-secret-is-exported).
    expect(data.notifications).toEqual([
      {
        id: 'fixture-hook',
        type: 'webhook',
        url: { type: 'env', value: 'NOTIFICATION_FIXTURE_HOOK_URL' },
        signing_key: { type: 'env', value: 'NOTIFICATION_FIXTURE_HOOK_SIGNING_KEY' },
      },
      {
        id: 'n-a',
        type: 'webhook',
        url: { type: 'env', value: 'NOTIFICATION_N_A_URL_2' },
        signing_key: { type: 'env', value: 'NOTIFICATION_N_A_SIGNING_KEY_2' },
      },
      {
        id: 'N_A',
        type: 'webhook',
        url: { type: 'env', value: 'NOTIFICATION_N_A_URL' },
        signing_key: { type: 'env', value: 'NOTIFICATION_N_A_SIGNING_KEY' },
      },
    ]);
    expect((data.networks as Json[]).find((n) => n.network === 'hollow-dev')).toEqual({
      type: 'evm',
      network: 'hollow-dev',
      chain_id: 424244,
      gas_price_cache: { enabled: true, stale_after_ms: 15000, expire_after_ms: 40000 },
      symbol: 'HLW',
      explorer_urls: ['https://scan.hollow.example'],
      average_blocktime_ms: 6000,
      required_confirmations: 8,
      features: ['eip1559', 'blobs'],
      tags: ['main', 'test'],
      is_testnet: true,
      rpc_urls: [{ url: 'https://rpc.hollow.example/', weight: 100 }],
    });
    expect(data.plugins).toEqual([]);
    const download = await current().get('/api/v1/config?download=true').expect(200);
    expect(download.headers['content-disposition']).toBe('attachment; filename="config.json"');
    expect(download.body).toEqual(data);

    const lists = async (target: TestApp): Promise<Json> => {
      const out: Json = {};
      for (const resource of ['relayers', 'notifications', 'signers', 'networks']) {
        const res = await target.get(`/api/v1/${resource}?per_page=100`).expect(200);
        out[resource] = (res.body as { data: Json[] }).data
          .map(({ created_at: _c, updated_at: _u, ...rest }) => rest)
          .sort((a, b) => String(a.id).localeCompare(String(b.id)));
      }
      return out;
    };
    const before = await lists(current());
    expect((before.networks as Json[]).find((n) => n.id === 'evm:hollow-main')?.rpc_urls).toEqual([
      { url: 'https://1rpc.io/***', weight: 100 },
      { url: 'https://rpc.hollow.example/', weight: 50 },
      { url: 'https://1rpc.io/***', weight: 20 },
    ]);
    const fresh = await createTestDatabase();
    const exportFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'exported-')), 'config.json');
    fs.writeFileSync(exportFile, JSON.stringify(download.body));
    const copy = await startTestApp({
      DATABASE_URL: fresh.url,
      CONFIG_FILE: exportFile,
      SIGNER_FIXTURE_SIGNER_KEY: KEY1.hex,
      SIGNER_FIXTURE_SIGNER_KEY_2: fixtureKey,
      NOTIFICATION_FIXTURE_HOOK_SIGNING_KEY: HOOK_KEY,
      NOTIFICATION_N_A_SIGNING_KEY: hookKeys.N_A,
      NOTIFICATION_N_A_SIGNING_KEY_2: hookKeys['n-a'],
      NOTIFICATION_FIXTURE_HOOK_URL: receiver.url(hookPath),
      NOTIFICATION_N_A_URL: 'https://hooks.example.com/N_A',
      NOTIFICATION_N_A_URL_2: 'https://hooks.example.com/n-a',
      NETWORK_EVM_HOLLOW_MAIN_RPC_URL_0: 'https://1rpc.io/sepolia',
      NETWORK_EVM_HOLLOW_MAIN_RPC_URL_2: 'https://1rpc.io/holesky',
      RELAYER_KEYED_RELAYER_RPC_URL_0: `https://eth.keyed.example/v2/${relayerKey}`,
    });
    try {
      expect(await lists(copy)).toEqual(before);
    } finally {
      await copy.close();
      await fresh.drop();
    }
  });

  it("config check and config plan: the start's messages and exit status, plan changing nothing", async () => {
    const run = (...args: string[]) => {
      const result = spawnSync(process.execPath, [CONFIG_COMMAND, ...args], {
        cwd: root,
        env: { ...process.env, ...env(), INIT_CWD: root, NODE_ENV: 'test' },
        encoding: 'utf8',
      });
      return { status: result.status, stdout: result.stdout, stderr: result.stderr };
    };
    const kept = [
      "relayer 'fixture-dev' is no longer in config.json: kept as it is",
      "relayer 'fixture-stellar' is no longer in config.json: kept as it is",
    ];
    expect(run('check')).toEqual({
      status: 0,
      stdout: `${file}: valid (4 networks, 1 signers, 1 relayers, 1 notifications, 0 alert channels, 0 plugins)\n`,
      stderr: '',
    });
    expect(run('plan')).toEqual({ status: 0, stdout: `${kept.join('\n')}\n`, stderr: '' });

    const changed = path.join(root, 'config', 'changed.json');
    fs.writeFileSync(
      changed,
      JSON.stringify(config(([relayer]) => [{ ...relayer, name: 'Planned name', paused: true }])),
    );
    const auditCount = (await auditOf('fixture-relayer')).length;
    expect(run('plan', 'config/changed.json')).toEqual({
      status: 0,
      stdout: `update relayer 'fixture-relayer' (relayers[0]): name\n${kept.map((line) => line.replace('config.json', 'changed.json')).join('\n')}\n`,
      stderr: '',
    });
    const relayer = await current().get('/api/v1/relayers/fixture-relayer').expect(200);
    expect((relayer.body as { data: Json }).data.name).toBe('Fixture relayer');
    expect((await auditOf('fixture-relayer')).length).toBe(auditCount);

    const bad = path.join(root, 'config', 'bad.json');
    fs.writeFileSync(
      bad,
      JSON.stringify(config(([relayer]) => [{ ...relayer, name: ' ', network: 'nowhere' }])),
    );
    expect(run('check', bad)).toEqual({
      status: 1,
      stdout: '',
      stderr:
        `CONFIG_FILE ${bad}: relayers[0].name must be 1 to 255 characters, not only whitespace\n` +
        `CONFIG_FILE ${bad}: relayers[0]: Network 'nowhere' not found for network type 'evm'\n`,
    });
    expect(run('plan', bad).status).toBe(1);
    expect(run('check', path.join(root, 'missing.json'))).toEqual({
      status: 1,
      stdout: '',
      stderr: `CONFIG_FILE ${path.join(root, 'missing.json')}: file not found\n`,
    });
  });

  it('answers 403 to a key without config:read', async () => {
    const token = (await createKey(current(), { name: 'reader' })).key;
    const res = await current().raw().get('/api/v1/config').set('Authorization', `Bearer ${token}`);
    expect(res.status).toBe(403);
  });
});

describe('a relayer from the file is checked like any other', () => {
  const rpc = new JsonRpcServer({
    eth_chainId: () => ({ result: '0x67933' }),
    eth_getTransactionCount: () => ({ result: '0x5' }),
    eth_getBalance: () => ({ result: '0xde0b6b3a7640000' }),
  });
  let database: TestDatabase;
  let app: TestApp;
  beforeAll(async () => {
    await rpc.start();
    database = await createTestDatabase();
    const base = fixtureConfig();
    const [relayer] = base.relayers as Json[];
    const { root, file } = layout({
      ...base,
      networks: 'networks',
      notifications: [],
      relayers: [{ ...relayer, notification_id: undefined, custom_rpc_urls: [rpc.url('/')] }],
    });
    void root;
    app = await startTestApp({
      DATABASE_URL: database.url,
      CONFIG_FILE: file,
      RELAYER_HEALTH_CHECKS: 'true',
      RELAYER_HEALTH_CHECK_INTERVAL_SECONDS: '3600',
      RELAYER_HEALTH_RETRY_SECONDS: '3600',
      ...SECRETS_ENV,
    });
  });
  afterAll(async () => {
    await app.close();
    await rpc.close();
    await database.drop();
  });

  it('answers its health check from its custom RPC URL', async () => {
    const status = await app.post('/api/v1/relayers/fixture-relayer/check').expect(200);
    expect(status.body).toEqual(
      successBody({
        network_type: 'evm',
        balance: '1000000000000000000',
        paused: false,
        system_disabled: false,
        pending_transactions_count: 0,
        last_confirmed_transaction_timestamp: null,
        low_balance: null,
        nonce: '5',
        checked_at: ISO,
      }),
    );
  });
});

(TEST_DB === 'mysql' ? describe : describe.skip)(
  'two instances starting together on one MySQL database',
  () => {
    const receiver = new WebhookReceiver();
    let database: TestDatabase;
    let file: string;
    const apps: TestApp[] = [];
    const hookPath = '/two-instances';

    function config(extra: Json[] = [], paused = false): Json {
      const base = fixtureConfig();
      const [relayer] = base.relayers as Json[];
      return {
        ...base,
        networks: 'networks',
        notifications: [{ ...(base.notifications as Json[])[0], url: receiver.url(hookPath) }],
        relayers: [{ ...relayer, paused }, ...extra],
      };
    }
    const start = () => startTestApp({ DATABASE_URL: database.url, CONFIG_FILE: file, ...SECRETS_ENV });

    beforeAll(async () => {
      await receiver.start();
      database = await createTestDatabase();
      ({ file } = layout(config()));
      const first = await start();
      await receiver.waitFor(hookPath, 1);
      await first.close();
    });
    afterAll(async () => {
      for (const app of apps) await app.close();
      await receiver.close();
      await database.drop();
    });

    it('applies each change of the file once', async () => {
      const added = {
        id: 'fixture-dev',
        name: 'Dev relayer',
        network: 'hollow-dev',
        network_type: 'evm',
        paused: false,
        signer_id: 'fixture-signer',
        notification_id: 'fixture-hook',
      };
      fs.writeFileSync(file, JSON.stringify(config([added], true)));
      apps.push(...(await Promise.all([start(), start()])));
      const received = await receiver.waitFor(hookPath, 3);
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(
        receiver
          .to(hookPath)
          .map((r) => [r.json.event, (r.json.payload.relayer as Json).id])
          .sort(),
      ).toEqual([
        ['relayer_created', 'fixture-dev'],
        ['relayer_created', 'fixture-relayer'],
        ['relayer_updated', 'fixture-relayer'],
      ]);
      expect(received).toHaveLength(3);
      const audit = await apps[0].get('/api/v1/audit?resource_type=relayer&per_page=100').expect(200);
      expect(
        (audit.body as { data: Json[] }).data.map((record) => [record.action, record.resource_id]).sort(),
      ).toEqual([
        ['relayer.create', 'fixture-dev'],
        ['relayer.create', 'fixture-relayer'],
        ['relayer.update', 'fixture-relayer'],
      ]);
      for (const app of apps) {
        const relayer = await app.get('/api/v1/relayers/fixture-relayer').expect(200);
        expect((relayer.body as { data: Json }).data.paused).toBe(true);
      }
    });
  },
);

describe('config check (19.4): every problem at once, every rule of the start, no key service call, nothing written', () => {
  const vault = new VaultFake();
  const vaultKey = new Secp256k1TestKey();

  beforeAll(async () => {
    await vault.start();
    vault.kv.set('secret/relayer', vaultKey.hex);
  });
  afterAll(() => vault.close());

  /** The command in its own process, awaited so that the fake key service answers meanwhile. */
  async function check(root: string, ...args: string[]) {
    const dataDir = path.join(root, 'data');
    const database = path.join(root, 'relayer.sqlite');
    const child = execFile(process.execPath, [CONFIG_COMMAND, 'check', ...args], {
      cwd: root,
      encoding: 'utf8',
      env: {
        ...process.env,
        ...SECRETS_ENV,
        CONFIG_FILE: path.join(root, 'config', 'config.json'),
        DATABASE_URL: `sqlite:${database}`,
        DATA_DIR: dataDir,
        VAULT_ROLE_ID: vault.roleId,
        VAULT_SECRET_ID: vault.secretId,
        INIT_CWD: root,
        NODE_ENV: 'test',
      },
    });
    const [stdout, stderr] = [[] as string[], [] as string[]];
    child.stdout?.on('data', (chunk: string) => stdout.push(chunk));
    child.stderr?.on('data', (chunk: string) => stderr.push(chunk));
    const status = await new Promise<number | null>((resolve) => child.on('close', resolve));
    return {
      result: { status, stdout: stdout.join(''), stderr: stderr.join('') },
      written: [
        ...(fs.existsSync(dataDir) ? fs.readdirSync(dataDir) : []),
        ...(fs.existsSync(database) ? ['relayer.sqlite'] : []),
      ],
    };
  }

  const vaultSigner = () => ({
    id: 'vault-signer',
    type: 'vault',
    config: {
      address: vault.url(),
      role_id: { type: 'env', value: 'VAULT_ROLE_ID' },
      secret_id: { type: 'env', value: 'VAULT_SECRET_ID' },
      key_name: 'relayer',
    },
  });

  it('names every problem of the file, policies, signers, networks and URLs included, and exits 1', async () => {
    const base = fixtureConfig();
    const [relayer] = base.relayers as Json[];
    const [hook] = base.notifications as Json[];
    const { root, file } = layout({
      ...base,
      relayers: [
        { ...relayer, policies: { min_balance: -1 } },
        { ...relayer, id: 'nowhere-relayer', network: 'nowhere' },
        { ...relayer, id: 'ghost-relayer', signer_id: 'ghost' },
      ],
      notifications: [{ ...hook, url: 'ftp://hooks.hollow.example/relayer' }],
    });
    const { result, written } = await check(root);
    expect(result).toEqual({
      status: 1,
      stdout: '',
      stderr: [
        `CONFIG_FILE ${file}: notifications[0].url must be an http or https URL`,
        `CONFIG_FILE ${file}: relayers[0].policies.min_balance must be a whole number >= 0 (a JSON number or a string of decimal digits, at most 1000 digits)`,
        `CONFIG_FILE ${file}: relayers[1]: Network 'nowhere' not found for network type 'evm'`,
        `CONFIG_FILE ${file}: relayers[2]: Signer with ID ghost not found`,
        '',
      ].join('\n'),
    });
    expect(written).toEqual([]);
  });

  it('accepts a valid file with its warnings, never calling a key service nor writing (--online calls it)', async () => {
    const base = fixtureConfig();
    const [relayer] = base.relayers as Json[];
    const { root, file } = layout({
      _comment: 'checked before the start',
      ...base,
      signers: [
        ...(base.signers as Json[]),
        vaultSigner(),
        { id: 'dev-signer', type: 'plain', config: { key: { type: 'generated', value: 'dev.key' } } },
      ],
      relayers: [
        relayer,
        { ...relayer, id: 'vault-relayer', signer_id: 'vault-signer' },
        { ...relayer, id: 'dev-relayer', signer_id: 'dev-signer' },
      ],
    });
    const { result, written } = await check(root);
    expect(result).toEqual({
      status: 0,
      stdout: `${file}: valid (4 networks, 3 signers, 3 relayers, 1 notifications, 0 alert channels, 0 plugins)\n`,
      stderr:
        `CONFIG_FILE ${file}: "_comment" is ignored (the reference system ignores it too)\n` +
        `CONFIG_FILE ${file}: signer 'vault-signer': not checked offline (its addresses need a call to its key service; --online makes it): the relayers on it are not checked against its key\n`,
    });
    expect(vault.calls).toEqual([]);
    expect(written).toEqual([]);

    const online = await check(root, '--online');
    expect(online.result).toEqual({
      status: 0,
      stdout: `${file}: valid (4 networks, 3 signers, 3 relayers, 1 notifications, 0 alert channels, 0 plugins)\n`,
      stderr: `CONFIG_FILE ${file}: "_comment" is ignored (the reference system ignores it too)\n`,
    });
    expect(vault.calls).toEqual(['POST /v1/auth/approle/login', 'GET /v1/secret/data/relayer']);
    expect(online.written).toEqual([]);
  });
});
