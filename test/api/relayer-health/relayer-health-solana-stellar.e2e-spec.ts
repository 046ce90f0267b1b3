import { randomBytes } from 'node:crypto';
import { expectError, successBody } from '../../support/envelope';
import { secrets } from '../../support/secrets';
import { SolanaRpc } from '../../support/solana-rpc';
import { StellarRpc, TESTNET_PASSPHRASE } from '../../support/stellar-rpc';
import { useTestApp, type TestApp } from '../../support/test-app';
import { waitFor } from '../../support/wait';
import { WebhookReceiver } from '../../support/webhook-receiver';
import { fileSigners, ISO, relayerBody, uid } from '../../factories';
import { writeConfigFile } from '../../support/test-catalogue';

const PUBLIC_PASSPHRASE = 'Public Global Stellar Network ; September 2015';
/** Lamports above 2^53: a JSON number only every digit of which is the balance. */
const WHALE_LAMPORTS = 9_007_199_254_740_993n;

/** An RPC provider's API key, in the path and in the query of the catalogue's URLs. */
const API_KEY_PART = secrets.add(`rpckey${randomBytes(8).toString('hex')}`);

/**
 * A catalogue with one solana and one stellar network on the local RPC servers (their URLs carry
 * an API key) and `signers` random plain keys (registered as secrets).
 */
function writeCatalogue(solana: SolanaRpc, stellar: StellarRpc, signers: number): string {
  const file = writeConfigFile({
    networks: [
      {
        type: 'solana',
        network: 'devnet',
        rpc_urls: [solana.url(`/v1/${API_KEY_PART}`)],
        is_testnet: true,
      },
      {
        type: 'stellar',
        network: 'testnet',
        passphrase: TESTNET_PASSPHRASE,
        rpc_urls: [stellar.url(`/soroban/rpc?apikey=${API_KEY_PART}`)],
        is_testnet: true,
      },
    ],
    signers: fileSigners('signer', signers),
  });
  return file;
}

interface Relayer {
  id: string;
  address: string;
  system_disabled: boolean;
  disabled_reason: { type: string; details: string } | null;
}

/** The calls of one app: relayers, their status, balance and checks on demand. */
function api(app: () => TestApp) {
  let nextSigner = 0;
  return {
    async create(type: 'solana' | 'stellar', extra: object = {}): Promise<Relayer> {
      const res = await app()
        .post(
          '/api/v1/relayers',
          relayerBody(type, {
            id: uid(type),
            name: `${type} relayer`,
            signer_id: `signer-${nextSigner++}`,
            ...extra,
          }),
        )
        .expect(201);
      const created = res.body.data as Relayer;
      // Checks never block a request: the create answers before any check.
      expect({ system_disabled: created.system_disabled, disabled_reason: created.disabled_reason }).toEqual({
        system_disabled: false,
        disabled_reason: null,
      });
      return created;
    },
    async relayer(id: string): Promise<Relayer> {
      return (await app().get(`/api/v1/relayers/${id}`).expect(200)).body.data as Relayer;
    },
    async status(id: string): Promise<Record<string, unknown>> {
      const res = await app().get(`/api/v1/relayers/${id}/status`).expect(200);
      return res.body.data as Record<string, unknown>;
    },
    /** POST .../check: the checks run now; answers the status, exactly as GET .../status then does. */
    async check(id: string): Promise<Record<string, unknown>> {
      const res = await app().post(`/api/v1/relayers/${id}/check`).expect(200);
      const got = await app().get(`/api/v1/relayers/${id}/status`).expect(200);
      expect(got.body).toEqual(res.body);
      return res.body.data as Record<string, unknown>;
    },
    /** The raw text of GET .../balance (the balance is a JSON integer of every digit). */
    async balanceText(id: string): Promise<string> {
      const res = await app().get(`/api/v1/relayers/${id}/balance`).expect(200);
      return res.text;
    },
    /** The state the relayer itself shows. */
    async state(id: string): Promise<Pick<Relayer, 'system_disabled' | 'disabled_reason'>> {
      const { system_disabled, disabled_reason } = await this.relayer(id);
      return { system_disabled, disabled_reason };
    },
  };
}

