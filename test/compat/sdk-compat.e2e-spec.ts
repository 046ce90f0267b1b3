import {
  Configuration,
  HealthApi,
  MetricsApi,
  NetworksApi,
  NotificationsApi,
  NotificationType,
  PluginsApi,
  RelayerNetworkType,
  RelayersApi,
  SignersApi,
  SignerTypeRequest,
  type CreateRelayerRequest,
  type SignerCreateRequest,
  type UpdateNetworkRequest,
} from '@openzeppelin/relayer-sdk';
import { base58 } from '@scure/base';
import { Keypair } from '@stellar/stellar-base';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { privateKeyToAddress } from 'viem/accounts';
import { Anvil } from '../support/anvil';
import { errorBody, successBody } from '../support/envelope';
import { secrets } from '../support/secrets';
import { defaultCatalogue, useTestApp, type TestApp } from '../support/test-app';
import { KEY1 } from '../support/test-catalogue';
import { waitFor } from '../support/wait';
import { ISO, NETWORK, type NetworkType, uid, UUID_V4 } from '../factories';

/*
 * The official TypeScript client of the reference system, @openzeppelin/relayer-sdk 1.10.0, against
 * the service: every SDK method whose route the service offers, success and refusal, with nothing
 * but the SDK on the wire. The README's "Using the official SDK" table points at these tests.
 */

const ETH = 10n ** 18n;
const newKey = (): string => secrets.add(randomBytes(32).toString('hex'));
const encryptionKey = secrets.add(randomBytes(32).toString('base64'));

interface Sdk {
  relayers: RelayersApi;
  notifications: NotificationsApi;
  signers: SignersApi;
  networks: NetworksApi;
  health: HealthApi;
  metrics: MetricsApi;
  plugins: PluginsApi;
  /**
   * Request options with the Authorization header the configuration sends. SDK 1.10.0 sends none
   * with listMetrics and scrapeMetrics (the reference system serves them without a key); here they
   * stay behind the key (docs/reference/running.md#4-metrics), so a client passes it like this.
   */
  auth: { headers: Record<string, string> };
}

/** The SDK's API classes, configured as its README shows; a null token sends no Authorization header. */
function sdkFor(app: TestApp, accessToken: string | null = app.apiKey): Sdk {
  const configuration = new Configuration({ basePath: app.baseUrl, accessToken: accessToken ?? undefined });
  return {
    relayers: new RelayersApi(configuration),
    notifications: new NotificationsApi(configuration),
    signers: new SignersApi(configuration),
    networks: new NetworksApi(configuration),
    health: new HealthApi(configuration),
    metrics: new MetricsApi(configuration),
    plugins: new PluginsApi(configuration),
    auth: { headers: accessToken === null ? {} : { Authorization: `Bearer ${accessToken}` } },
  };
}

/** A refused call as the SDK reports it: axios's error, whose response holds status and body. */
interface Refusal {
  status: number;
  data: unknown;
}

function isHttpError(error: unknown): error is { isAxiosError: true; response: Refusal } {
  if (typeof error !== 'object' || error === null) return false;
  const { isAxiosError, response } = error as { isAxiosError?: unknown; response?: unknown };
  return (
    isAxiosError === true &&
    typeof response === 'object' &&
    response !== null &&
    typeof (response as { status?: unknown }).status === 'number'
  );
}

async function refusal(call: Promise<unknown>): Promise<Refusal> {
  const outcome = await call.then(
    () => ({ settled: 'resolved' as const }),
    (error: unknown) => ({ settled: 'rejected' as const, error }),
  );
  if (outcome.settled === 'resolved') throw new Error('the SDK call succeeded where a refusal was expected');
  if (!isHttpError(outcome.error)) throw outcome.error;
  return { status: outcome.error.response.status, data: outcome.error.response.data };
}

const refused = (status: number, message: string | RegExp): Refusal => ({
  status,
  data: errorBody(typeof message === 'string' ? message : expect.stringMatching(message)),
});

/** An SDK answer reduced to what a client reads: the status and the body. */
const answer = <T>(res: { status: number; data: T }): { status: number; body: T } => ({
  status: res.status,
  body: res.data,
});

/** The addresses of a 32-byte key, each from a library of its own network (not the service's code). */
function addressesOf(hex: string): { evm: string; solana: string; stellar: string } {
  const keypair = Keypair.fromRawEd25519Seed(Buffer.from(hex, 'hex'));
  return {
    evm: privateKeyToAddress(`0x${hex}`),
    solana: base58.encode(keypair.rawPublicKey()),
    stellar: keypair.publicKey(),
  };
}

const SDK_NETWORK_TYPE: Record<NetworkType, RelayerNetworkType> = {
  evm: RelayerNetworkType.EVM,
  solana: RelayerNetworkType.SOLANA,
  stellar: RelayerNetworkType.STELLAR,
};
const KEY1_ADDRESS: Record<NetworkType, string> = {
  evm: KEY1.evm,
  solana: KEY1.solana,
  stellar: KEY1.stellar,
};
const DEFAULT_POLICIES: Record<NetworkType, object | null> = {
  evm: null,
  solana: { fee_payment_strategy: 'user' },
  stellar: null,
};

/** The relayer the service answers for a create with only the required fields. */
const plainRelayer = (request: CreateRelayerRequest, address: string) => ({
  id: request.id,
  name: request.name,
  network: request.network,
  network_type: request.network_type,
  address,
  signer_id: request.signer_id,
  notification_id: null,
  paused: request.paused,
  system_disabled: false,
  disabled_reason: null,
  custom_rpc_urls: null,
  policies: DEFAULT_POLICIES[request.network_type],
  created_at: ISO,
  updated_at: ISO,
});

/** The catalogue's networks (test/support/test-catalogue.ts) as NetworkResponse, URLs masked. */
const NETWORKS = [
  {
    id: 'evm:sepolia',
    name: 'sepolia',
    network_type: 'evm',
    rpc_urls: [{ url: 'https://rpc.example.com/v2/***', weight: 100 }],
    is_testnet: true,
    chain_id: 11155111,
  },
  {
    id: 'evm:mainnet',
    name: 'mainnet',
    network_type: 'evm',
    rpc_urls: [{ url: 'https://rpc.example.com/***', weight: 100 }],
    is_testnet: false,
    chain_id: 1,
  },
  {
    id: 'solana:devnet',
    name: 'devnet',
    network_type: 'solana',
    rpc_urls: [{ url: 'https://rpc.example.com/***', weight: 100 }],
    is_testnet: true,
  },
  {
    id: 'solana:mainnet-beta',
    name: 'mainnet-beta',
    network_type: 'solana',
    rpc_urls: [{ url: 'https://rpc.example.com/***', weight: 100 }],
    is_testnet: false,
  },
  {
    id: 'stellar:testnet',
    name: 'testnet',
    network_type: 'stellar',
    rpc_urls: [{ url: 'https://rpc.example.com/***', weight: 100 }],
    is_testnet: true,
    passphrase: 'Test SDF Network ; September 2015',
  },
  {
    id: 'stellar:mainnet',
    name: 'mainnet',
    network_type: 'stellar',
    rpc_urls: [{ url: 'https://rpc.example.com/***', weight: 100 }],
    is_testnet: false,
    passphrase: 'Public Global Stellar Network ; September 2015',
  },
];

