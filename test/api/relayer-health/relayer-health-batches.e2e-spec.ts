import { Anvil } from '../../support/anvil';
import { CountingProxy } from '../../support/counting-rpc-proxy';
import { JsonRpcServer } from '../../support/json-rpc-server';
import { useTestApp } from '../../support/test-app';
import { TEST_DB } from '../../support/test-database';
import { waitFor } from '../../support/wait';
import { anonymousRelayerBody, fileSigners } from '../../factories';
import { writeConfigFile } from '../../support/test-catalogue';

const GOOD = 6;
const BAD = 3;

interface RelayerState {
  system_disabled: boolean;
  disabled_reason: { type: string; details: string } | null;
}

describe(`health checks in batches on ${TEST_DB} (docs/reference/relayer-health.md#26-rounds-in-batches)`, () => {
  const anvil = new Anvil();
  let proxy: CountingProxy;
  /** The one endpoint of the `broken` network: every request answered HTTP 503. */
  const broken = new JsonRpcServer({});
  let catalogue = '';
  beforeAll(async () => {
    await anvil.start();
    proxy = await new CountingProxy(anvil.url).start();
    await broken.start();
    broken.httpStatus = 503;
    catalogue = writeConfigFile({
      networks: [
        {
          type: 'evm',
          network: 'anvil',
          chain_id: Anvil.CHAIN_ID,
          rpc_urls: [`http://127.0.0.1:${proxy.port}`],
        },
        { type: 'evm', network: 'broken', chain_id: Anvil.CHAIN_ID, rpc_urls: [broken.url('/')] },
      ],
      signers: fileSigners('batch', GOOD + BAD),
    });
  });
  afterAll(async () => {
    await broken.close();
    await proxy?.close();
    await anvil.stop();
  });
  // Interval and retry of an hour: only the creates and the UPDATE below start checks.
  const handle = useTestApp(() => ({
    CONFIG_FILE: catalogue,
    RELAYER_HEALTH_CHECKS: 'true',
    RELAYER_HEALTH_CHECK_INTERVAL_SECONDS: '3600',
    RELAYER_HEALTH_RETRY_SECONDS: '3600',
    RPC_TIMEOUT_MS: '5000',
  }));
  const app = () => handle.current;

  const stateOf = async (id: string): Promise<RelayerState & { checked: boolean }> => {
    const relayer = await app().get(`/api/v1/relayers/${id}`).expect(200);
    const status = await app().get(`/api/v1/relayers/${id}/status`).expect(200);
    const { system_disabled, disabled_reason } = (relayer.body as { data: RelayerState }).data;
    const { checked_at } = (status.body as { data: { checked_at: string | null } }).data;
    return { system_disabled, disabled_reason, checked: checked_at !== null };
  };

  it('one round over relayers of a working and a broken endpoint: one batch per endpoint, and only the relayers on the broken one fail', async () => {
    const ids: string[] = [];
    for (let i = 0; i < GOOD + BAD; i++) {
      const res = await app()
        .post(
          '/api/v1/relayers',
          anonymousRelayerBody('evm', {
            name: `batch ${i}`,
            network: i < GOOD ? 'anvil' : 'broken',
            signer_id: `batch-${i}`,
          }),
        )
        .expect(201);
      ids.push((res.body.data as { id: string }).id);
    }
    const everyChecked = async () => (await Promise.all(ids.map(stateOf))).every((s) => s.checked);
    await waitFor('the first check of every relayer', everyChecked, { timeoutMs: 20_000 });

    // One round: every relayer due at once, so that the scheduler claims them in one batch.
    proxy.requests = 0;
    proxy.calls.clear();
    broken.received = 0;
    await handle.database.exec(
      "UPDATE relayer_checks SET next_check_at = '2000-01-01 00:00:00.000', checked_at = NULL, lease_owner = NULL, lease_until = NULL",
    );
    await waitFor('every relayer checked again', everyChecked, { timeoutMs: 20_000 });

    const failed = {
      system_disabled: true,
      disabled_reason: {
        type: 'RpcValidationFailed',
        details: `no RPC endpoint answered with the right chain: 127.0.0.1:${broken.port}: HTTP 503`,
      },
      checked: true,
    };
    const passed = { system_disabled: false, disabled_reason: null, checked: true };
    expect({
      states: await Promise.all(ids.map(stateOf)),
      // The working endpoint: its chain id once, then every relayer's nonce in one batch and every balance in another.
      working: { requests: proxy.requests, calls: Object.fromEntries([...proxy.calls].sort()) },
      // The broken one: the one chain id call its relayers share.
      brokenRequests: broken.received,
    }).toEqual({
      states: [...Array<typeof passed>(GOOD).fill(passed), ...Array<typeof failed>(BAD).fill(failed)],
      working: {
        requests: 3,
        calls: { eth_chainId: 1, eth_getBalance: GOOD, eth_getTransactionCount: GOOD },
      },
      brokenRequests: 1,
    });
  });
});
