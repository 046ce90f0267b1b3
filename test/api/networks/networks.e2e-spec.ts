import Database from 'better-sqlite3';
import { createConnection } from 'mysql2/promise';
import { randomBytes } from 'node:crypto';
import { Anvil } from '../../support/anvil';
import { expectError, successBody } from '../../support/envelope';
import { secrets } from '../../support/secrets';
import { freePort } from '../../support/service-process';
import { startTestApp, useTestApp, type TestApp } from '../../support/test-app';
import { NETWORKS, RPC_SECRET, writeConfigFile } from '../../support/test-catalogue';
import { createTestDatabase, TEST_DB, type TestDatabase } from '../../support/test-database';
import { fileSigner, relayerBody } from '../../factories';

const [SEPOLIA] = NETWORKS;

/** The RPC list stored for a network, read from its row. */
async function storedRpcUrls(database: TestDatabase, id: string): Promise<unknown> {
  const sql = 'SELECT rpc_urls AS urls FROM network_rpc_urls WHERE network_id = ?';
  if (TEST_DB === 'sqlite') {
    const db = new Database(database.url.slice('sqlite:'.length), { readonly: true });
    try {
      const row = db.prepare(sql).get(id) as { urls: string } | undefined;
      return row ? (JSON.parse(row.urls) as unknown) : null;
    } finally {
      db.close();
    }
  }
  const connection = await createConnection({ uri: database.url });
  try {
    const [rows] = await connection.query<import('mysql2').RowDataPacket[]>(sql, [id]);
    const text = rows[0]?.urls as string | undefined;
    return text === undefined ? null : (JSON.parse(text) as unknown);
  } finally {
    await connection.end();
  }
}

const rpcKey = (): string => secrets.add(`k${randomBytes(10).toString('hex')}`);

