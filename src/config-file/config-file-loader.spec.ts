import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { encryptKeystoreJson } from 'ethers';
import * as derivation from '../catalogue/address-derivation';
import type { Catalogue } from '../catalogue';
import { CatalogueConfigError, loadCatalogue, type LoadCatalogueOptions } from './config-file-loader';

const PLAIN_KEY = '4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318';
const ENV_KEY = 'b71c71a67e1177ad4e901695e1b4b9ee17ae16c6668d313eac2f96dbcda3f291';
const KEY_LOOKING_VARIABLE = 'abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789';
const PASSPHRASE = 'correct horse battery staple';
const WRONG_PASSPHRASE = 'not the passphrase at all';
const RPC_API_KEY = 'rpc-api-key-4f1c9a';
/** Every secret a test hands to the loader: none may ever appear in a message. */
const SECRETS = [PLAIN_KEY, ENV_KEY, KEY_LOOKING_VARIABLE, PASSPHRASE, WRONG_PASSPHRASE, RPC_API_KEY];

const KEY_1 = `0x${'00'.repeat(31)}01`;
const KEY_1_ADDRESS = '0x7E5F4552091A69125d5DfCb7b8C2659029395Bdf';

type Json = Record<string, unknown>;
const plainSecret = (value: string): Json => ({ type: 'plain', value });
const plainSigner = (id: string, key: Json): Json => ({ id, type: 'plain', config: { key } });

function baseConfig(): { networks: Json[]; signers: Json[] } {
  return {
    networks: [
      { type: 'evm', network: 'sepolia', chain_id: 11155111, rpc_urls: ['https://rpc.example/sepolia'] },
      { type: 'solana', network: 'devnet', rpc_urls: [{ url: 'https://rpc.example/devnet', weight: 50 }] },
      {
        type: 'stellar',
        network: 'testnet',
        passphrase: 'Test SDF Network ; September 2015',
        rpc_urls: ['https://rpc.example/stellar'],
        is_testnet: true,
      },
    ],
    signers: [plainSigner('canary', plainSecret(PLAIN_KEY))],
  };
}

const withSigner = (signer: Json): Json => ({ ...baseConfig(), signers: [...baseConfig().signers, signer] });
const withNetwork = (network: Json): Json => ({
  ...baseConfig(),
  networks: [...baseConfig().networks, network],
});

let workDir: string;
let configDir: string;
let dataDir: string;

beforeEach(async () => {
  workDir = await mkdtemp(path.join(os.tmpdir(), 'catalogue-'));
  configDir = path.join(workDir, 'config');
  dataDir = path.join(workDir, 'data');
  await mkdir(configDir);
});

afterEach(async () => {
  jest.restoreAllMocks();
  await rm(workDir, { recursive: true, force: true });
});

async function writeConfig(config: unknown): Promise<string> {
  const file = path.join(configDir, 'config.json');
  await writeFile(file, typeof config === 'string' ? config : JSON.stringify(config));
  return file;
}

function load(configFile: string, options: Partial<LoadCatalogueOptions> = {}): Promise<Catalogue> {
  return loadCatalogue({ configFile, dataDir, production: false, env: {}, ...options });
}

/** The CatalogueConfigError a load fails with, checked to name the config file and to hold no secret. */
async function loadError(configFile: string, options: Partial<LoadCatalogueOptions> = {}): Promise<string> {
  const error = await load(configFile, options).then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(CatalogueConfigError);
  const { message } = error as CatalogueConfigError;
  expect(message.startsWith(`CONFIG_FILE ${configFile}: `)).toBe(true);
  for (const secret of SECRETS) expect(message).not.toContain(secret);
  return message;
}