const enabled = { system_disabled: false, disabled_reason: null };
const disabled = (type: string, details: string) => ({
  system_disabled: true,
  disabled_reason: { type, details },
});

describe('relayer health against Solana and Stellar RPC servers: checks on demand', () => {
  const solana = new SolanaRpc();
  const stellar = new StellarRpc();
  const receiver = new WebhookReceiver();
  let catalogue = '';
  beforeAll(async () => {
    await Promise.all([solana.start(), stellar.start(), receiver.start()]);
    catalogue = writeCatalogue(solana, stellar, 8);
  });
  // Only creates, PATCHes and POST .../check start checks here: the interval and retries are an hour.
  const handle = useTestApp(() => ({
    CONFIG_FILE: catalogue,
    RELAYER_HEALTH_CHECKS: 'true',
    RELAYER_HEALTH_CHECK_INTERVAL_SECONDS: '3600',
    RELAYER_HEALTH_RETRY_SECONDS: '3600',
    RPC_TIMEOUT_MS: '2000',
    WEBHOOK_RETRY_BASE_MS: '40',
  }));
  afterAll(async () => {
    await Promise.all([solana.close(), stellar.close(), receiver.close()]);
  });
  const app = () => handle.current;
  const relayers = api(app);
  const solanaHost = () => `127.0.0.1:${solana.rpc.port}`;
  const stellarHost = () => `127.0.0.1:${stellar.rpc.port}`;

  const notification = async (pathName: string): Promise<string> => {
    const id = uid('hook');
    await app()
      .post('/api/v1/notifications', { id, url: receiver.url(pathName) })
      .expect(201);
    return id;
  };
  /** The relayer_state_update events the target got: each disable's reason, each enable's retry count. */
  const stateEvents = async (pathName: string, count: number) => {
    await receiver.waitFor(pathName, count);
    // Give a stray extra event the chance to arrive, so that "exactly these" means it.
    await new Promise((resolve) => setTimeout(resolve, 300));
    return receiver
      .to(pathName)
      .filter((r) => r.json.event === 'relayer_state_update')
      .map((r) => {
        const { payload_type, disable_reason, retry_count } = r.json.payload;
        return payload_type === 'relayer_disabled'
          ? { payload_type, disable_reason }
          : { payload_type, retry_count };
      });
  };
  const firstCheck = (id: string) =>
    waitFor(`the first check of ${id}`, async () => {
      const status = await relayers.status(id);
      return status.checked_at !== null && status;
    });

  it('an unknown relayer: 404 on status, balance and check', async () => {
    const id = uid('nobody');
    const message = `Relayer with ID ${id} not found`;
    expectError(await app().get(`/api/v1/relayers/${id}/status`), 404, message);
    expectError(await app().get(`/api/v1/relayers/${id}/balance`), 404, message);
    expectError(await app().post(`/api/v1/relayers/${id}/check`), 404, message);
  });

  it('solana: healthy with a balance; getHealth -32005 → RpcValidationFailed; HTTP 503 too; below min_balance → BalanceCheckFailed; each recovery re-enables', async () => {
    const hook = await notification('/solana');
    const relayer = await relayers.create('solana', { notification_id: hook });
    const { id, address } = relayer;
    expect(address).toMatch(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/);

    // Right after the create: a healthy node, an account it has never seen (0 lamports), no min_balance.
    expect(await firstCheck(id)).toEqual({
      network_type: 'solana',
      balance: '0',
      paused: false,
      system_disabled: false,
      pending_transactions_count: 0,
      last_confirmed_transaction_timestamp: null,
      low_balance: null,
      checked_at: ISO,
    });
    expect(solana.calls('getHealth')).toBeGreaterThanOrEqual(1);

    solana.setBalance(address, 2_500_000_000n);
    const before = { health: solana.calls('getHealth'), balance: solana.calls('getBalance') };
    expect(await relayers.check(id)).toEqual({
      network_type: 'solana',
      balance: '2500000000',
      paused: false,
      system_disabled: false,
      pending_transactions_count: 0,
      last_confirmed_transaction_timestamp: null,
      low_balance: null,
      checked_at: ISO,
    });
    expect({ health: solana.calls('getHealth'), balance: solana.calls('getBalance') }).toEqual({
      health: before.health + 1,
      balance: before.balance + 1,
    });
    expect(await relayers.balanceText(id)).toBe(
      JSON.stringify(successBody({ balance: 2500000000, unit: 'lamport' })),
    );
    expect(await relayers.state(id)).toEqual(enabled);

    // The node answers getHealth with the documented error: no endpoint is valid. The balance
    // found last is kept; getBalance is not called.
    solana.setUnhealthy();
    const balanceCalls = solana.calls('getBalance');
    const unhealthy = `no RPC endpoint answered getHealth "ok": ${solanaHost()}: getHealth answered "Node is unhealthy"`;
    expect(await relayers.check(id)).toEqual({
      network_type: 'solana',
      balance: '2500000000',
      paused: false,
      system_disabled: true,
      pending_transactions_count: 0,
      last_confirmed_transaction_timestamp: null,
      low_balance: null,
      checked_at: ISO,
    });
    expect(solana.calls('getBalance')).toBe(balanceCalls);
    expect(await relayers.state(id)).toEqual(disabled('RpcValidationFailed', unhealthy));

    solana.setUnhealthy(42);
    await relayers.check(id);
    expect(await relayers.state(id)).toEqual(
      disabled(
        'RpcValidationFailed',
        `no RPC endpoint answered getHealth "ok": ${solanaHost()}: getHealth answered "Node is unhealthy" (behind by 42 slots)`,
      ),
    );

    solana.setHealthy();
    solana.setHttpStatus(503);
    expect((await relayers.check(id)).system_disabled).toBe(true);
    expect(await relayers.state(id)).toEqual(
      disabled('RpcValidationFailed', `no RPC endpoint answered getHealth "ok": ${solanaHost()}: HTTP 503`),
    );

    // Recovery.
    solana.setHttpStatus(null);
    expect(await relayers.check(id)).toMatchObject({ balance: '2500000000', system_disabled: false });
    expect(await relayers.state(id)).toEqual(enabled);

    // A PATCH of policies is checked at once, without a request for it.
    await app()
      .patch(`/api/v1/relayers/${id}`, { policies: { min_balance: 3_000_000_000 } })
      .expect(200);
    const belowMin = disabled('BalanceCheckFailed', 'balance 2500000000 is below min_balance 3000000000');
    await waitFor('the check after the PATCH', async () => (await relayers.state(id)).system_disabled);
    expect(await relayers.state(id)).toEqual(belowMin);
    expect(await relayers.check(id)).toEqual({
      network_type: 'solana',
      balance: '2500000000',
      paused: false,
      system_disabled: true,
      pending_transactions_count: 0,
      last_confirmed_transaction_timestamp: null,
      low_balance: null,
      checked_at: ISO,
    });
    expect(await relayers.state(id)).toEqual(belowMin);

    // Funded up to exactly min_balance: enough.
    solana.setBalance(address, 3_000_000_000n);
    expect(await relayers.check(id)).toMatchObject({ balance: '3000000000', system_disabled: false });
    expect(await relayers.state(id)).toEqual(enabled);

    // Lamports are u64: a balance above 2^53 is kept and shown to the last digit.
    solana.setBalance(address, WHALE_LAMPORTS);
    expect(await relayers.check(id)).toMatchObject({
      balance: WHALE_LAMPORTS.toString(),
      system_disabled: false,
    });
    expect(await relayers.balanceText(id)).toBe(
      `{"success":true,"data":{"balance":${WHALE_LAMPORTS},"unit":"lamport"},"error":null}`,
    );

    expect(await stateEvents('/solana', 6)).toEqual([
      { payload_type: 'relayer_disabled', disable_reason: unhealthy },
      { payload_type: 'relayer_enabled', retry_count: 3 },
      { payload_type: 'relayer_disabled', disable_reason: belowMin.disabled_reason.details },
      { payload_type: 'relayer_enabled', retry_count: 2 },
    ]);
    expect(receiver.to('/solana').map((r) => r.json.event)).toEqual([
      'relayer_created',
      'relayer_state_update',
      'relayer_state_update',
      'relayer_updated',
      'relayer_state_update',
      'relayer_state_update',
    ]);
  });

  it('stellar: account missing → SequenceSyncFailed; funded → enabled with sequence and stroops; passphrase mismatch → RpcValidationFailed; below min_balance → BalanceCheckFailed; each recovery re-enables', async () => {
    const hook = await notification('/stellar');
    const relayer = await relayers.create('stellar', { notification_id: hook });
    const { id, address } = relayer;
    expect(address).toMatch(/^G[A-Z2-7]{55}$/);

    // Right after the create: the account is not on the network yet.
    const missing = disabled(
      'SequenceSyncFailed',
      `account ${address} was not found on the network (not funded yet?)`,
    );
    expect(await firstCheck(id)).toEqual({
      network_type: 'stellar',
      balance: '0',
      paused: false,
      system_disabled: true,
      pending_transactions_count: 0,
      last_confirmed_transaction_timestamp: null,
      low_balance: null,
      sequence_number: '0',
      checked_at: ISO,
    });
    expect(await relayers.state(id)).toEqual(missing);
    expect(stellar.calls('getNetwork')).toBeGreaterThanOrEqual(1);
    expect(stellar.calls('getLedgerEntries')).toBeGreaterThanOrEqual(1);

    // Funded: 1000 XLM; the sequence number starts at (ledger of creation) << 32.
    stellar.setAccount(address, { balance: 10_000_000_000n, sequence: 5_153_960_755_200n });
    expect(await relayers.check(id)).toEqual({
      network_type: 'stellar',
      balance: '10000000000',
      paused: false,
      system_disabled: false,
      pending_transactions_count: 0,
      last_confirmed_transaction_timestamp: null,
      low_balance: null,
      sequence_number: '5153960755200',
      checked_at: ISO,
    });
    expect(await relayers.state(id)).toEqual(enabled);
    expect(await relayers.balanceText(id)).toBe(
      JSON.stringify(successBody({ balance: 10000000000, unit: 'stroop' })),
    );

    // The endpoint serves another network: no endpoint is valid; getLedgerEntries is not called,
    // and what was found last is kept.
    stellar.passphrase = PUBLIC_PASSPHRASE;
    const ledgerCalls = stellar.calls('getLedgerEntries');
    const wrongNetwork = disabled(
      'RpcValidationFailed',
      `no RPC endpoint answered the catalogue passphrase: network passphrase '${PUBLIC_PASSPHRASE}' differs from the catalogue's '${TESTNET_PASSPHRASE}'`,
    );
    expect(await relayers.check(id)).toEqual({
      network_type: 'stellar',
      balance: '10000000000',
      paused: false,
      system_disabled: true,
      pending_transactions_count: 0,
      last_confirmed_transaction_timestamp: null,
      low_balance: null,
      sequence_number: '5153960755200',
      checked_at: ISO,
    });
    expect(stellar.calls('getLedgerEntries')).toBe(ledgerCalls);
    expect(await relayers.state(id)).toEqual(wrongNetwork);

    // Recovery; the account has sent a transaction meanwhile.
    stellar.passphrase = TESTNET_PASSPHRASE;
    stellar.setAccount(address, { balance: 9_999_999_900n, sequence: 5_153_960_755_201n });
    expect(await relayers.check(id)).toMatchObject({
      balance: '9999999900',
      sequence_number: '5153960755201',
      system_disabled: false,
    });
    expect(await relayers.state(id)).toEqual(enabled);

    // min_balance in stroops, checked at once after the PATCH.
    await app()
      .patch(`/api/v1/relayers/${id}`, { policies: { min_balance: 20_000_000_000 } })
      .expect(200);
    const belowMin = disabled('BalanceCheckFailed', 'balance 9999999900 is below min_balance 20000000000');
    await waitFor('the check after the PATCH', async () => (await relayers.state(id)).system_disabled);
    expect(await relayers.state(id)).toEqual(belowMin);
    expect(await relayers.check(id)).toEqual({
      network_type: 'stellar',
      balance: '9999999900',
      paused: false,
      system_disabled: true,
      pending_transactions_count: 0,
      last_confirmed_transaction_timestamp: null,
      low_balance: null,
      sequence_number: '5153960755201',
      checked_at: ISO,
    });

    stellar.setAccount(address, { balance: 25_000_000_000n, sequence: 5_153_960_755_201n });
    expect(await relayers.check(id)).toMatchObject({ balance: '25000000000', system_disabled: false });
    expect(await relayers.state(id)).toEqual(enabled);

    // The account merged away: its sequence cannot be followed any more.
    stellar.removeAccount(address);
    expect(await relayers.check(id)).toMatchObject({
      balance: '25000000000',
      sequence_number: '5153960755201',
      system_disabled: true,
    });
    expect(await relayers.state(id)).toEqual(missing);
    stellar.setAccount(address, { balance: 25_000_000_000n, sequence: 6_000_000_000_000n });
    expect(await relayers.check(id)).toMatchObject({
      sequence_number: '6000000000000',
      system_disabled: false,
    });

    expect(await stateEvents('/stellar', 10)).toEqual([
      { payload_type: 'relayer_disabled', disable_reason: missing.disabled_reason.details },
      { payload_type: 'relayer_enabled', retry_count: 1 },
      { payload_type: 'relayer_disabled', disable_reason: wrongNetwork.disabled_reason.details },
      { payload_type: 'relayer_enabled', retry_count: 1 },
      { payload_type: 'relayer_disabled', disable_reason: belowMin.disabled_reason.details },
      { payload_type: 'relayer_enabled', retry_count: 2 },
      { payload_type: 'relayer_disabled', disable_reason: missing.disabled_reason.details },
      { payload_type: 'relayer_enabled', retry_count: 1 },
    ]);
  });

  it('HTTP and JSON-RPC errors: the details name the host and the error, never the API key of the catalogue URLs', async () => {
    solana.setHttpStatus(502);
    stellar.setHttpStatus(502);
    try {
      const sol = await relayers.create('solana');
      const xlm = await relayers.create('stellar');
      await relayers.check(sol.id);
      await relayers.check(xlm.id);
      expect(await relayers.state(sol.id)).toEqual(
        disabled('RpcValidationFailed', `no RPC endpoint answered getHealth "ok": ${solanaHost()}: HTTP 502`),
      );
      expect(await relayers.state(xlm.id)).toEqual(
        disabled(
          'RpcValidationFailed',
          `no RPC endpoint answered the catalogue passphrase: ${stellarHost()}: HTTP 502`,
        ),
      );
      const before = JSON.stringify([
        await relayers.relayer(sol.id),
        await relayers.relayer(xlm.id),
        await relayers.status(sol.id),
        await relayers.status(xlm.id),
      ]);
      expect(before).not.toContain(API_KEY_PART);

      // The second call answers a JSON-RPC error whose message echoes the key: it is said, the key is not.
      solana.setHttpStatus(null);
      stellar.setHttpStatus(null);
      stellar.setAccount(xlm.address, { balance: 10_000_000n, sequence: 1n });
      solana.rpc.failMethod('getBalance', {
        code: -32602,
        message: `Invalid param: WrongSize for /v1/${API_KEY_PART}`,
      });
      stellar.rpc.failMethod('getLedgerEntries', {
        code: -32603,
        message: `could not read the ledger (apikey=${API_KEY_PART})`,
      });
      await relayers.check(sol.id);
      await relayers.check(xlm.id);
      expect(await relayers.state(sol.id)).toEqual(
        disabled(
          'BalanceCheckFailed',
          `getBalance failed: ${solanaHost()}: answered JSON-RPC error -32602 (Invalid param: WrongSize for /v1/***)`,
        ),
      );
      expect(await relayers.state(xlm.id)).toEqual(
        disabled(
          'SequenceSyncFailed',
          `getLedgerEntries failed: ${stellarHost()}: answered JSON-RPC error -32603 (could not read the ledger (apikey=***))`,
        ),
      );
      const after = JSON.stringify([await relayers.relayer(sol.id), await relayers.relayer(xlm.id)]);
      expect(after).not.toContain(API_KEY_PART);
    } finally {
      solana.setHttpStatus(null);
      stellar.setHttpStatus(null);
      solana.rpc.failMethod('getBalance', null);
      stellar.rpc.failMethod('getLedgerEntries', null);
    }
  });
});