describe('networks through the API (docs/reference/networks-and-signers.md#4-networks)', () => {
  const handle = useTestApp({ RPC_BLOCK_PRIVATE_IPS: 'true' });
  const app = () => handle.current;

  it('lists every network of the file in the SDK shape, RPC URLs masked', async () => {
    const res = await app().get('/api/v1/networks?per_page=100').expect(200);
    expect(res.body).toEqual({
      success: true,
      error: null,
      pagination: { current_page: 1, per_page: 100, total_items: 6 },
      data: NETWORKS,
    });
    expect(res.text).not.toContain(RPC_SECRET);
    const page = await app().get('/api/v1/networks?page=2&per_page=4').expect(200);
    expect(page.body.pagination).toEqual({ current_page: 2, per_page: 4, total_items: 6 });
    expect(page.body.data).toEqual(NETWORKS.slice(4));
  });

  it('gets one by <type>:<name> in lower case, exactly; 404 for another case or an unknown one', async () => {
    expect((await app().get('/api/v1/networks/evm:sepolia').expect(200)).body).toEqual(successBody(SEPOLIA));
    expectError(
      await app().get('/api/v1/networks/EVM:Sepolia'),
      404,
      "Network with ID 'EVM:Sepolia' not found",
    );
    expectError(
      await app().get('/api/v1/networks/evm:atlantis'),
      404,
      "Network with ID 'evm:atlantis' not found",
    );
    expectError(await app().get('/api/v1/networks/sepolia'), 404, "Network with ID 'sepolia' not found");
    expectError(
      await app().patch('/api/v1/networks/evm:atlantis', { rpc_urls: ['https://rpc.example.org/x'] }),
      404,
      "Network with ID 'evm:atlantis' not found",
    );
  });

  it('PATCH replaces the RPC list: URLs and {url, weight} entries, weight 100 by default, masked in the answer', async () => {
    const key = rpcKey();
    const res = await app().patch('/api/v1/networks/solana:devnet', {
      rpc_urls: [
        `https://solana.example.org/rpc/${key}`,
        { url: 'https://backup.example.org/solana', weight: 10 },
      ],
    });
    const expected = {
      id: 'solana:devnet',
      name: 'devnet',
      network_type: 'solana',
      rpc_urls: [
        { url: 'https://solana.example.org/rpc/***', weight: 100 },
        { url: 'https://backup.example.org/***', weight: 10 },
      ],
      is_testnet: true,
    };
    expect({ status: res.status, body: res.body as unknown }).toEqual({
      status: 200,
      body: successBody(expected),
    });
    expect((await app().get('/api/v1/networks/solana:devnet').expect(200)).body).toEqual(
      successBody(expected),
    );
    expect(await handle.database.dump()).toContain(`https://solana.example.org/rpc/${key}`);
  });

  it('a masked URL sent back unchanged keeps the stored one; reordering and reweighting work through it', async () => {
    const key = rpcKey();
    await app()
      .patch('/api/v1/networks/stellar:testnet', { rpc_urls: [`https://stellar.example.org/soroban/${key}`] })
      .expect(200);
    const shown = (await app().get('/api/v1/networks/stellar:testnet').expect(200)).body.data
      .rpc_urls as Array<{
      url: string;
    }>;
    expect(shown).toEqual([{ url: 'https://stellar.example.org/soroban/***', weight: 100 }]);
    const res = await app()
      .patch('/api/v1/networks/stellar:testnet', {
        rpc_urls: ['https://first.example.org/rpc', { url: shown[0].url, weight: 40 }],
      })
      .expect(200);
    expect(res.body.data.rpc_urls).toEqual([
      { url: 'https://first.example.org/***', weight: 100 },
      { url: 'https://stellar.example.org/soroban/***', weight: 40 },
    ]);
    const dump = await handle.database.dump();
    expect(dump).toContain(`https://stellar.example.org/soroban/${key}`);
    // The stored list holds the real URLs, never the mask text (the audit trail keeps masked answers).
    expect(await storedRpcUrls(handle.database, 'stellar:testnet')).toEqual([
      { url: 'https://first.example.org/rpc', weight: 100 },
      { url: `https://stellar.example.org/soroban/${key}`, weight: 40 },
    ]);
  });

  it.each([
    [{ rpc_urls: [] }, 'rpc_urls must be an array of 1 to 20 URLs or {url, weight} objects'],
    [{}, 'rpc_urls is required'],
    [
      { rpc_urls: Array.from({ length: 21 }, (_, i) => `https://rpc${i}.example.org/`) },
      'rpc_urls must be an array of 1 to 20 URLs or {url, weight} objects',
    ],
    [
      { rpc_urls: 'https://rpc.example.org/' },
      'rpc_urls must be an array of 1 to 20 URLs or {url, weight} objects',
    ],
    [{ rpc_urls: [7] }, 'rpc_urls must be an array of 1 to 20 URLs or {url, weight} objects'],
    [
      { rpc_urls: [{ url: 'https://rpc.example.org/', weight: 101 }] },
      'rpc_urls[0].weight must be a whole number from 0 to 100',
    ],
    [{ rpc_urls: ['ftp://rpc.example.org/'] }, 'rpc_urls[0].url must be an http or https URL'],
    [
      { rpc_urls: ['https://rpc.example.org/', 'http://169.254.169.254/latest'] },
      'rpc_urls[1].url points to a cloud metadata address',
    ],
    [
      { rpc_urls: ['http://10.0.0.5:8545/'] },
      'rpc_urls[0].url points to a private or loopback address (set RPC_BLOCK_PRIVATE_IPS=false to allow private addresses)',
    ],
    [
      { rpc_urls: ['https://never-stored.example.org/***'] },
      'rpc_urls[0].url is a masked URL that matches no stored URL: send the full URL',
    ],
    [
      { rpc_urls: ['https://rpc.example.org/'], chain_id: 5, name: 'other' },
      'chain_id is not an allowed field; name is not an allowed field',
    ],
  ])('refuses bad body %# with a 400 naming the problem, changing nothing', async (body, message) => {
    expectError(await app().patch('/api/v1/networks/evm:mainnet', body), 400, message);
    expect((await app().get('/api/v1/networks/evm:mainnet').expect(200)).body.data).toEqual(NETWORKS[1]);
  });

  it('needs the API key', async () => {
    expectError(await app().get('/api/v1/networks', false), 401, 'Unauthorized');
    expectError(await app().get('/api/v1/networks/evm:sepolia', false), 401, 'Unauthorized');
    expectError(
      await app().patch('/api/v1/networks/evm:sepolia', { rpc_urls: ['https://x.example.org/'] }, false),
      401,
      'Unauthorized',
    );
  });
});