const KEY1_SIGNER = {
  id: KEY1.id,
  type: 'local',
  config: {},
  addresses: { evm: KEY1.evm, solana: KEY1.solana, stellar: KEY1.stellar },
};

describe('Relayers: RelayersApi create, get, update, delete, status and balance', () => {
  const handle = useTestApp();
  const sdk = () => sdkFor(handle.current);
  const request = (
    type: NetworkType = 'evm',
    extra: Partial<CreateRelayerRequest> = {},
  ): CreateRelayerRequest => ({
    id: uid('relayer'),
    name: `SDK ${type} relayer`,
    network: NETWORK[type],
    network_type: SDK_NETWORK_TYPE[type],
    paused: false,
    signer_id: defaultCatalogue().nextSigner(),
    ...extra,
  });

  it.each(['evm', 'solana', 'stellar'] as const)(
    'createRelayer (%s) → 201 with the RelayerResponse; getRelayer answers the same',
    async (type) => {
      const body = request(type, { signer_id: KEY1.id, paused: true });
      const created = await sdk().relayers.createRelayer(body);
      expect(answer(created)).toEqual({
        status: 201,
        body: successBody(plainRelayer(body, KEY1_ADDRESS[type])),
      });
      const read = await sdk().relayers.getRelayer(body.id ?? '');
      expect(answer(read)).toEqual({ status: 200, body: created.data });
    },
  );

  it('createRelayer with every optional field: notification, masked custom RPC URLs, policies', async () => {
    const hook = (await sdk().notifications.createNotification({ url: 'https://hooks.example.com/sdk' })).data
      .data?.id;
    const rpcKey = secrets.add(`key${randomBytes(8).toString('hex')}`);
    const body = request('evm', {
      notification_id: hook,
      custom_rpc_urls: [{ url: `https://rpc.example.com/v2/${rpcKey}`, weight: 80 }],
      policies: { eip1559_pricing: true, min_balance: 1000, gas_price_cap: 300000000000 },
    });
    const created = await sdk().relayers.createRelayer(body);
    expect(answer(created)).toEqual({
      status: 201,
      body: successBody({
        ...plainRelayer(body, expect.stringMatching(/^0x[0-9a-fA-F]{40}$/) as unknown as string),
        notification_id: hook,
        custom_rpc_urls: [{ url: 'https://rpc.example.com/v2/***', weight: 80 }],
        policies: { eip1559_pricing: true, min_balance: 1000, gas_price_cap: 300000000000 },
      }),
    });
    expect(JSON.stringify(created.data)).not.toContain(rpcKey);
  });

  it('createRelayer without an id → a UUID v4 id', async () => {
    const body = request('solana');
    delete body.id;
    const created = await sdk().relayers.createRelayer(body);
    expect({ status: created.status, id: created.data.data?.id }).toEqual({
      status: 201,
      id: UUID_V4,
    });
  });

  it('createRelayer with a used id → 409', async () => {
    const body = request();
    await sdk().relayers.createRelayer(body);
    expect(
      await refusal(sdk().relayers.createRelayer({ ...body, signer_id: defaultCatalogue().nextSigner() })),
    ).toEqual(refused(409, 'Relayer with this ID already exists'));
  });

  it.each<[string, Partial<CreateRelayerRequest>, string]>([
    ['a blank name', { name: '   ' }, 'name must be 1 to 255 characters, not only whitespace'],
    ['an unknown network', { network: 'atlantis' }, "Network 'atlantis' not found for network type 'evm'"],
    ['an unknown signer', { signer_id: 'no-such-signer' }, 'Signer with ID no-such-signer not found'],
    [
      'an unknown notification',
      { notification_id: 'no-such-hook' },
      'Notification with ID no-such-hook not found',
    ],
    [
      'a weight over 100',
      { custom_rpc_urls: [{ url: 'https://rpc.example.com', weight: 101 }] },
      'custom_rpc_urls[0].weight must be a whole number from 0 to 100',
    ],
    ['an address in the body', { address: '0xabc' }, 'address is not an allowed field'],
  ])('createRelayer with %s → 400 naming it', async (_case, extra, message) => {
    expect(await refusal(sdk().relayers.createRelayer(request('evm', extra)))).toEqual(refused(400, message));
  });

  it('getRelayer of an unknown id → 404', async () => {
    expect(await refusal(sdk().relayers.getRelayer('no-such-relayer'))).toEqual(
      refused(404, 'Relayer with ID no-such-relayer not found'),
    );
  });

  it('updateRelayer merges name, paused, policies and RPC URLs; a masked URL sent back keeps its key', async () => {
    const rpcKey = secrets.add(`key${randomBytes(8).toString('hex')}`);
    const body = request('evm', {
      custom_rpc_urls: [{ url: `https://rpc.example.com/v2/${rpcKey}`, weight: 80 }],
      policies: { eip1559_pricing: true, min_balance: 1000 },
    });
    const created = (await sdk().relayers.createRelayer(body)).data.data;
    const read = created?.custom_rpc_urls ?? [];
    const updated = await sdk().relayers.updateRelayer(body.id ?? '', {
      name: 'Renamed through the SDK',
      paused: true,
      policies: { gas_price_cap: 5 },
      custom_rpc_urls: [...read, { url: 'https://backup.example.com/rpc?apikey=abc', weight: 20 }],
    });
    const expected = {
      ...created,
      name: 'Renamed through the SDK',
      paused: true,
      policies: { eip1559_pricing: true, min_balance: 1000, gas_price_cap: 5 },
      custom_rpc_urls: [
        { url: 'https://rpc.example.com/v2/***', weight: 80 },
        { url: 'https://backup.example.com/***?apikey=***', weight: 20 },
      ],
      updated_at: ISO,
    };
    expect(answer(updated)).toEqual({ status: 200, body: successBody(expected) });
    expect((await sdk().relayers.getRelayer(body.id ?? '')).data).toEqual(updated.data);
    // The first URL still stands for the stored one: sending it back again is accepted, not a 400.
    const again = await sdk().relayers.updateRelayer(body.id ?? '', {
      custom_rpc_urls: updated.data.data?.custom_rpc_urls ?? [],
    });
    expect(answer(again)).toEqual({ status: 200, body: successBody(expected) });
  });

  it('updateRelayer with {} → 200 and the relayer unchanged', async () => {
    const body = request('stellar');
    const created = await sdk().relayers.createRelayer(body);
    const updated = await sdk().relayers.updateRelayer(body.id ?? '', {});
    expect(answer(updated)).toEqual({ status: 200, body: created.data });
  });

  it('updateRelayer of an unknown id → 404; a field that cannot change → 400', async () => {
    expect(await refusal(sdk().relayers.updateRelayer('no-such-relayer', { paused: true }))).toEqual(
      refused(404, 'Relayer with ID no-such-relayer not found'),
    );
    const body = request('evm');
    await sdk().relayers.createRelayer(body);
    expect(await refusal(sdk().relayers.updateRelayer(body.id ?? '', { signer_id: KEY1.id }))).toEqual(
      refused(400, 'signer_id is not an allowed field'),
    );
    expect(
      await refusal(sdk().relayers.updateRelayer(body.id ?? '', { notification_id: 'no-such-hook' })),
    ).toEqual(refused(400, 'Notification with ID no-such-hook not found'));
    expect(
      await refusal(sdk().relayers.updateRelayer(body.id ?? '', { policies: { max_signatures: 2 } })),
    ).toEqual(refused(400, 'policies.max_signatures is not an allowed field'));
  });

  it('deleteRelayer → 200 "Relayer deleted successfully", then 404 for get and delete', async () => {
    const body = request('solana');
    await sdk().relayers.createRelayer(body);
    const deleted = await sdk().relayers.deleteRelayer(body.id ?? '');
    expect(answer(deleted)).toEqual({ status: 200, body: successBody('Relayer deleted successfully') });
    const notFound = refused(404, `Relayer with ID ${body.id} not found`);
    expect(await refusal(sdk().relayers.getRelayer(body.id ?? ''))).toEqual(notFound);
    expect(await refusal(sdk().relayers.deleteRelayer(body.id ?? ''))).toEqual(notFound);
  });

  it.each([
    ['evm', { nonce: '0' }],
    ['solana', {}],
    ['stellar', { sequence_number: '0' }],
  ] as const)(
    'getRelayerStatus (%s) before any check (checks are off here) → the SDK status shape with balance "0"',
    async (type, counter) => {
      const body = request(type, { paused: true });
      await sdk().relayers.createRelayer(body);
      const status = await sdk().relayers.getRelayerStatus(body.id ?? '');
      expect(answer(status)).toEqual({
        status: 200,
        body: successBody({
          network_type: type,
          balance: '0',
          paused: true,
          system_disabled: false,
          pending_transactions_count: 0,
          last_confirmed_transaction_timestamp: null,
          ...counter,
          checked_at: null,
        }),
      });
      const balance = await sdk().relayers.getRelayerBalance(body.id ?? '');
      const unit = { evm: 'wei', solana: 'lamport', stellar: 'stroop' }[type];
      expect(answer(balance)).toEqual({ status: 200, body: successBody({ balance: 0, unit }) });
    },
  );

  it('getRelayerStatus and getRelayerBalance of an unknown id → 404', async () => {
    const notFound = refused(404, 'Relayer with ID no-such-relayer not found');
    expect(await refusal(sdk().relayers.getRelayerStatus('no-such-relayer'))).toEqual(notFound);
    expect(await refusal(sdk().relayers.getRelayerBalance('no-such-relayer'))).toEqual(notFound);
  });
});