describe('relayer health against Solana and Stellar RPC servers: the scheduler alone', () => {
  const solana = new SolanaRpc();
  const stellar = new StellarRpc();
  let catalogue = '';
  beforeAll(async () => {
    await Promise.all([solana.start(), stellar.start()]);
    catalogue = writeCatalogue(solana, stellar, 2);
  });
  // A disabled relayer is checked again after 1 s, then 2 s (doubling up to the interval of 2 s).
  const handle = useTestApp(() => ({
    CONFIG_FILE: catalogue,
    RELAYER_HEALTH_CHECKS: 'true',
    RELAYER_HEALTH_CHECK_INTERVAL_SECONDS: '2',
    RELAYER_HEALTH_RETRY_SECONDS: '1',
    RPC_TIMEOUT_MS: '2000',
  }));
  afterAll(async () => {
    await Promise.all([solana.close(), stellar.close()]);
  });
  const relayers = api(() => handle.current);

  it('disables and re-enables relayers without any request for a check', async () => {
    solana.setUnhealthy();
    const sol = await relayers.create('solana');
    const xlm = await relayers.create('stellar');
    await waitFor('both relayers disabled by their first checks', async () => {
      const [a, b] = [await relayers.state(sol.id), await relayers.state(xlm.id)];
      return a.system_disabled && b.system_disabled && { a, b };
    });
    expect((await relayers.state(sol.id)).disabled_reason?.type).toBe('RpcValidationFailed');
    expect((await relayers.state(xlm.id)).disabled_reason?.type).toBe('SequenceSyncFailed');

    solana.setHealthy();
    solana.setBalance(sol.address, 1_000_000n);
    stellar.setAccount(xlm.address, { balance: 50_000_000n, sequence: 4_294_967_296n });
    const statuses = await waitFor(
      'both relayers re-enabled by the retries',
      async () => {
        const [a, b] = [await relayers.status(sol.id), await relayers.status(xlm.id)];
        return !a.system_disabled && !b.system_disabled && { a, b };
      },
      { timeoutMs: 15_000, intervalMs: 100 },
    );
    expect(statuses).toEqual({
      a: expect.objectContaining({ balance: '1000000', system_disabled: false }),
      b: expect.objectContaining({
        balance: '50000000',
        sequence_number: '4294967296',
        system_disabled: false,
      }),
    });
    expect(await relayers.state(sol.id)).toEqual(enabled);
    expect(await relayers.state(xlm.id)).toEqual(enabled);

    // Then every interval: the balance follows the network.
    solana.setBalance(sol.address, 7_000_000n);
    await waitFor(
      'the next round to see the new balance',
      async () => (await relayers.status(sol.id)).balance === '7000000',
      { timeoutMs: 15_000, intervalMs: 100 },
    );
  });
});