describe('a network RPC list on two instances of one database', () => {
  let database: TestDatabase;
  let apps: TestApp[] = [];
  const apiKey = secrets.add(randomBytes(24).toString('hex'));
  beforeAll(async () => {
    database = await createTestDatabase();
    apps = [
      await startTestApp({ DATABASE_URL: database.url, API_KEY: apiKey }),
      await startTestApp({ DATABASE_URL: database.url, API_KEY: apiKey }),
    ];
  });
  afterAll(async () => {
    await Promise.all(apps.map((a) => a.close()));
    await database.drop();
  });

  it('changed on one is served by the other at once, and a masked URL resolves against the shared list', async () => {
    const [one, two] = apps;
    const key = rpcKey();
    await one
      .patch('/api/v1/networks/evm:mainnet', { rpc_urls: [`https://eth.example.org/v1/${key}`] })
      .expect(200);
    const seen = (await two.get('/api/v1/networks/evm:mainnet').expect(200)).body.data.rpc_urls as unknown;
    expect(seen).toEqual([{ url: 'https://eth.example.org/v1/***', weight: 100 }]);
    await two
      .patch('/api/v1/networks/evm:mainnet', {
        rpc_urls: [{ url: 'https://eth.example.org/v1/***', weight: 5 }, 'https://other.example.org/'],
      })
      .expect(200);
    const listed = (await one.get('/api/v1/networks?per_page=2').expect(200)).body.data[1]
      .rpc_urls as unknown;
    expect(listed).toEqual([
      { url: 'https://eth.example.org/v1/***', weight: 5 },
      { url: 'https://other.example.org/', weight: 100 },
    ]);
    expect(await database.dump()).toContain(`https://eth.example.org/v1/${key}`);
  });
});

/** The optional fields of OpenZeppelin Relayer's network files, answered as given. */
const LOCAL_DETAILS = {
  symbol: 'ETH',
  explorer_urls: ['https://explorer.example.org'],
  average_blocktime_ms: 2000,
  required_confirmations: 3,
  features: ['eip1559'],
  tags: ['local', 'anvil'],
};

describe('relayers without custom RPC URLs follow their network’s list (anvil)', () => {
  const anvil = new Anvil();
  let file: string;
  let deadPort: number;
  beforeAll(async () => {
    await anvil.start();
    deadPort = await freePort();
    file = writeConfigFile({
      // Nothing listens on that port: the file's list fails until the API points the network at anvil.
      networks: [
        {
          type: 'evm',
          network: 'local',
          chain_id: Anvil.CHAIN_ID,
          rpc_urls: [`http://127.0.0.1:${deadPort}/`],
          ...LOCAL_DETAILS,
        },
      ],
      signers: [fileSigner('local-signer')],
    });
  });
  const handle = useTestApp(() => ({
    CONFIG_FILE: file,
    RELAYER_HEALTH_CHECKS: 'true',
    RELAYER_HEALTH_CHECK_INTERVAL_SECONDS: '3600',
    RELAYER_HEALTH_RETRY_SECONDS: '3600',
    RPC_TIMEOUT_MS: '1000',
  }));
  const app = () => handle.current;
  afterAll(async () => {
    await anvil.stop();
  });

  it('a check after the PATCH uses the new list', async () => {
    const res = await app()
      .post(
        '/api/v1/relayers',
        relayerBody('evm', { id: 'follows', name: 'follows', network: 'local', signer_id: 'local-signer' }),
      )
      .expect(201);
    expect(res.body.data.system_disabled).toBe(false);
    expect((await app().post('/api/v1/relayers/follows/check').expect(200)).body.data.system_disabled).toBe(
      true,
    );
    expect((await app().get('/api/v1/relayers/follows').expect(200)).body.data.disabled_reason).toEqual({
      type: 'RpcValidationFailed',
      details: `no RPC endpoint answered with the right chain: 127.0.0.1:${deadPort}: network error (ECONNREFUSED)`,
    });
    const patched = await app()
      .patch('/api/v1/networks/evm:local', { rpc_urls: [anvil.url] })
      .expect(200);
    expect(patched.body).toEqual(
      successBody({
        id: 'evm:local',
        name: 'local',
        network_type: 'evm',
        // Answered masked: the path of a bare origin is `/`.
        rpc_urls: [{ url: `http://127.0.0.1:${anvil.port}/`, weight: 100 }],
        is_testnet: false,
        chain_id: Anvil.CHAIN_ID,
        ...LOCAL_DETAILS,
      }),
    );
    expect((await app().post('/api/v1/relayers/follows/check').expect(200)).body.data.system_disabled).toBe(
      false,
    );
    expect((await app().get('/api/v1/relayers/follows').expect(200)).body.data.disabled_reason).toBeNull();
  });
});