describe('loadCatalogue: the shipped config/config.json', () => {
  const shippedConfig = path.resolve(__dirname, '../../config/config.json');

  it.each([
    ['evm', 'mainnet', { chain_id: 1, is_testnet: false }],
    ['evm', 'sepolia', { chain_id: 11155111, is_testnet: true }],
    ['evm', 'base', { chain_id: 8453, is_testnet: false }],
    ['evm', 'base-sepolia', { chain_id: 84532, is_testnet: true }],
    ['evm', 'arbitrum-one', { chain_id: 42161, is_testnet: false }],
    ['evm', 'optimism', { chain_id: 10, is_testnet: false }],
    ['evm', 'polygon', { chain_id: 137, is_testnet: false }],
    ['solana', 'mainnet-beta', { is_testnet: false }],
    ['solana', 'devnet', { is_testnet: true }],
    ['solana', 'testnet', { is_testnet: true }],
    [
      'stellar',
      'mainnet',
      { passphrase: 'Public Global Stellar Network ; September 2015', is_testnet: false },
    ],
    ['stellar', 'testnet', { passphrase: 'Test SDF Network ; September 2015', is_testnet: true }],
  ] as const)('names %s %s', async (type, name, expected) => {
    const catalogue = await load(shippedConfig);
    const network = catalogue.findNetwork(type, name);
    expect(network).toMatchObject(expected);
    for (const rpc of network?.rpc_urls ?? []) expect(new URL(rpc.url).protocol).toBe('https:');
  });

  it('has exactly those networks and a development signer that works outside production', async () => {
    const catalogue = await load(shippedConfig);
    expect(catalogue.networkCount).toBe(12);
    expect(catalogue.listSigners().map((s) => s.id)).toEqual(['dev-signer']);
    expect(catalogue.signerAddress('dev-signer', 'evm')).toMatch(/^0x[0-9a-fA-F]{40}$/);
  });
});

describe('loadCatalogue: valid configs', () => {
  it('reads networks, defaults is_testnet to false and weight to 100, and keeps {url, weight} entries', async () => {
    const catalogue = await load(await writeConfig(baseConfig()));
    expect(catalogue.listNetworks()).toEqual([
      {
        type: 'evm',
        network: 'sepolia',
        chain_id: 11155111,
        rpc_urls: [{ url: 'https://rpc.example/sepolia', weight: 100 }],
        is_testnet: false,
      },
      {
        type: 'solana',
        network: 'devnet',
        rpc_urls: [{ url: 'https://rpc.example/devnet', weight: 50 }],
        is_testnet: false,
      },
      {
        type: 'stellar',
        network: 'testnet',
        passphrase: 'Test SDF Network ; September 2015',
        rpc_urls: [{ url: 'https://rpc.example/stellar', weight: 100 }],
        is_testnet: true,
      },
    ]);
  });

  it('keeps the optional descriptive fields of a network and finds it by its API id, exactly', async () => {
    const details = {
      symbol: 'ETH',
      explorer_urls: ['https://sepolia.etherscan.io'],
      average_blocktime_ms: 12000,
      required_confirmations: 6,
      features: ['eip1559'],
      tags: ['rollup'],
    };
    const catalogue = await load(
      await writeConfig(
        withNetwork({
          type: 'evm',
          network: 'Holesky',
          chain_id: 17000,
          rpc_urls: ['https://rpc.example/h'],
          ...details,
        }),
      ),
    );
    expect(catalogue.findNetworkById('evm:holesky')).toEqual({
      type: 'evm',
      network: 'Holesky',
      chain_id: 17000,
      rpc_urls: [{ url: 'https://rpc.example/h', weight: 100 }],
      is_testnet: false,
      ...details,
    });
    // The id is the lower-case `<type>:<name>`: another case names no network
    // (docs/reference/running.md#37-ids-compare-exactly).
    expect(catalogue.findNetworkById('EVM:holesky')).toBeUndefined();
    expect(catalogue.findNetworkById('evm:Holesky')).toBeUndefined();
    expect(catalogue.findNetworkById('evm:nowhere')).toBeUndefined();
  });

  it.each([
    ['a plain value', plainSecret(KEY_1), {}],
    ['a plain value without 0x', plainSecret(KEY_1.slice(2)), {}],
    ['an environment variable', { type: 'env', value: 'SIGNER_KEY' }, { SIGNER_KEY: KEY_1 }],
    [
      'an environment variable with a trailing newline',
      { type: 'env', value: 'SIGNER_KEY' },
      { SIGNER_KEY: `${KEY_1}\n` },
    ],
  ])('takes a plain signer key from %s', async (_name, key, env) => {
    const catalogue = await load(await writeConfig(withSigner(plainSigner('signer', key))), { env });
    expect(catalogue.signerAddress('signer', 'evm')).toBe(KEY_1_ADDRESS);
  });

  it('loads 20,000 plain signers quickly, deriving no address until one is asked for', async () => {
    // Measured on the 2-core development machine under Jest: 160-210 ms for this load (keys are checked, not
    // derived). Deriving the three addresses of one signer takes 1.5-2.5 ms, so all of them would take 30-50 s.
    const derive = jest.spyOn(derivation, 'deriveAddress');
    const signers = Array.from({ length: 20_000 }, (_, index) =>
      plainSigner(`signer-${index}`, plainSecret(randomBytes(32).toString('hex'))),
    );
    const catalogue = await load(await writeConfig({ ...baseConfig(), signers }));
    expect(catalogue.signerCount).toBe(20_000);
    expect(derive).not.toHaveBeenCalled();
    expect(catalogue.signerAddress('signer-19999', 'evm')).toMatch(/^0x[0-9a-fA-F]{40}$/);
    expect(derive).toHaveBeenCalledTimes(1);
  });
});

