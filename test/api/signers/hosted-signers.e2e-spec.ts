import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ISO, relayerBody, uid } from '../../factories';
import { Anvil } from '../../support/anvil';
import { expectError, successBody } from '../../support/envelope';
import {
  AwsKmsFake,
  azureJwk,
  AzureKeyVaultFake,
  Ed25519TestKey,
  GoogleKmsFake,
  googleServiceAccountKey,
  resolveTestNamesToLoopback,
  Secp256k1TestKey,
  VaultFake,
} from '../../support/key-service-fakes';
import { secrets } from '../../support/secrets';
import { SolanaRpc } from '../../support/solana-rpc';
import { startTestApp, useTestApp } from '../../support/test-app';
import { writeConfigFile } from '../../support/test-catalogue';

const ETH = 10n ** 18n;
type Addresses = Partial<Record<'evm' | 'solana' | 'stellar', string>>;

/** The keys the tests hold; each key service answers the public half of one. */
const evmKey = new Secp256k1TestKey();
const solanaKey = new Ed25519TestKey();
const vaultSecret = new Secp256k1TestKey();
const vaultAddresses = {
  ...vaultSecret.addresses(),
  ...new Ed25519TestKey(vaultSecret.privateKey).addresses(),
};
secrets.add(evmKey.hex);
secrets.add(vaultSecret.hex);

const aws = new AwsKmsFake();
const vault = new VaultFake();
const google = new GoogleKmsFake();
const azure = new AzureKeyVaultFake();
const anvil = new Anvil();
const solanaRpc = new SolanaRpc();
const GOOGLE_KEY = 'projects/relayer-1/locations/global/keyRings/ring/cryptoKeys/evm/cryptoKeyVersions/1';
const googlePrivateKey = googleServiceAccountKey();
const googleEmail = secrets.add(
  `relayer-${randomBytes(4).toString('hex')}@relayer-1.iam.gserviceaccount.com`,
);
const turnkeyApiKey = secrets.add(randomBytes(32).toString('hex'));
const cdpSecrets = [
  secrets.add(`cdp-${randomBytes(12).toString('hex')}`),
  secrets.add(`w-${randomBytes(12).toString('hex')}`),
];

interface HostedCase {
  readonly type: string;
  readonly config: () => Record<string, unknown>;
  /** What a response shows of the config. */
  readonly shown: () => Record<string, unknown>;
  readonly addresses: Addresses;
}

const azureConfig = (keyName: string) => ({
  tenant_id: azure.tenantId,
  client_id: azure.clientId,
  client_secret: azure.clientSecret,
  vault_url: azure.vaultUrl(),
  key_name: keyName,
});
const azureShown = (keyName: string) => ({
  auth_type: 'client_secret',
  tenant_id: azure.tenantId,
  client_id: azure.clientId,
  vault_url: azure.vaultUrl(),
  key_name: keyName,
  key_version: null,
});
const vaultShown = () => ({ address: vault.url(), namespace: null, key_name: 'relayer', mount_point: null });

