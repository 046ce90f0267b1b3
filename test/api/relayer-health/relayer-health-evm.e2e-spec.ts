import { Configuration, RelayersApi } from '@openzeppelin/relayer-sdk';
import type { LookupAddress } from 'node:dns';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DnsResolver } from '../../../src/common/security/dns-resolver';
import { Anvil } from '../../support/anvil';
import { successBody } from '../../support/envelope';
import { secrets } from '../../support/secrets';
import { useTestApp } from '../../support/test-app';
import { waitFor } from '../../support/wait';
import { WebhookReceiver } from '../../support/webhook-receiver';
import { anonymousRelayerBody, fileSigners, ISO, relayerBody, uid } from '../../factories';
import { writeConfigFile } from '../../support/test-catalogue';

const ETH = 10n ** 18n;

/** A catalogue with two EVM networks on the same anvil: one with its chain id, one with another. */
function anvilCatalogue(anvil: Anvil, signers: number): { file: string; signer: (i: number) => string } {
  const file = writeConfigFile({
    networks: [
      { type: 'evm', network: 'anvil', chain_id: Anvil.CHAIN_ID, rpc_urls: [anvil.url] },
      { type: 'evm', network: 'anvil-mislabelled', chain_id: 1, rpc_urls: [anvil.url] },
    ],
    signers: fileSigners('anvil', signers),
  });
  return { file, signer: (i) => `anvil-${i}` };
}