describe('Anvil: RelayersApi status and balance against a real node', () => {
  const anvil = new Anvil();
  const lowKey = newKey();
  let file = '';
  beforeAll(async () => {
    await anvil.start();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'relayer-sdk-anvil-'));
    file = path.join(dir, 'config.json');
    fs.writeFileSync(
      file,
      JSON.stringify({
        networks: [{ type: 'evm', network: 'anvil', chain_id: Anvil.CHAIN_ID, rpc_urls: [anvil.url] }],
        signers: [
          { id: KEY1.id, type: 'plain', config: { key: { type: 'plain', value: KEY1.hex } } },
          { id: 'anvil-low', type: 'plain', config: { key: { type: 'plain', value: lowKey } } },
        ],
      }),
    );
  });
  const handle = useTestApp(() => ({
    CONFIG_FILE: file,
    RELAYER_HEALTH_CHECKS: 'true',
    RELAYER_HEALTH_CHECK_INTERVAL_SECONDS: '3600',
    RELAYER_HEALTH_RETRY_SECONDS: '3600',
    RPC_TIMEOUT_MS: '1000',
  }));
  afterAll(async () => {
    await anvil.stop();
  });
  const sdk = () => sdkFor(handle.current);

  /** The status once the check that runs by itself after create has run (checked_at is set). */
  const checkedStatus = (id: string) =>
    waitFor(
      `the first check of ${id}`,
      async () => {
        const status = await sdk().relayers.getRelayerStatus(id);
        const data = status.data.data as { checked_at?: string | null } | undefined;
        return typeof data?.checked_at === 'string' && status;
      },
      { timeoutMs: 15_000 },
    );

  it('a funded relayer: status with balance and nonce from the node, balance in wei', async () => {
    await anvil.setBalance(KEY1.evm, 5n * ETH);
    await anvil.setNonce(KEY1.evm, 7);
    const id = uid('anvil');
    const created = await sdk().relayers.createRelayer({
      id,
      name: 'funded',
      network: 'anvil',
      network_type: RelayerNetworkType.EVM,
      paused: false,
      signer_id: KEY1.id,
      policies: { min_balance: Number(ETH) },
    });
    expect(created.data.data).toMatchObject({ address: KEY1.evm, system_disabled: false });
    const status = await checkedStatus(id);
    expect(answer(status)).toEqual({
      status: 200,
      body: successBody({
        network_type: 'evm',
        balance: String(5n * ETH),
        paused: false,
        system_disabled: false,
        pending_transactions_count: 0,
        last_confirmed_transaction_timestamp: null,
        nonce: '7',
        checked_at: ISO,
      }),
    });
    // 5 ETH in wei is exactly representable as a double, so the SDK's number holds every digit.
    const balance = await sdk().relayers.getRelayerBalance(id);
    expect(answer(balance)).toEqual({
      status: 200,
      body: successBody({ balance: Number(5n * ETH), unit: 'wei' }),
    });
  });

  it('an empty relayer below min_balance: the SDK reads BalanceCheckFailed in getRelayer', async () => {
    const id = uid('anvil');
    await sdk().relayers.createRelayer({
      id,
      name: 'empty',
      network: 'anvil',
      network_type: RelayerNetworkType.EVM,
      paused: false,
      signer_id: 'anvil-low',
      policies: { min_balance: 1000 },
    });
    const status = await checkedStatus(id);
    expect(answer(status)).toEqual({
      status: 200,
      body: successBody({
        network_type: 'evm',
        balance: '0',
        paused: false,
        system_disabled: true,
        pending_transactions_count: 0,
        last_confirmed_transaction_timestamp: null,
        nonce: '0',
        checked_at: ISO,
      }),
    });
    const relayer = await sdk().relayers.getRelayer(id);
    expect(relayer.data.data).toMatchObject({
      address: addressesOf(lowKey).evm,
      system_disabled: true,
      disabled_reason: { type: 'BalanceCheckFailed', details: 'balance 0 is below min_balance 1000' },
    });
    expect(answer(await sdk().relayers.getRelayerBalance(id))).toEqual({
      status: 200,
      body: successBody({ balance: 0, unit: 'wei' }),
    });
  });
});

