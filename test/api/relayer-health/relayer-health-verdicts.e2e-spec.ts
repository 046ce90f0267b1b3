import { SolanaRpc } from '../../support/solana-rpc';
import { useTestApp } from '../../support/test-app';
import { TEST_DB } from '../../support/test-database';
import { waitFor } from '../../support/wait';
import { fileSigners, relayerBody, uid } from '../../factories';
import { writeConfigFile } from '../../support/test-catalogue';

/** The longest a PATCH of custom_rpc_urls may wait for its check: min(RELAYER_HEALTH_RETRY_SECONDS, 5 s). */
const PATCH_CHECK_WITHIN_MS = 5000;

/** A catalogue with one solana network (on `url`) and `signers` random plain keys. */
function writeCatalogue(url: string, signers: number): string {
  const file = writeConfigFile({
    networks: [{ type: 'solana', network: 'devnet', rpc_urls: [url], is_testnet: true }],
    signers: fileSigners('verdicts', signers),
  });
  return file;
}

interface RelayerState {
  system_disabled: boolean;
  disabled_reason: { type: string; details: string } | null;
}

describe(`verdicts about what is no longer there on ${TEST_DB} (docs/reference/hardening.md)`, () => {
  /** The relayer's URL before the PATCH: slow, then unhealthy. */
  const old = new SolanaRpc();
  /** Its URL after the PATCH: healthy at once. */
  const next = new SolanaRpc();
  const network = new SolanaRpc();
  let catalogue = '';
  beforeAll(async () => {
    await Promise.all([old.start(), next.start(), network.start()]);
    catalogue = writeCatalogue(network.url('/'), 4);
  });
  afterAll(async () => {
    await Promise.all([old.close(), next.close(), network.close()]);
  });
  // Interval and retry of an hour: only the create and the PATCH may start a check here.
  const handle = useTestApp(() => ({
    CONFIG_FILE: catalogue,
    RELAYER_HEALTH_CHECKS: 'true',
    RELAYER_HEALTH_CHECK_INTERVAL_SECONDS: '3600',
    RELAYER_HEALTH_RETRY_SECONDS: '3600',
    RPC_TIMEOUT_MS: '5000',
  }));
  const app = () => handle.current;

  it('a PATCH of custom_rpc_urls during a check of the old URL: never disabled for the replaced URL, the new URL checked within 5 s', async () => {
    old.setUnhealthy();
    old.rpc.answerDelayMs = 1000;
    const id = uid('race');
    await app()
      .post(
        '/api/v1/relayers',
        relayerBody('solana', {
          id,
          name: 'race',
          signer_id: 'verdicts-0',
          custom_rpc_urls: [{ url: old.url('/old'), weight: 1 }],
        }),
      )
      .expect(201);
    // The first check (started by the create) is waiting for the old URL's answer.
    await waitFor('the first check to call the old URL', () => old.rpc.received > 0, { timeoutMs: 5000 });
    expect(old.calls('getHealth')).toBe(0);

    const patchedAt = Date.now();
    const patched = await app()
      .patch(`/api/v1/relayers/${id}`, { custom_rpc_urls: [{ url: next.url('/new'), weight: 1 }] })
      .expect(200);
    expect(patched.body.data.system_disabled).toBe(false);

    // During the old check's answer and well after it: the relayer is never disabled for the old URL.
    const seen: RelayerState[] = [];
    const watchUntil = Date.now() + 2500;
    while (Date.now() < watchUntil) {
      const { system_disabled, disabled_reason } = (await app().get(`/api/v1/relayers/${id}`).expect(200))
        .body.data as RelayerState;
      seen.push({ system_disabled, disabled_reason });
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(old.calls('getHealth')).toBe(1); // the old check did get its (unhealthy) answer
    expect(seen.filter((state) => state.system_disabled)).toEqual([]);

    // The new URL is checked within 5 s of the PATCH, and the status says so.
    const status = await waitFor(
      'a check of the new URL',
      async () => {
        const res = await app().get(`/api/v1/relayers/${id}/status`).expect(200);
        const data = res.body.data as { checked_at: string | null; system_disabled: boolean };
        return next.calls('getHealth') > 0 && data.checked_at !== null && data;
      },
      { timeoutMs: PATCH_CHECK_WITHIN_MS + 2000, intervalMs: 50 },
    );
    const checkedAt = Date.parse(status.checked_at as string);
    expect({
      system_disabled: status.system_disabled,
      checkedAfterPatch: checkedAt >= patchedAt - 50,
      checkedWithin5s: checkedAt - patchedAt <= PATCH_CHECK_WITHIN_MS,
    }).toEqual({ system_disabled: false, checkedAfterPatch: true, checkedWithin5s: true });
    const { system_disabled, disabled_reason } = (await app().get(`/api/v1/relayers/${id}`).expect(200)).body
      .data as RelayerState;
    expect({ system_disabled, disabled_reason }).toEqual({ system_disabled: false, disabled_reason: null });
    // The old URL was asked once (the first check) and never again.
    expect(old.rpc.received).toBe(1);
  });

  it("a PATCH of the network's rpc_urls during a check of its old list: that check's verdict is dropped and the relayer checked again with the new list", async () => {
    network.setUnhealthy();
    network.rpc.answerDelayMs = 1000;
    const receivedBefore = network.rpc.received;
    next.rpc.resetCallCounts();
    const id = uid('net');
    await app()
      .post(
        '/api/v1/relayers',
        relayerBody('solana', { id, name: 'follows its network', signer_id: 'verdicts-1' }),
      )
      .expect(201);
    await waitFor('the first check to call the network', () => network.rpc.received > receivedBefore, {
      timeoutMs: 5000,
    });
    const patchedAt = Date.now();
    await app()
      .patch('/api/v1/networks/solana:devnet', { rpc_urls: [next.url('/network')] })
      .expect(200);
    const seen: boolean[] = [];
    const status = await waitFor(
      'a check with the new list',
      async () => {
        seen.push(
          ((await app().get(`/api/v1/relayers/${id}`).expect(200)).body.data as RelayerState).system_disabled,
        );
        const res = await app().get(`/api/v1/relayers/${id}/status`).expect(200);
        const data = res.body.data as { checked_at: string | null; system_disabled: boolean };
        return next.calls('getHealth') > 0 && data.checked_at !== null && data;
      },
      { timeoutMs: PATCH_CHECK_WITHIN_MS + 2000, intervalMs: 50 },
    );
    expect({
      neverDisabled: seen.every((disabled) => !disabled),
      system_disabled: status.system_disabled,
      checkedWithin5s: Date.parse(status.checked_at as string) - patchedAt <= PATCH_CHECK_WITHIN_MS,
    }).toEqual({ neverDisabled: true, system_disabled: false, checkedWithin5s: true });
    expect(network.calls('getHealth')).toBe(1); // the dropped check did get its (unhealthy) answer
  });

  it("a PATCH of the network's rpc_urls during a passing check of its old list: that pass does not count, the relayer is checked again with the new list and disabled", async () => {
    await app()
      .patch('/api/v1/networks/solana:devnet', { rpc_urls: [network.url('/healthy')] })
      .expect(200);
    network.setHealthy();
    network.rpc.answerDelayMs = 1000;
    next.setUnhealthy();
    next.rpc.answerDelayMs = 0;
    next.rpc.resetCallCounts();
    const receivedBefore = network.rpc.received;
    const id = uid('pass');
    await app()
      .post(
        '/api/v1/relayers',
        relayerBody('solana', { id, name: 'passes too late', signer_id: 'verdicts-2' }),
      )
      .expect(201);
    await waitFor('the first check to call the network', () => network.rpc.received > receivedBefore, {
      timeoutMs: 5000,
    });
    await app()
      .patch('/api/v1/networks/solana:devnet', { rpc_urls: [next.url('/unhealthy')] })
      .expect(200);
    const state = await waitFor(
      'a check with the new list',
      async () => {
        const res = await app().get(`/api/v1/relayers/${id}`).expect(200);
        const data = res.body.data as RelayerState;
        return next.calls('getHealth') > 0 && data.system_disabled && data;
      },
      { timeoutMs: PATCH_CHECK_WITHIN_MS + 2000, intervalMs: 50 },
    );
    expect({ system_disabled: state.system_disabled, disabled_reason: state.disabled_reason }).toEqual({
      system_disabled: true,
      disabled_reason: {
        type: 'RpcValidationFailed',
        details: `no RPC endpoint answered getHealth "ok": 127.0.0.1:${next.rpc.port}: getHealth answered "Node is unhealthy"`,
      },
    });
  });
});