/** One signer of each hosted type (two curves where the service offers both). */
const CASES: Record<string, HostedCase> = {
  'aws_kms secp256k1': {
    type: 'aws_kms',
    config: () => ({ region: 'eu-west-1', key_id: 'alias/evm' }),
    shown: () => ({ region: 'eu-west-1', key_id: 'alias/evm' }),
    addresses: evmKey.addresses(),
  },
  'aws_kms ed25519': {
    type: 'aws_kms',
    config: () => ({ key_id: 'alias/solana' }),
    shown: () => ({ region: null, key_id: 'alias/solana' }),
    addresses: solanaKey.addresses(),
  },
  vault: {
    type: 'vault',
    config: () => ({
      address: vault.url(),
      role_id: vault.roleId,
      secret_id: vault.secretId,
      key_name: 'relayer',
    }),
    shown: vaultShown,
    addresses: vaultAddresses,
  },
  vault_transit: {
    type: 'vault_transit',
    config: () => ({
      address: vault.url(),
      role_id: vault.roleId,
      secret_id: vault.secretId,
      key_name: 'relayer',
      pubkey: solanaKey.publicKey.toString('base64'),
    }),
    shown: () => ({ ...vaultShown(), pubkey: solanaKey.publicKey.toString('base64') }),
    addresses: solanaKey.addresses(),
  },
  google_cloud_kms: {
    type: 'google_cloud_kms',
    config: () => ({
      service_account: {
        project_id: 'relayer-1',
        private_key_id: 'key-1',
        private_key: googlePrivateKey,
        client_email: googleEmail,
        client_id: '1234',
      },
      key: { key_ring_id: 'ring', key_id: 'evm' },
    }),
    shown: () => ({
      service_account: {
        project_id: 'relayer-1',
        client_id: '1234',
        auth_uri: 'https://accounts.google.com/o/oauth2/auth',
        token_uri: 'https://oauth2.googleapis.com/token',
        auth_provider_x509_cert_url: 'https://www.googleapis.com/oauth2/v1/certs',
        client_x509_cert_url: '',
        universe_domain: 'googleapis.com',
      },
      key: { location: 'global', key_ring_id: 'ring', key_id: 'evm', key_version: 1 },
    }),
    addresses: evmKey.addresses(),
  },
  'azure_key_vault P-256K': {
    type: 'azure_key_vault',
    config: () => azureConfig('evm'),
    shown: () => azureShown('evm'),
    addresses: evmKey.addresses(),
  },
  'azure_key_vault Ed25519': {
    type: 'azure_key_vault',
    config: () => azureConfig('solana'),
    shown: () => azureShown('solana'),
    addresses: solanaKey.addresses(),
  },
  turnkey: {
    type: 'turnkey',
    config: () => ({
      api_public_key: '02abcd',
      api_private_key: turnkeyApiKey,
      organization_id: 'org-1',
      private_key_id: 'pk-1',
      public_key: evmKey.point.getPublicKey('hex', 'uncompressed'),
    }),
    shown: () => ({
      api_public_key: '02abcd',
      organization_id: 'org-1',
      private_key_id: 'pk-1',
      public_key: evmKey.point.getPublicKey('hex', 'uncompressed'),
    }),
    addresses: evmKey.addresses(),
  },
  cdp: {
    type: 'cdp',
    config: () => ({
      api_key_id: 'key-1',
      api_key_secret: cdpSecrets[0],
      wallet_secret: cdpSecrets[1],
      account_address: evmKey.evm.toLowerCase(),
    }),
    shown: () => ({ api_key_id: 'key-1', account_address: evmKey.evm.toLowerCase() }),
    addresses: evmKey.addresses(),
  },
};
const NAMES = Object.keys(CASES);

const fileId = (name: string): string => `file-${name.replace(/[^a-z0-9]+/gi, '-')}`;

/** As the API takes it, with the vault credentials as the file's env secrets. */
function fileConfig(name: string): Record<string, unknown> {
  const config = CASES[name].config();
  if (CASES[name].type !== 'vault') return config;
  return {
    ...config,
    role_id: { type: 'env', value: 'VAULT_ROLE_ID' },
    secret_id: { type: 'env', value: 'VAULT_SECRET_ID' },
  };
}

/** A catalogue with an EVM network on anvil, and Solana and Stellar networks nobody answers. */
function writeCatalogue(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'relayer-hosted-'));
  const file = path.join(dir, 'config.json');
  const key = secrets.add(randomBytes(32).toString('hex'));
  fs.writeFileSync(
    file,
    JSON.stringify({
      networks: [
        { type: 'evm', network: 'anvil', chain_id: Anvil.CHAIN_ID, rpc_urls: [anvil.url] },
        { type: 'solana', network: 'devnet', rpc_urls: [solanaRpc.url()], is_testnet: true },
        {
          type: 'stellar',
          network: 'testnet',
          passphrase: 'Test SDF Network ; September 2015',
          rpc_urls: ['http://127.0.0.1:9/stellar'],
        },
      ],
      signers: [
        { id: 'file-signer', type: 'plain', config: { key: { type: 'plain', value: key } } },
        ...NAMES.map((name) => ({ id: fileId(name), type: CASES[name].type, config: fileConfig(name) })),
      ],
    }),
  );
  return file;
}

