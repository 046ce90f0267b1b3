import { RelayerNetworkType, type CreateRelayerRequest } from '@openzeppelin/relayer-sdk';
import { randomBytes } from 'node:crypto';
import { Anvil } from '../support/anvil';
import { successBody } from '../support/envelope';
import { secrets } from '../support/secrets';
import { defaultCatalogue, useTestApp } from '../support/test-app';
import { KEY1, writeConfigFile } from '../support/test-catalogue';
import { waitFor } from '../support/wait';
import { ISO, NETWORK, type NetworkType, signerKey, uid, UUID_V4 } from '../factories';
import {
  ETH,
  sdkFor,
  refusal,
  refused,
  answer,
  addressesOf,
  SDK_NETWORK_TYPE,
  KEY1_ADDRESS,
  plainRelayer,
} from './sdk';

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
          low_balance: null,
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
  const lowKey = signerKey();
  let file = '';
  beforeAll(async () => {
    await anvil.start();
    file = writeConfigFile({
      networks: [{ type: 'evm', network: 'anvil', chain_id: Anvil.CHAIN_ID, rpc_urls: [anvil.url] }],
      signers: [
        { id: KEY1.id, type: 'plain', config: { key: { type: 'plain', value: KEY1.hex } } },
        { id: 'anvil-low', type: 'plain', config: { key: { type: 'plain', value: lowKey } } },
      ],
    });
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
        low_balance: null,
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
        low_balance: null,
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