describe('Notifications: NotificationsApi create, get, update, delete', () => {
  const handle = useTestApp();
  const sdk = () => sdkFor(handle.current);
  const signingKey = () => secrets.add(randomBytes(24).toString('base64url'));

  it('createNotification → 201 with the NotificationResponse (the key never shown); getNotification the same', async () => {
    const id = uid('hook');
    const key = signingKey();
    const created = await sdk().notifications.createNotification({
      id,
      type: NotificationType.WEBHOOK,
      url: 'https://hooks.example.com/sdk',
      signing_key: key,
    });
    expect(answer(created)).toEqual({
      status: 201,
      body: successBody({ id, type: 'webhook', url: 'https://hooks.example.com/sdk', has_signing_key: true }),
    });
    expect(JSON.stringify(created.data)).not.toContain(key);
    expect(answer(await sdk().notifications.getNotification(id))).toEqual({
      status: 200,
      body: created.data,
    });
  });

  it('createNotification with only a url → a UUID v4 id, type webhook, no key', async () => {
    const created = await sdk().notifications.createNotification({ url: 'https://hooks.example.com/min' });
    expect(answer(created)).toEqual({
      status: 201,
      body: successBody({
        id: UUID_V4,
        type: 'webhook',
        url: 'https://hooks.example.com/min',
        has_signing_key: false,
      }),
    });
  });

  it('createNotification with a used id → 409', async () => {
    const id = uid('hook');
    await sdk().notifications.createNotification({ id, url: 'https://hooks.example.com/a' });
    expect(
      await refusal(sdk().notifications.createNotification({ id, url: 'https://hooks.example.com/b' })),
    ).toEqual(refused(409, 'Notification with this ID already exists'));
  });

  it.each([
    [
      'a short signing key',
      { url: 'https://hooks.example.com/k', signing_key: 'short' },
      'signing_key must be a string of 32 to 1024 characters',
    ],
    ['a metadata address', { url: 'http://169.254.169.254/' }, 'url points to a cloud metadata address'],
    ['an ftp url', { url: 'ftp://files.example.com/x' }, 'url must be an http or https URL'],
    [
      'an unknown field',
      { url: 'https://hooks.example.com/x', events: ['all'] },
      'events is not an allowed field',
    ],
  ] as const)('createNotification with %s → 400 naming it', async (_case, body, message) => {
    expect(await refusal(sdk().notifications.createNotification(body))).toEqual(refused(400, message));
  });

  it('getNotification of an unknown id → 404', async () => {
    expect(await refusal(sdk().notifications.getNotification('no-such-hook'))).toEqual(
      refused(404, 'Notification not found'),
    );
  });

  it('updateNotification: a new url keeps the key; signing_key "" removes it; a new key sets it', async () => {
    const id = uid('hook');
    await sdk().notifications.createNotification({
      id,
      url: 'https://hooks.example.com/1',
      signing_key: signingKey(),
    });
    const moved = await sdk().notifications.updateNotification(id, { url: 'https://hooks.example.com/2' });
    expect(answer(moved)).toEqual({
      status: 200,
      body: successBody({ id, type: 'webhook', url: 'https://hooks.example.com/2', has_signing_key: true }),
    });
    const removed = await sdk().notifications.updateNotification(id, { signing_key: '' });
    expect(removed.data).toEqual(
      successBody({ id, type: 'webhook', url: 'https://hooks.example.com/2', has_signing_key: false }),
    );
    const set = await sdk().notifications.updateNotification(id, { signing_key: signingKey() });
    expect(set.data).toEqual(
      successBody({ id, type: 'webhook', url: 'https://hooks.example.com/2', has_signing_key: true }),
    );
    expect((await sdk().notifications.getNotification(id)).data).toEqual(set.data);
  });

  it('updateNotification of an unknown id → 404; with a bad field → 400', async () => {
    expect(
      await refusal(
        sdk().notifications.updateNotification('no-such-hook', { url: 'https://hooks.example.com/x' }),
      ),
    ).toEqual(refused(404, 'Notification not found'));
    const id = uid('hook');
    await sdk().notifications.createNotification({ id, url: 'https://hooks.example.com/p' });
    expect(
      await refusal(sdk().notifications.updateNotification(id, { signing_key: 'x'.repeat(31) })),
    ).toEqual(refused(400, 'signing_key must be a string of 32 to 1024 characters'));
    expect(await refusal(sdk().notifications.updateNotification(id, { name: 'x' }))).toEqual(
      refused(400, 'name is not an allowed field'),
    );
  });

  it('deleteNotification → 200 "Notification deleted successfully", then 404', async () => {
    const id = uid('hook');
    await sdk().notifications.createNotification({ id, url: 'https://hooks.example.com/del' });
    expect(answer(await sdk().notifications.deleteNotification(id))).toEqual({
      status: 200,
      body: successBody('Notification deleted successfully'),
    });
    expect(await refusal(sdk().notifications.getNotification(id))).toEqual(
      refused(404, 'Notification not found'),
    );
    expect(await refusal(sdk().notifications.deleteNotification(id))).toEqual(
      refused(404, 'Notification not found'),
    );
  });

  it('deleteNotification of one a relayer uses → 409 naming the relayer', async () => {
    const id = uid('hook');
    await sdk().notifications.createNotification({ id, url: 'https://hooks.example.com/used' });
    const relayer = uid('relayer');
    await sdk().relayers.createRelayer({
      id: relayer,
      name: 'uses the hook',
      network: 'sepolia',
      network_type: RelayerNetworkType.EVM,
      paused: false,
      signer_id: defaultCatalogue().nextSigner(),
      notification_id: id,
    });
    expect(await refusal(sdk().notifications.deleteNotification(id))).toEqual(
      refused(409, `Notification is used by relayers: ${relayer}`),
    );
  });
});