describe('loadCatalogue: bad configs stop the start with a message naming the entry', () => {
  it('names CONFIG_FILE and the path when the file is missing', async () => {
    const missing = path.join(configDir, 'missing.json');
    expect(await loadError(missing)).toBe(`CONFIG_FILE ${missing}: file not found`);
  });

  it('names CONFIG_FILE and the file when it is not JSON, without quoting its content', async () => {
    const file = await writeConfig(`{"signers": [{"config": {"key": "${PLAIN_KEY}" ]`);
    expect(await loadError(file)).toMatch(/^CONFIG_FILE .*config\.json: not valid JSON/);
  });

  it('names the signer of a malformed key exactly', async () => {
    const file = await writeConfig(
      withSigner(plainSigner('bad-hex-signer', plainSecret(`zz${ENV_KEY.slice(2)}`))),
    );
    expect(await loadError(file)).toBe(
      `CONFIG_FILE ${file}: signer 'bad-hex-signer': key must be 32 bytes as 64 hex characters`,
    );
  });

  it.each<[string, Json, Record<string, string>, string[]]>([
    ['a top-level array', [] as unknown as Json, {}, ['must hold a JSON object']],
    ['no networks', { signers: [] }, {}, ['networks must be an array of networks or the path of a folder']],
    ['no signers', { networks: [] }, {}, ['signers must be an array']],
    [
      'an unknown network type',
      withNetwork({ type: 'bitcoin', network: 'btc-main', rpc_urls: ['https://rpc.example/btc'] }),
      {},
      ["network 'btc-main'", 'unknown type "bitcoin" (expected evm, solana or stellar)'],
    ],
    [
      'a network without a name',
      withNetwork({ type: 'evm', chain_id: 5, rpc_urls: ['https://rpc.example/x'] }),
      {},
      ['networks[3]: network must be a non-empty string'],
    ],
    [
      'a duplicate network',
      withNetwork({ type: 'evm', network: 'sepolia', chain_id: 1, rpc_urls: ['https://rpc.example/x'] }),
      {},
      ["network 'sepolia' (evm): defined more than once (first in networks[0])"],
    ],
    [
      'an EVM network without chain_id',
      withNetwork({ type: 'evm', network: 'holesky', rpc_urls: ['https://rpc.example/x'] }),
      {},
      ["network 'holesky' (evm): chain_id must be a positive integer"],
    ],
    [
      'an EVM network with a fractional chain_id',
      withNetwork({ type: 'evm', network: 'holesky', chain_id: 1.5, rpc_urls: ['https://rpc.example/x'] }),
      {},
      ["network 'holesky' (evm): chain_id must be a positive integer"],
    ],
    [
      'a Stellar network without passphrase',
      withNetwork({ type: 'stellar', network: 'futurenet', rpc_urls: ['https://rpc.example/x'] }),
      {},
      ["network 'futurenet' (stellar): passphrase must be a non-empty string"],
    ],
    [
      'empty rpc_urls',
      withNetwork({ type: 'solana', network: 'testnet', rpc_urls: [] }),
      {},
      ["network 'testnet' (solana): rpc_urls must be a non-empty array"],
    ],
    [
      'a non-http RPC URL (not quoted: it may hold an API key)',
      withNetwork({ type: 'solana', network: 'testnet', rpc_urls: [`wss://rpc.example/${RPC_API_KEY}`] }),
      {},
      ["network 'testnet' (solana): rpc_urls[0] must be an http(s) URL"],
    ],
    [
      'an RPC weight over 100',
      withNetwork({
        type: 'solana',
        network: 'testnet',
        rpc_urls: [{ url: 'https://rpc.example/x', weight: 101 }],
      }),
      {},
      ["network 'testnet' (solana): rpc_urls[0].weight must be a whole number from 0 to 100"],
    ],
    [
      'two networks whose names differ only in case (one API id)',
      withNetwork({ type: 'evm', network: 'Sepolia', chain_id: 1, rpc_urls: ['https://rpc.example/x'] }),
      {},
      ["network 'Sepolia' (evm): defined more than once (first in networks[0])"],
    ],
    [
      'a non-string symbol',
      withNetwork({ type: 'solana', network: 'testnet', rpc_urls: ['https://rpc.example/x'], symbol: 5 }),
      {},
      ["network 'testnet' (solana): symbol must be a non-empty string"],
    ],
    [
      'tags that are not strings',
      withNetwork({ type: 'solana', network: 'testnet', rpc_urls: ['https://rpc.example/x'], tags: [1] }),
      {},
      ["network 'testnet' (solana): tags must be an array of non-empty strings"],
    ],
    [
      'a negative average_blocktime_ms',
      withNetwork({
        type: 'solana',
        network: 'testnet',
        rpc_urls: ['https://rpc.example/x'],
        average_blocktime_ms: -1,
      }),
      {},
      ["network 'testnet' (solana): average_blocktime_ms must be a whole number of at least 0"],
    ],
    [
      'a non-boolean is_testnet',
      withNetwork({
        type: 'solana',
        network: 'testnet',
        rpc_urls: ['https://rpc.example/x'],
        is_testnet: 'yes',
      }),
      {},
      ["network 'testnet' (solana): is_testnet must be a boolean"],
    ],
    [
      'a status_check that is not an object',
      withNetwork({
        type: 'evm',
        network: 'holesky',
        chain_id: 1,
        rpc_urls: ['https://rpc.example/x'],
        status_check: 30,
      }),
      {},
      [
        "network 'holesky' (evm): status_check must be an object of scalar values (strings, numbers, booleans)",
      ],
    ],
    [
      'a status_check holding an object',
      withNetwork({
        type: 'evm',
        network: 'holesky',
        chain_id: 1,
        rpc_urls: ['https://rpc.example/x'],
        status_check: { enabled: true, retry: { seconds: 5 } },
      }),
      {},
      ["network 'holesky' (evm): status_check.retry must be a string, a number or a boolean"],
    ],
    [
      'a status_check on a network that is not EVM',
      withNetwork({
        type: 'solana',
        network: 'testnet',
        rpc_urls: ['https://rpc.example/x'],
        status_check: { enabled: true },
      }),
      {},
      ["network 'testnet' (solana): status_check is read for EVM networks only"],
    ],
    [
      'an unknown signer type',
      withSigner({ id: 'vault-signer', type: 'vault', config: { key: plainSecret(ENV_KEY) } }),
      {},
      ['signer \'vault-signer\': unknown type "vault" (expected plain or local)'],
    ],
    [
      'a duplicate signer',
      withSigner(plainSigner('canary', plainSecret(ENV_KEY))),
      {},
      ["signer 'canary': defined more than once (first at signers[0])"],
    ],
    [
      'a signer id with a space',
      withSigner(plainSigner('bad id', plainSecret(ENV_KEY))),
      {},
      ['signers[1]: id must be 1 to 36 letters, digits, "-" or "_"'],
    ],
    [
      'a signer id of 37 characters',
      withSigner(plainSigner('x'.repeat(37), plainSecret(ENV_KEY))),
      {},
      ['signers[1]: id must be 1 to 36'],
    ],
    [
      'a missing environment variable',
      withSigner(plainSigner('env-signer', { type: 'env', value: 'MISSING_SIGNER_KEY' })),
      { OTHER: ENV_KEY },
      ["signer 'env-signer': key: environment variable MISSING_SIGNER_KEY is not set"],
    ],
    [
      'an empty environment variable',
      withSigner(plainSigner('env-signer', { type: 'env', value: 'EMPTY_SIGNER_KEY' })),
      { EMPTY_SIGNER_KEY: '' },
      ["signer 'env-signer': key: environment variable EMPTY_SIGNER_KEY is not set"],
    ],
    [
      'a key pasted where the variable name goes',
      withSigner(plainSigner('env-signer', { type: 'env', value: KEY_LOOKING_VARIABLE })),
      {},
      ["signer 'env-signer': key: value of an env secret must be the name of an environment variable"],
    ],
    [
      'an unknown secret type',
      withSigner(plainSigner('vault-key', { type: 'vault', value: ENV_KEY })),
      {},
      ["signer 'vault-key': key: secret type must be env, plain or generated"],
    ],
    [
      'a 31-byte key',
      withSigner(plainSigner('short-signer', plainSecret(ENV_KEY.slice(0, 62)))),
      {},
      ["signer 'short-signer': key must be 32 bytes as 64 hex characters"],
    ],
    [
      'a 33-byte key',
      withSigner(plainSigner('long-signer', plainSecret(`${ENV_KEY}ab`))),
      {},
      ["signer 'long-signer': key must be 32 bytes as 64 hex characters"],
    ],
    [
      'a 31-byte key from the environment',
      withSigner(plainSigner('env-signer', { type: 'env', value: 'SHORT_KEY' })),
      { SHORT_KEY: ENV_KEY.slice(0, 62) },
      ["signer 'env-signer': key must be 32 bytes as 64 hex characters"],
    ],
    [
      'a zero key',
      withSigner(plainSigner('zero-signer', plainSecret('00'.repeat(32)))),
      {},
      ["signer 'zero-signer': key is not a valid secp256k1 private key"],
    ],
    [
      'a key not below the curve order',
      withSigner(plainSigner('big-signer', plainSecret('ff'.repeat(32)))),
      {},
      ["signer 'big-signer': key is not a valid secp256k1 private key"],
    ],
    [
      'a generated keystore passphrase',
      withSigner({
        id: 'ks',
        type: 'local',
        config: { path: 'keys/ks.json', passphrase: { type: 'generated', value: 'ks.pass' } },
      }),
      {},
      ["signer 'ks': passphrase: secret type must be env or plain"],
    ],
    [
      'a local signer without a path',
      withSigner({ id: 'ks', type: 'local', config: { passphrase: plainSecret(PASSPHRASE) } }),
      {},
      ["signer 'ks': config.path must name an Ethereum v3 keystore file"],
    ],
    [
      'a missing keystore file',
      withSigner({
        id: 'ks',
        type: 'local',
        config: { path: 'keys/none.json', passphrase: plainSecret(PASSPHRASE) },
      }),
      {},
      ["signer 'ks': keystore file ", `${path.sep}keys${path.sep}none.json not found`],
    ],
  ])('%s', async (_name, config, env, expectedParts) => {
    const message = await loadError(await writeConfig(config), { env });
    for (const part of expectedParts) expect(message).toContain(part);
  });
});