describe('EVM relayer health against a real node (anvil)', () => {
  const anvil = new Anvil();
  const receiver = new WebhookReceiver();
  let catalogue: ReturnType<typeof anvilCatalogue>;
  let next = 0;
  // Before the app starts (useTestApp's own beforeAll): the catalogue names anvil's port.
  beforeAll(async () => {
    await anvil.start();
    await receiver.start();
    catalogue = anvilCatalogue(anvil, 20);
  });
  const handle = useTestApp(() => ({
    CONFIG_FILE: catalogue.file,
    RELAYER_HEALTH_CHECKS: 'true',
    RELAYER_HEALTH_CHECK_INTERVAL_SECONDS: '3600',
    RELAYER_HEALTH_RETRY_SECONDS: '3600',
    RPC_TIMEOUT_MS: '1000',
    WEBHOOK_RETRY_BASE_MS: '50',
  }));
  const app = () => handle.current;
  afterAll(async () => {
    await anvil.stop();
    await receiver.close();
  });

  /** Creates a relayer on the anvil network (its first check runs by itself right after). */
  const create = async (extra: object = {}) => {
    const res = await app()
      .post(
        '/api/v1/relayers',
        relayerBody('evm', {
          id: uid('evm'),
          name: 'anvil relayer',
          network: 'anvil',
          signer_id: catalogue.signer(next++),
          ...extra,
        }),
      )
      .expect(201);
    return res.body.data as { id: string; address: string; system_disabled: boolean };
  };
  const check = async (id: string) =>
    (await app().post(`/api/v1/relayers/${id}/check`).expect(200)).body as { data: Record<string, unknown> };
  const relayer = async (id: string) =>
    (await app().get(`/api/v1/relayers/${id}`).expect(200)).body.data as {
      system_disabled: boolean;
      disabled_reason: { type: string; details: string } | null;
    };

  it('a funded relayer is checked right after create and passes; status and balance in the SDK shapes', async () => {
    const { id, address, system_disabled } = await create({ policies: { min_balance: String(ETH) } });
    expect(system_disabled).toBe(false); // create answers at once, before any check
    await anvil.setBalance(address, 5n * ETH);
    await anvil.setNonce(address, 7);
    // The scheduler's first check ran (or runs) by itself; this one sees the new balance.
    const status = await check(id);
    expect(status).toEqual(
      successBody({
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
    );
    const balance = await app().get(`/api/v1/relayers/${id}/balance`).expect(200);
    expect(balance.text).toBe(`{"success":true,"data":{"balance":${5n * ETH},"unit":"wei"},"error":null}`);

    // The official SDK reads both.
    const sdk = new RelayersApi(new Configuration({ basePath: app().baseUrl, accessToken: app().apiKey }));
    const sdkStatus = await sdk.getRelayerStatus(id);
    expect(sdkStatus.data.data).toEqual(status.data);
    const sdkBalance = await sdk.getRelayerBalance(id);
    expect({ status: sdkBalance.status, unit: sdkBalance.data.data?.unit }).toEqual({
      status: 200,
      unit: 'wei',
    });
  });

  it('the first check runs by itself after create (no request waits for it)', async () => {
    const { id, address } = await create();
    await anvil.setBalance(address, ETH);
    const status = await waitFor(
      'the scheduled first check',
      async () => {
        const body = (await app().get(`/api/v1/relayers/${id}/status`).expect(200)).body as {
          data: { checked_at: string | null };
        };
        return body.data.checked_at !== null && body.data;
      },
      { timeoutMs: 15_000 },
    );
    expect({ disabled: (await relayer(id)).system_disabled, checked: status.checked_at }).toEqual({
      disabled: false,
      checked: ISO,
    });
  });

  it('balance below min_balance → BalanceCheckFailed and relayer_disabled; funded again → relayer_enabled', async () => {
    const hook = uid('hook');
    await app()
      .post('/api/v1/notifications', { id: hook, url: receiver.url('/health') })
      .expect(201);
    const { id, address } = await create({ notification_id: hook, policies: { min_balance: 1000 } });
    // The scheduled first check finds the new address empty.
    await waitFor('the scheduled first check', async () => (await relayer(id)).system_disabled);
    expect((await relayer(id)).disabled_reason).toEqual({
      type: 'BalanceCheckFailed',
      details: 'balance 0 is below min_balance 1000',
    });
    await anvil.setBalance(address, 10n);
    await check(id);
    expect(await relayer(id)).toMatchObject({
      system_disabled: true,
      disabled_reason: { type: 'BalanceCheckFailed', details: 'balance 10 is below min_balance 1000' },
    });
    await anvil.setBalance(address, 5000n);
    const enabled = await check(id);
    expect({ disabled: enabled.data.system_disabled, balance: enabled.data.balance }).toEqual({
      disabled: false,
      balance: '5000',
    });
    expect((await relayer(id)).disabled_reason).toBeNull();

    const states = await waitFor('both state events at the receiver', () => {
      const got = receiver.to('/health').filter((r) => r.json.event === 'relayer_state_update');
      return got.length >= 2 && got;
    });
    expect(
      states.map((r) => {
        const { payload_type, disable_reason, retry_count } = r.json.payload;
        return {
          payload_type,
          disable_reason,
          retry_count,
          disabled: (r.json.payload.relayer as { system_disabled: boolean }).system_disabled,
        };
      }),
    ).toEqual([
      {
        payload_type: 'relayer_disabled',
        disable_reason: 'balance 0 is below min_balance 1000',
        retry_count: undefined,
        disabled: true,
      },
      { payload_type: 'relayer_enabled', disable_reason: undefined, retry_count: 2, disabled: false },
    ]);
  });

  it("a catalogue chain_id that differs from the node's → RpcValidationFailed", async () => {
    const res = await app()
      .post(
        '/api/v1/relayers',
        relayerBody('evm', {
          id: uid('evm'),
          name: 'mislabelled',
          network: 'anvil-mislabelled',
          signer_id: catalogue.signer(next++),
        }),
      )
      .expect(201);
    const { id } = res.body.data as { id: string };
    await check(id);
    expect((await relayer(id)).disabled_reason).toEqual({
      type: 'RpcValidationFailed',
      details:
        "no RPC endpoint answered with the right chain: chain id 0x7a69 differs from the catalogue's 1",
    });
  });

  it('the nonce in status follows anvil_setNonce', async () => {
    const { id, address } = await create();
    await anvil.setNonce(address, 3);
    expect((await check(id)).data.nonce).toBe('3');
    await anvil.setNonce(address, 42);
    expect((await check(id)).data.nonce).toBe('42');
  });

  it('anvil stopped → disabled (the endpoint named by host only); restarted → re-enabled', async () => {
    const { id, address } = await create();
    await anvil.setBalance(address, ETH);
    expect((await check(id)).data.system_disabled).toBe(false);
    await anvil.stop();
    try {
      expect((await check(id)).data.system_disabled).toBe(true);
      expect((await relayer(id)).disabled_reason).toEqual({
        type: 'RpcValidationFailed',
        details: `no RPC endpoint answered with the right chain: 127.0.0.1:${anvil.port}: network error (ECONNREFUSED)`,
      });
    } finally {
      await anvil.start();
    }
    await anvil.setBalance(address, ETH);
    expect((await check(id)).data.system_disabled).toBe(false);
    expect((await relayer(id)).disabled_reason).toBeNull();
  });
});

describe('RPC endpoints the URL policy refuses are never contacted, even through DNS', () => {
  const anvil = new Anvil();
  let catalogue: ReturnType<typeof anvilCatalogue>;
  beforeAll(async () => {
    await anvil.start();
    catalogue = anvilCatalogue(anvil, 4);
  });
  afterAll(() => anvil.stop());
  const handle = useTestApp(() => ({
    CONFIG_FILE: catalogue.file,
    RELAYER_HEALTH_CHECKS: 'true',
    RELAYER_HEALTH_CHECK_INTERVAL_SECONDS: '3600',
    RELAYER_HEALTH_RETRY_SECONDS: '3600',
    RPC_BLOCK_PRIVATE_IPS: 'true',
    RPC_TIMEOUT_MS: '1000',
  }));
  const app = () => handle.current;

  it('a custom RPC host name that resolves to loopback: refused at connection time, so the relayer is disabled', async () => {
    const lookup = jest
      .spyOn(DnsResolver.prototype, 'lookup')
      .mockImplementation((_hostname: string, callback: (error: null, addresses: LookupAddress[]) => void) =>
        callback(null, [{ address: '127.0.0.1', family: 4 }]),
      );
    try {
      const created = await app()
        .post(
          '/api/v1/relayers',
          relayerBody('evm', {
            id: uid('dns'),
            name: 'rebound',
            network: 'anvil',
            signer_id: catalogue.signer(0),
            custom_rpc_urls: [
              { url: `http://rpc.rebind.example:${anvil.port}/key/${secrets.add('SECRETPATH123')}` },
            ],
          }),
        )
        .expect(201);
      const { id } = created.body.data as { id: string };
      const status = await app().post(`/api/v1/relayers/${id}/check`).expect(200);
      expect((status.body as { data: { system_disabled: boolean } }).data.system_disabled).toBe(true);
      const stored = (await app().get(`/api/v1/relayers/${id}`).expect(200)).body.data as {
        disabled_reason: unknown;
      };
      expect(stored.disabled_reason).toEqual({
        type: 'RpcValidationFailed',
        details: `no RPC endpoint answered with the right chain: rpc.rebind.example:${anvil.port}: refused by the URL policy (rpc.rebind.example resolves to an address that points to a private or loopback address (set RPC_BLOCK_PRIVATE_IPS=false to allow private addresses))`,
      });
      expect(lookup).toHaveBeenCalled();
    } finally {
      lookup.mockRestore();
    }
  });

  it('the metrics count checks by outcome and reason, their latency per network type, and relayers disabled now', async () => {
    const text = (await app().get('/debug/metrics/scrape').expect(200)).text;
    expect({
      failed:
        /^relayer_health_checks_total\{network_type="evm",outcome="failed",reason="RpcValidationFailed"\} [1-9]\d*$/m.test(
          text,
        ),
      latency: /^relayer_health_check_duration_seconds_count\{network_type="evm"\} [1-9]\d*$/m.test(text),
      disabled: /^relayers_system_disabled [1-9]\d*$/m.test(text),
    }).toEqual({ failed: true, latency: true, disabled: true });
  });
});

describe('with the shipped catalogue on a machine without internet', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'relayer-shipped-'));
  const handle = useTestApp({
    CONFIG_FILE: path.join(__dirname, '..', '..', '..', 'config', 'config.json'),
    DATA_DIR: dataDir,
    RELAYER_HEALTH_CHECKS: 'true',
    RPC_TIMEOUT_MS: '2000',
  });

  it('a relayer on a public network it cannot reach becomes disabled with RpcValidationFailed, and says so', async () => {
    const app = handle.current;
    const created = await app
      .post('/api/v1/relayers', anonymousRelayerBody('evm', { name: 'offline', signer_id: 'dev-signer' }))
      .expect(201);
    const { id } = created.body.data as { id: string };
    const reason = await waitFor(
      'the scheduled first check',
      async () =>
        ((await app.get(`/api/v1/relayers/${id}`).expect(200)).body.data as { disabled_reason: unknown })
          .disabled_reason as { type: string; details: string } | null,
      { timeoutMs: 30_000 },
    );
    expect(reason).toEqual({
      type: 'RpcValidationFailed',
      details: expect.stringMatching(
        /^no RPC endpoint answered with the right chain: [a-z0-9.-]+(:\d+)?: /,
      ) as unknown,
    });
  });
});