describe('Signers: SignersApi get, create, update, delete (docs/reference/networks-and-signers.md#3-signers)', () => {
  const handle = useTestApp({ STORAGE_ENCRYPTION_KEY: encryptionKey });
  const sdk = () => sdkFor(handle.current);
  const plain = (key: string, id?: string): SignerCreateRequest => ({
    ...(id === undefined ? {} : { id }),
    type: SignerTypeRequest.PLAIN,
    config: { key },
  });
  const signerOf = (id: string, key: string) => ({
    id,
    type: 'local',
    config: {},
    addresses: addressesOf(key),
  });

  it('getSigner of a file signer → 200 {id, type: "local", config: {}, addresses}', async () => {
    expect(answer(await sdk().signers.getSigner(KEY1.id))).toEqual({
      status: 200,
      body: successBody(KEY1_SIGNER),
    });
  });

  it('getSigner of an unknown id → 404', async () => {
    expect(await refusal(sdk().signers.getSigner('no-such-signer'))).toEqual(
      refused(404, 'Signer with ID no-such-signer not found'),
    );
  });

  it('createSigner (plain) → 201 with the SignerResponse and the key addresses; the key never shown', async () => {
    const id = uid('signer');
    const key = newKey();
    const created = await sdk().signers.createSigner(plain(key, id));
    expect(answer(created)).toEqual({ status: 201, body: successBody(signerOf(id, key)) });
    expect(JSON.stringify(created.data)).not.toContain(key);
    expect(answer(await sdk().signers.getSigner(id))).toEqual({ status: 200, body: created.data });
  });

  it('createSigner with a 0x key and no id → a UUID v4 id', async () => {
    const key = newKey();
    const created = await sdk().signers.createSigner(plain(`0x${key}`));
    expect(answer(created)).toEqual({
      status: 201,
      body: successBody({ ...signerOf('', key), id: UUID_V4 }),
    });
  });

  it('a signer created through the SDK serves relayers of every network type at its addresses', async () => {
    const id = uid('signer');
    const key = newKey();
    await sdk().signers.createSigner(plain(key, id));
    for (const type of ['evm', 'solana', 'stellar'] as const) {
      const relayer = await sdk().relayers.createRelayer({
        id: uid('relayer'),
        name: `on ${type}`,
        network: NETWORK[type],
        network_type: SDK_NETWORK_TYPE[type],
        paused: false,
        signer_id: id,
      });
      expect({ status: relayer.status, address: relayer.data.data?.address }).toEqual({
        status: 201,
        address: addressesOf(key)[type],
      });
    }
  });

  const KEY_SHAPE = 'config.key must be 32 bytes as 64 hex characters (0x allowed)';
  const KEY_VALUE = 'config.key must be a valid secp256k1 private key: not zero and below the curve order';
  it.each([
    ['31 bytes', randomBytes(31).toString('hex'), KEY_SHAPE],
    ['33 bytes', randomBytes(33).toString('hex'), KEY_SHAPE],
    ['not hex', 'zz'.repeat(32), KEY_SHAPE],
    ['nothing', '', KEY_SHAPE],
    ['all zeros', '00'.repeat(32), KEY_VALUE],
    ['all ones (above the curve order)', 'ff'.repeat(32), KEY_VALUE],
  ])('createSigner with a key of %s → 400 naming config.key', async (_case, key, message) => {
    expect(await refusal(sdk().signers.createSigner(plain(key, uid('signer'))))).toEqual(
      refused(400, message),
    );
  });

  it.each([
    [SignerTypeRequest.AWS_KMS, { key_id: 'alias/relayer', region: 'us-east-1' }],
    [
      SignerTypeRequest.VAULT,
      { address: 'https://vault.example.com', key_name: 'relayer', role_id: 'role', secret_id: 'secret' },
    ],
    [
      SignerTypeRequest.VAULT_TRANSIT,
      {
        address: 'https://vault.example.com',
        key_name: 'relayer',
        pubkey: 'pubkey',
        role_id: 'role',
        secret_id: 'secret',
      },
    ],
    [
      SignerTypeRequest.TURNKEY,
      {
        api_private_key: 'private',
        api_public_key: 'public',
        organization_id: 'org',
        private_key_id: 'key',
        public_key: 'public',
      },
    ],
    [
      SignerTypeRequest.CDP,
      { account_address: '0x0', api_key_id: 'id', api_key_secret: 'secret', wallet_secret: 'wallet' },
    ],
    [
      SignerTypeRequest.GOOGLE_CLOUD_KMS,
      {
        key: { key_id: 'k', key_ring_id: 'ring', key_version: 1, location: 'global' },
        service_account: {
          auth_provider_x509_cert_url: 'https://www.googleapis.com/oauth2/v1/certs',
          auth_uri: 'https://accounts.google.com/o/oauth2/auth',
          client_email: 'relayer@example.iam.gserviceaccount.com',
          client_id: '1',
          client_x509_cert_url: 'https://www.googleapis.com/robot/v1/metadata/x509/relayer',
          private_key: 'private',
          private_key_id: 'key',
          project_id: 'project',
          token_uri: 'https://oauth2.googleapis.com/token',
          universe_domain: 'googleapis.com',
        },
      },
    ],
  ])('createSigner of type %s → 400 not supported', async (type, config) => {
    expect(await refusal(sdk().signers.createSigner({ id: uid('signer'), type, config }))).toEqual(
      refused(400, `Signer type '${type}' is not supported`),
    );
  });

  it('createSigner with an id used in the database or in the file → 409', async () => {
    const id = uid('signer');
    await sdk().signers.createSigner(plain(newKey(), id));
    expect(await refusal(sdk().signers.createSigner(plain(newKey(), id)))).toEqual(
      refused(409, 'Signer with this ID already exists'),
    );
    expect(await refusal(sdk().signers.createSigner(plain(newKey(), KEY1.id)))).toEqual(
      refused(409, 'Signer with this ID already exists'),
    );
  });

  it('updateSigner → 400: a key never changes under a relayer', async () => {
    const id = uid('signer');
    const key = newKey();
    await sdk().signers.createSigner(plain(key, id));
    expect(await refusal(sdk().signers.updateSigner(id, { config: { key: newKey() } }))).toEqual(
      refused(400, 'Signer updates are not allowed: delete the signer and create a new one'),
    );
    expect((await sdk().signers.getSigner(id)).data).toEqual(successBody(signerOf(id, key)));
  });

  it('deleteSigner → 200 "Signer deleted successfully", then 404', async () => {
    const id = uid('signer');
    await sdk().signers.createSigner(plain(newKey(), id));
    expect(answer(await sdk().signers.deleteSigner(id))).toEqual({
      status: 200,
      body: successBody('Signer deleted successfully'),
    });
    const notFound = refused(404, `Signer with ID ${id} not found`);
    expect(await refusal(sdk().signers.getSigner(id))).toEqual(notFound);
    expect(await refusal(sdk().signers.deleteSigner(id))).toEqual(notFound);
  });

  it('deleteSigner of one relayers use → 409 naming them; free again → 200', async () => {
    const id = uid('signer');
    await sdk().signers.createSigner(plain(newKey(), id));
    const relayers: string[] = [];
    for (const type of ['evm', 'stellar'] as const) {
      const relayer = uid('relayer');
      relayers.push(relayer);
      await sdk().relayers.createRelayer({
        id: relayer,
        name: 'uses the signer',
        network: NETWORK[type],
        network_type: SDK_NETWORK_TYPE[type],
        paused: false,
        signer_id: id,
      });
    }
    const namesBoth = new RegExp(relayers.map((relayer) => `(?=.*\\b${relayer}\\b)`).join(''));
    expect(await refusal(sdk().signers.deleteSigner(id))).toEqual(refused(409, namesBoth));
    for (const relayer of relayers) await sdk().relayers.deleteRelayer(relayer);
    expect((await sdk().signers.deleteSigner(id)).data).toEqual(successBody('Signer deleted successfully'));
  });

  it('deleteSigner of a file signer → 409', async () => {
    const id = defaultCatalogue().pool[defaultCatalogue().pool.length - 1];
    expect(await refusal(sdk().signers.deleteSigner(id))).toEqual(
      refused(409, `Signer ${id} is defined in the configuration file`),
    );
    expect((await sdk().signers.getSigner(id)).status).toBe(200);
  });

  it('deleteSigner of an unknown id → 404', async () => {
    expect(await refusal(sdk().signers.deleteSigner('no-such-signer'))).toEqual(
      refused(404, 'Signer with ID no-such-signer not found'),
    );
  });
});