describe('loadCatalogue: local signers (Ethereum v3 keystores)', () => {
  async function writeKeystore(relativePath: string): Promise<void> {
    // N = 1024 keeps the test fast; real keystores use 2^17 or more.
    const json = await encryptKeystoreJson({ address: KEY_1_ADDRESS, privateKey: KEY_1 }, PASSPHRASE, {
      scrypt: { N: 1024 },
    });
    const file = path.join(configDir, relativePath);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, json);
  }

  const localSigner = (passphrase: Json): Json => ({
    id: 'ks-signer',
    type: 'local',
    config: { path: 'keys/ks.json', passphrase },
  });

  it.each([
    ['an environment variable', { type: 'env', value: 'KS_PASSPHRASE' }],
    ['a plain value', plainSecret(PASSPHRASE)],
  ])(
    'decrypts the keystore (path relative to the config folder) with a passphrase from %s',
    async (_n, secret) => {
      await writeKeystore('keys/ks.json');
      const catalogue = await load(await writeConfig(withSigner(localSigner(secret))), {
        env: { KS_PASSPHRASE: PASSPHRASE },
      });
      expect(catalogue.signerAddress('ks-signer', 'evm')).toBe(KEY_1_ADDRESS);
      expect(catalogue.listSigners().find((s) => s.id === 'ks-signer')?.type).toBe('local');
    },
  );

  it('names the signer when the passphrase is wrong', async () => {
    await writeKeystore('keys/ks.json');
    const file = await writeConfig(withSigner(localSigner({ type: 'env', value: 'KS_PASSPHRASE' })));
    const message = await loadError(file, { env: { KS_PASSPHRASE: WRONG_PASSPHRASE } });
    expect(message).toBe(
      `CONFIG_FILE ${file}: signer 'ks-signer': wrong passphrase for keystore ${path.join(configDir, 'keys/ks.json')}`,
    );
  });

  it('names the signer when the file is not a keystore', async () => {
    await writeFile(path.join(configDir, 'ks.json'), JSON.stringify({ hello: 'world' }));
    const config = withSigner({
      id: 'ks-signer',
      type: 'local',
      config: { path: 'ks.json', passphrase: plainSecret(PASSPHRASE) },
    });
    expect(await loadError(await writeConfig(config))).toContain(
      `signer 'ks-signer': ${path.join(configDir, 'ks.json')} is not an Ethereum v3 keystore`,
    );
  });
});