describe('signers held by key services (docs/reference/kms-signers.md)', () => {
  let configFile = '';
  // Spied while this spec runs, not from when it is loaded: another spec of its group restores its own.
  let dns: jest.SpyInstance | undefined;
  beforeAll(() => {
    dns = resolveTestNamesToLoopback();
  });
  afterAll(() => dns?.mockRestore());
  beforeAll(async () => {
    await Promise.all([
      aws.start(),
      vault.start(),
      google.start(),
      azure.start(),
      anvil.start(),
      solanaRpc.start(),
    ]);
    aws.keys.set('alias/evm', { spki: evmKey.spki(), spec: 'ECC_SECG_P256K1' });
    aws.keys.set('alias/solana', { spki: solanaKey.spki(), spec: 'ECC_NIST_EDWARDS25519' });
    vault.kv.set('secret/relayer', vaultSecret.hex);
    google.keys.set(GOOGLE_KEY, { spki: evmKey.spki(), algorithm: 'EC_SIGN_SECP256K1_SHA256' });
    azure.keys.set('evm', azureJwk.secp256k1(evmKey));
    azure.keys.set('solana', azureJwk.ed25519(solanaKey));
    // The AWS SDK's credential chain reads these from the environment, as in a deployment.
    process.env.AWS_ACCESS_KEY_ID = 'AKIATESTKEYSERVICE';
    process.env.AWS_SECRET_ACCESS_KEY = secrets.add(randomBytes(20).toString('base64'));
    configFile = writeCatalogue();
  });
  afterAll(async () => {
    await Promise.all([
      aws.close(),
      vault.close(),
      google.close(),
      azure.close(),
      anvil.stop(),
      solanaRpc.close(),
    ]);
  });
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'relayer-hosted-data-'));
  const env = () => ({
    CONFIG_FILE: configFile,
    DATA_DIR: dataDir,
    VAULT_ROLE_ID: vault.roleId,
    VAULT_SECRET_ID: vault.secretId,
    STORAGE_ENCRYPTION_KEY: secrets.add(randomBytes(32).toString('base64')),
    AWS_ENDPOINT_URL_KMS: aws.url(),
    GOOGLE_CLOUD_KMS_ENDPOINT: google.url(),
    AZURE_AUTHORITY_HOST: azure.url(),
    // The Azure fake is a vault of the operator's (a name, see resolveTestNamesToLoopback), and the
    // AWS signers use the service's own credentials: both through the API here.
    KEY_SERVICE_ALLOWED_HOSTS: AzureKeyVaultFake.HOST,
    KEY_SERVICE_AMBIENT_CREDENTIALS_IN_API: 'true',
    RELAYER_HEALTH_CHECKS: 'true',
    RELAYER_HEALTH_CHECK_INTERVAL_SECONDS: '3600',
    RELAYER_HEALTH_RETRY_SECONDS: '3600',
    RPC_TIMEOUT_MS: '1000',
  });
  const handle = useTestApp(env);
  const app = () => handle.current;
  const fakes = [aws, vault, google, azure];
  const callCounts = () => fakes.map((fake) => fake.calls.length);
  let callsAtStart: number[] = [];
  // After the app's start (useTestApp's beforeAll runs first): what the file's signers cost.
  beforeAll(() => {
    callsAtStart = callCounts();
    for (const fake of fakes) fake.calls = [];
  });
  const ids = new Map<string, string>();

  const create = async (name: string) => {
    const c = CASES[name];
    const id = uid(c.type.replace(/_/g, '').slice(0, 8));
    const res = await app().post('/api/v1/signers', { id, type: c.type, config: c.config() });
    ids.set(name, id);
    return { id, res };
  };

  it.each(NAMES)(
    '%s: 201 with the non-secret config and the addresses of the key the test holds; get and list agree',
    async (name) => {
      const c = CASES[name];
      const { id, res } = await create(name);
      const expected = { id, type: c.type, config: c.shown(), addresses: c.addresses };
      expect({ status: res.status, body: res.body as unknown }).toEqual({
        status: 201,
        body: successBody(expected),
      });
      expect((await app().get(`/api/v1/signers/${id}`).expect(200)).body).toEqual(successBody(expected));
      const list = await app().get('/api/v1/signers?per_page=100').expect(200);
      expect((list.body as { data: unknown[] }).data).toContainEqual(expected);
      expect(secrets.foundIn(res.text + list.text)).toEqual([]);
    },
  );

  it.each(NAMES)(
    '%s in the configuration file: read at start, shown with its type, config and addresses',
    async (name) => {
      const c = CASES[name];
      const id = fileId(name);
      const expected = { id, type: c.type, config: c.shown(), addresses: c.addresses };
      expect((await app().get(`/api/v1/signers/${id}`).expect(200)).body).toEqual(successBody(expected));
      const network = c.addresses.evm
        ? { type: 'evm', network: 'anvil' }
        : { type: 'solana', network: 'devnet' };
      const relayer = await app()
        .post(
          '/api/v1/relayers',
          relayerBody(network.type as 'evm', { network: network.network, signer_id: id }),
        )
        .expect(201);
      expect((relayer.body as { data: { address: string } }).data.address).toBe(
        c.addresses[network.type as 'evm' | 'solana'],
      );
    },
  );

  it('the start called each key service once per file signer that needs it (Azure: challenge, token, key)', () => {
    expect(callsAtStart).toEqual([2, 2, 1, 6]);
  });

  it('a second start on the same file and data folder reuses the addresses: no call', async () => {
    const before = callCounts();
    const second = await startTestApp({ DATABASE_URL: handle.database.url, ...env() });
    try {
      const res = await second.get(`/api/v1/signers/${fileId('aws_kms secp256k1')}`).expect(200);
      expect((res.body as { data: { addresses: Addresses } }).data.addresses).toEqual(evmKey.addresses());
    } finally {
      await second.close();
    }
    expect(callCounts()).toEqual(before);
  });

  it('a start on a file whose key service is down is refused naming the signer and the service', async () => {
    const entry = {
      id: 'file-down',
      type: 'vault',
      config: { ...CASES.vault.config(), address: 'http://127.0.0.1:9' },
    };
    const catalogue = JSON.parse(fs.readFileSync(configFile, 'utf8')) as { signers: unknown[] };
    const file = writeConfigFile({ ...catalogue, signers: [entry] });
    await expect(
      startTestApp({ DATABASE_URL: handle.database.url, ...env(), CONFIG_FILE: file, DATA_DIR: undefined }),
    ).rejects.toThrow(
      /signer 'file-down'.*Signer file-down: HashiCorp Vault \(vault\) could not be reached: no answer/,
    );
  });

  it('calls each key service once per create, and reads nothing later', async () => {
    const before = [aws.calls.length, vault.calls.length, google.calls.length, azure.calls.length];
    for (const id of ids.values()) await app().get(`/api/v1/signers/${id}`).expect(200);
    await app().get('/api/v1/signers?per_page=100').expect(200);
    expect([aws.calls.length, vault.calls.length, google.calls.length, azure.calls.length]).toEqual(before);
    // vault_transit, turnkey and cdp give their public key: the vault calls are the vault signer's.
    expect(vault.calls).toEqual(['POST /v1/auth/approle/login', 'GET /v1/secret/data/relayer']);
  });

  const evmCases = NAMES.filter((name) => CASES[name].addresses.evm !== undefined);
  it.each(evmCases)(
    '%s: a relayer on evm gets the address, is health-checked on anvil with it; solana is refused naming signer_id',
    async (name) => {
      const signerId = ids.get(name) ?? '';
      const body = relayerBody('evm', { name: 'hosted', network: 'anvil', signer_id: signerId });
      const created = await app().post('/api/v1/relayers', body).expect(201);
      const relayer = (created.body as { data: { id: string; address: string } }).data;
      expect(relayer.address).toBe(CASES[name].addresses.evm);
      await anvil.setBalance(relayer.address, 3n * ETH);
      const status = await app().post(`/api/v1/relayers/${relayer.id}/check`).expect(200);
      expect(status.body).toEqual(
        successBody({
          network_type: 'evm',
          balance: String(3n * ETH),
          paused: false,
          system_disabled: false,
          pending_transactions_count: 0,
          last_confirmed_transaction_timestamp: null,
          low_balance: null,
          nonce: '0',
          checked_at: ISO,
        }),
      );
      if (CASES[name].addresses.solana === undefined) {
        expectError(
          await app().post(
            '/api/v1/relayers',
            relayerBody('solana', { network: 'devnet', signer_id: signerId }),
          ),
          400,
          `signer_id must name a signer that can sign for solana networks (signer '${signerId}' signs for evm)`,
        );
      }
    },
  );

  const ed25519Cases = NAMES.filter((name) => CASES[name].addresses.evm === undefined);
  it.each(ed25519Cases)(
    '%s: relayers on solana (health-checked with its address) and stellar get its addresses; evm is refused naming signer_id',
    async (name) => {
      const signerId = ids.get(name) ?? '';
      for (const type of ['solana', 'stellar'] as const) {
        const network = type === 'solana' ? 'devnet' : 'testnet';
        const res = await app()
          .post('/api/v1/relayers', relayerBody(type, { network, signer_id: signerId }))
          .expect(201);
        const relayer = (res.body as { data: { id: string; address: string } }).data;
        expect(relayer.address).toBe(CASES[name].addresses[type]);
        if (type === 'solana') {
          solanaRpc.setBalance(relayer.address, 2_500_000_000n);
          const status = await app().post(`/api/v1/relayers/${relayer.id}/check`).expect(200);
          expect(status.body).toEqual(
            successBody({
              network_type: 'solana',
              balance: '2500000000',
              paused: false,
              system_disabled: false,
              pending_transactions_count: 0,
              last_confirmed_transaction_timestamp: null,
              low_balance: null,
              checked_at: ISO,
            }),
          );
        }
      }
      expectError(
        await app().post('/api/v1/relayers', relayerBody('evm', { network: 'anvil', signer_id: signerId })),
        400,
        `signer_id must name a signer that can sign for evm networks (signer '${signerId}' signs for ${Object.keys(CASES[name].addresses).join(', ')})`,
      );
    },
  );

  it.each([
    ['aws_kms', 'AWS KMS', 'GetPublicKey answered 503'],
    ['vault', 'HashiCorp Vault', 'POST /v1/auth/approle/login answered 503'],
    ['google_cloud_kms', 'Google Cloud KMS', 'getPublicKey answered 503'],
    ['azure_key_vault', 'Azure Key Vault', 'getKey answered 503'],
  ] as const)(
    '%s answering 503: 503 naming the signer and the service, nothing stored',
    async (type, service, reason) => {
      const fake = { aws_kms: aws, vault, google_cloud_kms: google, azure_key_vault: azure }[type];
      const name = NAMES.find((n) => CASES[n].type === type) ?? '';
      const id = uid('down');
      fake.answerStatus = 503;
      try {
        expectError(
          await app().post('/api/v1/signers', { id, type, config: CASES[name].config() }),
          503,
          `Signer ${id}: ${service} (${type}) could not be reached: ${reason}`,
        );
      } finally {
        fake.answerStatus = null;
      }
      expectError(await app().get(`/api/v1/signers/${id}`), 404, `Signer with ID ${id} not found`);
    },
  );

  it('a key service nobody answers at: 503, nothing stored', async () => {
    const id = uid('down');
    const config = { ...CASES.vault.config(), address: 'http://127.0.0.1:9' };
    expectError(
      await app().post('/api/v1/signers', { id, type: 'vault', config }),
      503,
      `Signer ${id}: HashiCorp Vault (vault) could not be reached: no answer`,
    );
    expectError(await app().get(`/api/v1/signers/${id}`), 404, `Signer with ID ${id} not found`);
  });

  it('private key services: refused when KEY_SERVICE_BLOCK_PRIVATE_IPS is true, unless KEY_SERVICE_PRIVATE_HOSTS lists them', async () => {
    const blocking = { DATABASE_URL: handle.database.url, ...env(), KEY_SERVICE_BLOCK_PRIVATE_IPS: 'true' };
    const strict = await startTestApp({ ...blocking, DATA_DIR: undefined, CONFIG_FILE: undefined });
    const before = vault.calls.length;
    try {
      expectError(
        await strict.post('/api/v1/signers', {
          id: uid('private'),
          type: 'vault',
          config: CASES.vault.config(),
        }),
        400,
        'config.address points to a private or loopback address (set KEY_SERVICE_BLOCK_PRIVATE_IPS=false to allow private addresses)',
      );
      expect(vault.calls.length).toBe(before);
    } finally {
      await strict.close();
    }
    const listed = await startTestApp({
      ...blocking,
      DATA_DIR: undefined,
      CONFIG_FILE: undefined,
      KEY_SERVICE_PRIVATE_HOSTS: '127.0.0.1',
    });
    try {
      const id = uid('private');
      const res = await listed.post('/api/v1/signers', { id, type: 'vault', config: CASES.vault.config() });
      expect({ status: res.status, body: res.body as unknown }).toEqual({
        status: 201,
        body: successBody({ id, type: 'vault', config: vaultShown(), addresses: vaultAddresses }),
      });
    } finally {
      await listed.close();
    }
  });

  it('a bad config is a 400 naming every field, before any call', async () => {
    const before = aws.calls.length;
    expectError(
      await app().post('/api/v1/signers', {
        id: uid('bad'),
        type: 'aws_kms',
        config: { region: 1, extra: true },
      }),
      400,
      'config.extra is not an allowed field; config.key_id is required; config.region must be a non-empty string',
    );
    expectError(
      await app().post('/api/v1/signers', {
        id: uid('bad'),
        type: 'turnkey',
        config: { ...CASES.turnkey.config(), public_key: 'zz' },
      }),
      400,
      'config.public_key must be a secp256k1 public key (hex, 33 or 65 bytes) or an ed25519 one (hex or base64, 32 bytes)',
    );
    expect(aws.calls.length).toBe(before);
  });

  it('the export (GET /api/v1/config) keeps the shown fields and names each credential as an env variable', async () => {
    const SECRET_FIELDS: Record<string, ReadonlyArray<readonly [string | null, string]>> = {
      aws_kms: [],
      vault: [
        [null, 'role_id'],
        [null, 'secret_id'],
      ],
      vault_transit: [
        [null, 'role_id'],
        [null, 'secret_id'],
      ],
      google_cloud_kms: [
        ['service_account', 'private_key_id'],
        ['service_account', 'private_key'],
        ['service_account', 'client_email'],
      ],
      azure_key_vault: [[null, 'client_secret']],
      turnkey: [[null, 'api_private_key']],
      cdp: [
        [null, 'api_key_secret'],
        [null, 'wallet_secret'],
      ],
    };
    const res = await app().get('/api/v1/config').expect(200);
    expect(secrets.foundIn(res.text)).toEqual([]);
    const exported = (res.body as { data: { signers: Array<{ id: string }> } }).data.signers;
    for (const name of NAMES) {
      const id = ids.get(name) ?? '';
      const { type } = CASES[name];
      const config = structuredClone(CASES[name].shown()) as Record<string, Record<string, unknown>>;
      for (const [group, field] of SECRET_FIELDS[type]) {
        const variable = `SIGNER_${id.toUpperCase().replace(/[^A-Z0-9]/g, '_')}_${(group ? `${group}_${field}` : field).toUpperCase()}`;
        (group ? config[group] : (config as Record<string, unknown>))[field] = {
          type: 'env',
          value: variable,
        };
      }
      expect(exported.find((signer) => signer.id === id)).toEqual({ id, type, config });
    }
  });

  it('no credential in the log, the audit trail or the database bytes; the stored ones are encrypted', async () => {
    const audit = await app().get('/api/v1/audit?resource_type=signer&per_page=100').expect(200);
    expect(secrets.foundIn(audit.text)).toEqual([]);
    const dump = await handle.database.dump();
    expect(secrets.foundIn(dump)).toEqual([]);
    expect(secrets.foundIn(app().logText())).toEqual([]);
  });
});