describe('Networks: NetworksApi get and update (docs/reference/networks-and-signers.md#4-networks)', () => {
  const handle = useTestApp();
  const sdk = () => sdkFor(handle.current);

  it.each(NETWORKS.map((network) => [network.id, network] as const))(
    'getNetwork(%s) → 200 with the NetworkResponse, RPC URLs masked',
    async (id, network) => {
      expect(answer(await sdk().networks.getNetwork(id))).toEqual({
        status: 200,
        body: successBody(network),
      });
    },
  );

  it.each(['evm:atlantis', 'sepolia', 'bitcoin:mainnet'])('getNetwork(%s) → 404', async (id) => {
    expect(await refusal(sdk().networks.getNetwork(id))).toEqual(
      refused(404, `Network with ID '${id}' not found`),
    );
  });

  it('updateNetwork with URLs as strings and {url, weight} → 200; getNetwork serves the new list', async () => {
    const rpcKey = secrets.add(`key${randomBytes(8).toString('hex')}`);
    const updated = await sdk().networks.updateNetwork('evm:mainnet', {
      rpc_urls: [
        `https://eth.example.com/v2/${rpcKey}`,
        { url: 'https://backup.example.com/eth', weight: 30 },
      ],
    });
    const expected = {
      ...NETWORKS[1],
      rpc_urls: [
        { url: 'https://eth.example.com/v2/***', weight: 100 },
        { url: 'https://backup.example.com/***', weight: 30 },
      ],
    };
    expect(answer(updated)).toEqual({ status: 200, body: successBody(expected) });
    expect(JSON.stringify(updated.data)).not.toContain(rpcKey);
    expect((await sdk().networks.getNetwork('evm:mainnet')).data).toEqual(updated.data);
  });

  it('updateNetwork with the masked URL read back keeps the stored one; a mask that stands for none → 400', async () => {
    const read = (await sdk().networks.getNetwork('stellar:testnet')).data.data?.rpc_urls ?? [];
    const updated = await sdk().networks.updateNetwork('stellar:testnet', {
      rpc_urls: [{ url: 'https://soroban.example.com/rpc', weight: 10 }, ...read],
    });
    expect(updated.data.data?.rpc_urls).toEqual([
      { url: 'https://soroban.example.com/***', weight: 10 },
      { url: 'https://rpc.example.com/***', weight: 100 },
    ]);
    expect(
      await refusal(
        sdk().networks.updateNetwork('stellar:testnet', {
          rpc_urls: [{ url: 'https://unknown.example.com/***', weight: 100 }],
        }),
      ),
    ).toEqual(refused(400, 'rpc_urls[0].url is a masked URL that matches no stored URL: send the full URL'));
  });

  const RPC_LIST = 'rpc_urls must be an array of 1 to 20 URLs or {url, weight} objects';
  it.each<[string, UpdateNetworkRequest, string]>([
    ['no URL', { rpc_urls: [] }, RPC_LIST],
    [
      'a weight over 100',
      { rpc_urls: [{ url: 'https://rpc.example.com/a', weight: 101 }] },
      'rpc_urls[0].weight must be a whole number from 0 to 100',
    ],
    [
      'a metadata address',
      { rpc_urls: ['http://169.254.169.254/latest'] },
      'rpc_urls[0].url points to a cloud metadata address',
    ],
    ['21 URLs', { rpc_urls: Array.from({ length: 21 }, (_, i) => `https://rpc${i}.example.com`) }, RPC_LIST],
    [
      'another field',
      { rpc_urls: ['https://rpc.example.com/a'], chain_id: 5 },
      'chain_id is not an allowed field',
    ],
  ])('updateNetwork with %s → 400 naming it; nothing changes', async (_case, body, message) => {
    expect(await refusal(sdk().networks.updateNetwork('solana:devnet', body))).toEqual(refused(400, message));
    expect((await sdk().networks.getNetwork('solana:devnet')).data).toEqual(successBody(NETWORKS[2]));
  });

  it('updateNetwork of an unknown id → 404', async () => {
    expect(
      await refusal(
        sdk().networks.updateNetwork('evm:atlantis', { rpc_urls: ['https://rpc.example.com/a'] }),
      ),
    ).toEqual(refused(404, "Network with ID 'evm:atlantis' not found"));
  });
});