describe('loadCatalogue: the generated development key', () => {
  const devConfig = (): Json =>
    withSigner(plainSigner('dev-signer', { type: 'generated', value: 'dev-signer.key' }));
  const keyFile = (): string => path.join(dataDir, 'dev-signer.key');

  it('is created once, mode 0600, in a data folder it creates, and announced without the key', async () => {
    const notices: string[] = [];
    const catalogue = await load(await writeConfig(devConfig()), { onNotice: (m) => notices.push(m) });

    const text = await readFile(keyFile(), 'utf8');
    expect(text).toMatch(/^[0-9a-f]{64}\n$/);
    expect((await stat(keyFile())).mode & 0o777).toBe(0o600);
    expect(catalogue.signerAddress('dev-signer', 'evm')).toBe(
      derivation.evmAddress(Buffer.from(text.trim(), 'hex')),
    );
    expect(notices).toEqual([`Generated the development key of signer 'dev-signer' in ${keyFile()}`]);
  });

  it('is reused on the next start', async () => {
    const file = await writeConfig(devConfig());
    const first = await load(file);
    const before = await readFile(keyFile(), 'utf8');
    const notices: string[] = [];
    const second = await load(file, { onNotice: (m) => notices.push(m) });

    expect(second.signerAddress('dev-signer', 'solana')).toBe(first.signerAddress('dev-signer', 'solana'));
    expect(await readFile(keyFile(), 'utf8')).toBe(before);
    expect(notices).toEqual([]);
  });

  it('is the same for instances that start at once, with no temporary file left over', async () => {
    const file = await writeConfig(devConfig());
    const catalogues = await Promise.all([load(file), load(file), load(file), load(file)]);
    const addresses = new Set(catalogues.map((c) => c.signerAddress('dev-signer', 'stellar')));
    expect(addresses.size).toBe(1);
    expect(await readdir(dataDir)).toEqual(['dev-signer.key']);
  });

  it('is refused in production, and nothing is generated', async () => {
    const message = await loadError(await writeConfig(devConfig()), { production: true });
    expect(message).toContain("signer 'dev-signer': a generated development key is refused in production");
    expect(message).toContain('configure a real key');
    await expect(stat(dataDir)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('is refused in production even when the key file exists', async () => {
    const file = await writeConfig(devConfig());
    await load(file);
    await expect(load(file, { production: true })).rejects.toThrow(CatalogueConfigError);
  });

  it('names the key file, not its content, when the file is corrupt', async () => {
    await mkdir(dataDir);
    await writeFile(keyFile(), ENV_KEY.slice(0, 40));
    const message = await loadError(await writeConfig(devConfig()));
    expect(message).toContain(
      `signer 'dev-signer': key file ${keyFile()}: key must be 32 bytes as 64 hex characters`,
    );
    expect(message).not.toContain(ENV_KEY.slice(0, 40));
  });
});

describe('loadCatalogue: networks from a folder', () => {
  const evm = (network: string, chainId: number): Json => ({
    type: 'evm',
    network,
    chain_id: chainId,
    rpc_urls: [`https://rpc.example/${network}`],
  });

  async function writeNetworkFiles(files: Record<string, unknown>): Promise<string> {
    const folder = path.join(configDir, 'networks');
    await mkdir(folder, { recursive: true });
    for (const [name, content] of Object.entries(files)) {
      await writeFile(
        path.join(folder, name),
        typeof content === 'string' ? content : JSON.stringify(content),
      );
    }
    return folder;
  }

  const folderConfig = (): Json => ({ networks: 'networks', signers: baseConfig().signers });

  it('reads every .json file (one network, an array, or {"networks": [...]}) in name order', async () => {
    await writeNetworkFiles({
      'a-evm.json': [evm('mainnet', 1), evm('sepolia', 11155111)],
      'b-solana.json': { type: 'solana', network: 'devnet', rpc_urls: ['https://rpc.example/devnet'] },
      'c-stellar.json': {
        networks: [
          { type: 'stellar', network: 'testnet', passphrase: 'Test', rpc_urls: ['https://rpc.example/s'] },
        ],
      },
      'README.md': 'not a network',
    });
    const catalogue = await load(await writeConfig(folderConfig()));
    expect(catalogue.listNetworks().map((n) => `${n.type}/${n.network}`)).toEqual([
      'evm/mainnet',
      'evm/sepolia',
      'solana/devnet',
      'stellar/testnet',
    ]);
  });

  it('names both files of a duplicate network', async () => {
    const folder = await writeNetworkFiles({ 'a.json': evm('base', 8453), 'b.json': [evm('base', 8453)] });
    expect(await loadError(await writeConfig(folderConfig()))).toContain(
      `network file ${path.join(folder, 'b.json')}: network 'base' (evm): defined more than once (first in ${path.join(folder, 'a.json')})`,
    );
  });

  it('names the network file of a bad entry', async () => {
    const folder = await writeNetworkFiles({
      'evm.json': [evm('mainnet', 1), { ...evm('base', 8453), chain_id: 0 }],
    });
    expect(await loadError(await writeConfig(folderConfig()))).toContain(
      `network file ${path.join(folder, 'evm.json')}: network 'base' (evm): chain_id must be a positive integer`,
    );
  });

  it('names the network file that is not JSON', async () => {
    const folder = await writeNetworkFiles({ 'evm.json': '[{"type": "evm",' });
    expect(await loadError(await writeConfig(folderConfig()))).toContain(
      `network file ${path.join(folder, 'evm.json')}: not valid JSON`,
    );
  });

  it('names a missing folder', async () => {
    expect(await loadError(await writeConfig(folderConfig()))).toContain(
      `networks folder ${path.join(configDir, 'networks')} not found`,
    );
  });

  it('names a folder without .json files', async () => {
    await writeNetworkFiles({ 'notes.txt': 'nothing here' });
    expect(await loadError(await writeConfig(folderConfig()))).toContain(
      `networks folder ${path.join(configDir, 'networks')} holds no .json file`,
    );
  });
});