describe('Lists: listRelayers, listNotifications, listSigners, listNetworks', () => {
  const handle = useTestApp({ STORAGE_ENCRYPTION_KEY: encryptionKey });
  const sdk = () => sdkFor(handle.current);
  const relayers: object[] = [];
  const notifications: object[] = [];
  const apiSignerKey = newKey();

  beforeAll(async () => {
    await sdk().signers.createSigner({
      id: 'api-signer',
      type: SignerTypeRequest.PLAIN,
      config: { key: apiSignerKey },
    });
    for (const [i, type] of (['evm', 'solana', 'stellar'] as const).entries()) {
      notifications.push(
        (
          await sdk().notifications.createNotification({
            id: `hook-${i}`,
            url: `https://hooks.example.com/${i}`,
          })
        ).data.data ?? {},
      );
      relayers.push(
        (
          await sdk().relayers.createRelayer({
            id: `relayer-${i}`,
            name: `relayer ${i}`,
            network: NETWORK[type],
            network_type: SDK_NETWORK_TYPE[type],
            paused: false,
            signer_id: KEY1.id,
          })
        ).data.data ?? {},
      );
    }
  });

  const page = (data: unknown[], current_page: number, per_page: number, total_items: number) => ({
    success: true,
    data,
    error: null,
    pagination: { current_page, per_page, total_items },
  });

  it('listRelayers: the default page, a later page, a page past the end', async () => {
    expect(answer(await sdk().relayers.listRelayers())).toEqual({
      status: 200,
      body: page(relayers, 1, 10, 3),
    });
    expect((await sdk().relayers.listRelayers(2, 2)).data).toEqual(page(relayers.slice(2), 2, 2, 3));
    expect((await sdk().relayers.listRelayers(4, 1)).data).toEqual(page([], 4, 1, 3));
  });

  it('listNotifications: the default page, a later page, a page past the end', async () => {
    expect(answer(await sdk().notifications.listNotifications())).toEqual({
      status: 200,
      body: page(notifications, 1, 10, 3),
    });
    expect((await sdk().notifications.listNotifications(2, 2)).data).toEqual(
      page(notifications.slice(2), 2, 2, 3),
    );
    expect((await sdk().notifications.listNotifications(3, 5)).data).toEqual(page([], 3, 5, 3));
  });

  it('listSigners: the file signers in file order, then those created through the API', async () => {
    const first = await sdk().signers.listSigners(1, 2);
    expect(answer(first)).toEqual({
      status: 200,
      body: page(
        [
          KEY1_SIGNER,
          {
            id: 'pool-0000',
            type: 'local',
            config: {},
            addresses: addressesOf(defaultCatalogue().keyOf('pool-0000')),
          },
        ],
        1,
        2,
        258,
      ),
    });
    const last = await sdk().signers.listSigners(129, 2);
    expect(last.data).toEqual(
      page(
        [
          {
            id: 'pool-0255',
            type: 'local',
            config: {},
            addresses: addressesOf(defaultCatalogue().keyOf('pool-0255')),
          },
          { id: 'api-signer', type: 'local', config: {}, addresses: addressesOf(apiSignerKey) },
        ],
        129,
        2,
        258,
      ),
    );
  });

  it('listNetworks: every network as NetworkResponse, in catalogue order; pages', async () => {
    expect(answer(await sdk().networks.listNetworks())).toEqual({
      status: 200,
      body: page(NETWORKS, 1, 10, 6),
    });
    expect((await sdk().networks.listNetworks(2, 4)).data).toEqual(page(NETWORKS.slice(4), 2, 4, 6));
  });

  it.each([
    ['listRelayers', (api: Sdk) => api.relayers.listRelayers(0, 10)],
    ['listNotifications', (api: Sdk) => api.notifications.listNotifications(0, 10)],
    ['listSigners', (api: Sdk) => api.signers.listSigners(0, 10)],
    ['listNetworks', (api: Sdk) => api.networks.listNetworks(0, 10)],
  ])('%s(0, 10) → 400 naming page', async (_method, call) => {
    expect(await refusal(call(sdk()))).toEqual(refused(400, 'page must be a whole number of at least 1'));
  });

  it.each([
    ['listRelayers', (api: Sdk) => api.relayers.listRelayers(1, 101)],
    ['listNotifications', (api: Sdk) => api.notifications.listNotifications(1, 101)],
    ['listSigners', (api: Sdk) => api.signers.listSigners(1, 101)],
    ['listNetworks', (api: Sdk) => api.networks.listNetworks(1, 101)],
  ])('%s(1, 101) → 400 naming per_page', async (_method, call) => {
    expect(await refusal(call(sdk()))).toEqual(refused(400, 'per_page must be a whole number from 1 to 100'));
  });
});

describe('Health/Metrics: HealthApi, MetricsApi, and every protected method without the key', () => {
  const handle = useTestApp();
  const sdk = () => sdkFor(handle.current);

  it('health → 200 "OK", with or without a token', async () => {
    expect(answer(await sdk().health.health())).toEqual({ status: 200, body: 'OK' });
    expect(answer(await sdkFor(handle.current, null).health.health())).toEqual({ status: 200, body: 'OK' });
  });

  it('readiness → 200 with the Terminus body of docs/reference/running.md#2-probes (not the SDK ReadinessResponse)', async () => {
    const ready = await sdkFor(handle.current, null).health.readiness();
    expect(answer(ready)).toEqual({
      status: 200,
      body: {
        status: 'ok',
        info: { database: { status: 'up', responseTime: expect.any(Number) } },
        error: {},
        details: { database: { status: 'up', responseTime: expect.any(Number) } },
      },
    });
  });

  it('listMetrics and scrapeMetrics as the SDK sends them (no Authorization header) → 401', async () => {
    expect(await refusal(sdk().metrics.listMetrics())).toEqual(refused(401, 'Unauthorized'));
    expect(await refusal(sdk().metrics.scrapeMetrics())).toEqual(refused(401, 'Unauthorized'));
  });

  it('listMetrics with the key in the request options → 200 with the names of the metrics as a JSON array', async () => {
    const list = await sdk().metrics.listMetrics(sdk().auth);
    expect(list.status).toBe(200);
    expect(list.data).toEqual(
      expect.arrayContaining([
        'http_requests_total',
        'http_request_duration_seconds',
        'webhook_deliveries_total',
        'relayer_health_checks_total',
      ]),
    );
    expect(list.data.every((name) => /^[a-zA-Z_:][a-zA-Z0-9_:]*$/.test(name))).toBe(true);
    expect(new Set(list.data).size).toBe(list.data.length);
    // The same key for every call, through the configuration's base options (as the README shows).
    const { baseUrl, apiKey } = handle.current;
    const authorization = { Authorization: `Bearer ${apiKey}` };
    const configured = new MetricsApi(
      new Configuration({ basePath: baseUrl, accessToken: apiKey, baseOptions: { headers: authorization } }),
    );
    expect(answer(await configured.listMetrics())).toEqual({ status: 200, body: list.data });
  });

  it('metricDetail of a listed name → that metric alone in Prometheus text', async () => {
    const detail = await sdk().metrics.metricDetail('http_requests_total');
    expect(detail.status).toBe(200);
    expect(detail.data).toContain('# HELP http_requests_total ');
    expect(detail.data).toContain('# TYPE http_requests_total counter');
    expect(detail.data.match(/^# TYPE /gm)).toHaveLength(1);
  });

  it('metricDetail of an unknown name → 404 "Metric not found"', async () => {
    expect(await refusal(sdk().metrics.metricDetail('no_such_metric'))).toEqual(
      refused(404, 'Metric not found'),
    );
  });

  it('scrapeMetrics with the key in the request options → every metric in Prometheus text', async () => {
    const scrape = await sdk().metrics.scrapeMetrics(sdk().auth);
    const names = (await sdk().metrics.listMetrics(sdk().auth)).data;
    expect(scrape.status).toBe(200);
    for (const name of names) expect(scrape.data).toContain(`# TYPE ${name} `);
  });

  it.each([
    ['listRelayers', (api: Sdk) => api.relayers.listRelayers()],
    ['getRelayer', (api: Sdk) => api.relayers.getRelayer('any')],
    [
      'createRelayer',
      (api: Sdk) =>
        api.relayers.createRelayer({
          name: 'x',
          network: 'sepolia',
          network_type: RelayerNetworkType.EVM,
          paused: false,
          signer_id: KEY1.id,
        }),
    ],
    ['updateRelayer', (api: Sdk) => api.relayers.updateRelayer('any', { paused: true })],
    ['deleteRelayer', (api: Sdk) => api.relayers.deleteRelayer('any')],
    ['getRelayerStatus', (api: Sdk) => api.relayers.getRelayerStatus('any')],
    ['getRelayerBalance', (api: Sdk) => api.relayers.getRelayerBalance('any')],
    ['listNotifications', (api: Sdk) => api.notifications.listNotifications()],
    ['getNotification', (api: Sdk) => api.notifications.getNotification('any')],
    [
      'createNotification',
      (api: Sdk) => api.notifications.createNotification({ url: 'https://hooks.example.com' }),
    ],
    [
      'updateNotification',
      (api: Sdk) => api.notifications.updateNotification('any', { url: 'https://x.example.com' }),
    ],
    ['deleteNotification', (api: Sdk) => api.notifications.deleteNotification('any')],
    ['listSigners', (api: Sdk) => api.signers.listSigners()],
    ['getSigner', (api: Sdk) => api.signers.getSigner(KEY1.id)],
    [
      'createSigner',
      (api: Sdk) => api.signers.createSigner({ type: SignerTypeRequest.PLAIN, config: { key: KEY1.hex } }),
    ],
    ['updateSigner', (api: Sdk) => api.signers.updateSigner(KEY1.id, {})],
    ['deleteSigner', (api: Sdk) => api.signers.deleteSigner(KEY1.id)],
    ['listNetworks', (api: Sdk) => api.networks.listNetworks()],
    ['getNetwork', (api: Sdk) => api.networks.getNetwork('evm:sepolia')],
    [
      'updateNetwork',
      (api: Sdk) => api.networks.updateNetwork('evm:sepolia', { rpc_urls: ['https://x.example.com'] }),
    ],
    ['listMetrics', (api: Sdk) => api.metrics.listMetrics(api.auth)],
    ['metricDetail', (api: Sdk) => api.metrics.metricDetail('http_requests_total')],
    ['scrapeMetrics', (api: Sdk) => api.metrics.scrapeMetrics(api.auth)],
  ])('%s with a wrong token or none → 401 "Unauthorized"', async (_method, call) => {
    const wrong = sdkFor(handle.current, secrets.add(randomBytes(36).toString('base64url')));
    expect(await refusal(call(wrong))).toEqual(refused(401, 'Unauthorized'));
    expect(await refusal(call(sdkFor(handle.current, null)))).toEqual(refused(401, 'Unauthorized'));
  });
});

describe('Runtime: the methods of the relayer runtime (transactions, signing, RPC, plugins) → 404', () => {
  const handle = useTestApp();
  const sdk = () => sdkFor(handle.current);
  const relayer = 'runtime-relayer';
  const solanaTx = { fee_token: 'So11111111111111111111111111111111111111112', transaction: 'AQ==' };
  beforeAll(async () => {
    await sdk().relayers.createRelayer({
      id: relayer,
      name: 'runtime',
      network: 'sepolia',
      network_type: RelayerNetworkType.EVM,
      paused: false,
      signer_id: KEY1.id,
    });
  });

  it.each<[string, (api: Sdk) => Promise<unknown>]>([
    ['buildSponsoredTransaction', (api) => api.relayers.buildSponsoredTransaction(relayer, solanaTx)],
    ['quoteSponsoredTransaction', (api) => api.relayers.quoteSponsoredTransaction(relayer, solanaTx)],
    ['sendTransaction', (api) => api.relayers.sendTransaction(relayer, { value: 1, to: KEY1.evm })],
    ['listTransactions', (api) => api.relayers.listTransactions(relayer)],
    ['getTransactionById', (api) => api.relayers.getTransactionById(relayer, 'tx-1')],
    ['getTransactionByNonce', (api) => api.relayers.getTransactionByNonce(relayer, 1)],
    [
      'replaceTransaction',
      (api) => api.relayers.replaceTransaction(relayer, 'tx-1', { value: 2, to: KEY1.evm }),
    ],
    ['cancelTransaction', (api) => api.relayers.cancelTransaction(relayer, 'tx-1')],
    ['deletePendingTransactions', (api) => api.relayers.deletePendingTransactions(relayer)],
    [
      'rpc',
      (api) => api.relayers.rpc(relayer, { jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] }),
    ],
    ['sign', (api) => api.relayers.sign(relayer, { message: 'hello' })],
    ['signTransaction', (api) => api.relayers.signTransaction(relayer, { transaction: 'AQ==' })],
    [
      'signTypedData',
      (api) => api.relayers.signTypedData(relayer, { domain_separator: '0x00', hash_struct_message: '0x00' }),
    ],
    ['listPlugins', (api) => api.plugins.listPlugins()],
    ['getPlugin', (api) => api.plugins.getPlugin('plugin-1')],
    ['updatePlugin', (api) => api.plugins.updatePlugin('plugin-1', { emit_logs: true })],
    ['callPlugin', (api) => api.plugins.callPlugin('plugin-1', { params: {} })],
    ['callPluginGet', (api) => api.plugins.callPluginGet('plugin-1')],
  ])('%s → 404 "Not Found" (not a route of this service)', async (_method, call) => {
    expect(await refusal(call(sdk()))).toEqual(refused(404, 'Not Found'));
  });
});
