import { as } from '../../support/as-key';
import { successBody } from '../../support/envelope';
import { EvmRpc } from '../../support/evm-rpc';
import { useTestApp } from '../../support/test-app';
import { writeConfigFile } from '../../support/test-catalogue';
import { TEST_DB } from '../../support/test-database';
import { WebhookReceiver, type ReceivedWebhook } from '../../support/webhook-receiver';
import { createKey, fileSigners, ISO, relayerBody, uid } from '../../factories';

/**
 * docs/reference/balance-alerts.md#5-status: a threshold set, changed or removed is compared at once
 * with each affected relayer's last balance read, in the write's transaction, so that GET .../status,
 * `?state=low_balance` and the summary answer it without waiting for a check; a crossing the write
 * finds is announced as a check's would be (docs/reference/balance-alerts.md#34-a-threshold-written).
 */

/** One network of the catalogue per test: a network's default reaches only that test's relayers. */
const NETWORKS = ['own', 'wide', 'again', 'events', 'scoped'] as const;
const SIGNERS = 20;

interface Created {
  readonly id: string;
  readonly address: string;
}

interface Status {
  readonly low_balance: boolean | null;
}

describe(`a threshold written is compared with the last balance at once, on ${TEST_DB}`, () => {
  const node = new EvmRpc();
  const receiver = new WebhookReceiver();
  let catalogue = '';
  let nextSigner = 0;
  beforeAll(async () => {
    await Promise.all([node.start(), receiver.start()]);
    catalogue = writeConfigFile({
      networks: NETWORKS.map((network) => ({
        type: 'evm',
        network,
        chain_id: 31337,
        rpc_urls: [node.url('/')],
      })),
      signers: fileSigners('write', SIGNERS),
    });
  });
  afterAll(async () => {
    await Promise.all([node.close(), receiver.close()]);
  });
  // An interval of an hour: only the creates' first checks and the checks asked for here run.
  const handle = useTestApp(() => ({
    CONFIG_FILE: catalogue,
    RELAYER_HEALTH_CHECKS: 'true',
    RELAYER_HEALTH_CHECK_INTERVAL_SECONDS: '3600',
    RELAYER_HEALTH_RETRY_SECONDS: '3600',
    RPC_TIMEOUT_MS: '2000',
    WEBHOOK_RETRY_BASE_MS: '50',
  }));
  const app = () => handle.current;

  /** A relayer whose last check read `balance` (POST .../check runs after its first check, if any). */
  const create = async (id: string, network: string, balance: bigint, notificationId?: string) => {
    const body = relayerBody('evm', {
      id,
      network,
      signer_id: `write-${nextSigner++}`,
      ...(notificationId === undefined ? {} : { notification_id: notificationId }),
    });
    const relayer = (await app().post('/api/v1/relayers', body).expect(201)).body.data as Created;
    node.setBalance(relayer.address, balance);
    const checked = (await app().post(`/api/v1/relayers/${id}/check`).expect(200)).body.data as {
      balance: string;
    };
    expect(checked.balance).toBe(balance.toString());
    return relayer;
  };
  const putRule = async (owner: string, threshold: string | null, key = app().apiKey) => {
    const res = await as(app(), key).put(`/api/v1/${owner}/balance-alert`, { threshold });
    expect(res.status).toBe(200);
  };
  const deleteRule = async (owner: string) => {
    await app().delete(`/api/v1/${owner}/balance-alert`).expect(200);
  };
  const lowBalance = async (id: string) =>
    ((await app().get(`/api/v1/relayers/${id}/status`).expect(200)).body.data as Status).low_balance;

  /**
   * What a key limited to `prefix*` is answered: each relayer's status low_balance, the ids the list's
   * state=low_balance finds (the whole envelope checked), and the summary's low_balance.
   */
  const seenBy = async (key: string, ids: readonly string[]) => {
    const statuses: Record<string, boolean | null> = {};
    for (const id of ids) statuses[id] = await lowBalance(id);
    const list = await as(app(), key).get('/api/v1/relayers?state=low_balance').expect(200);
    const listed = (list.body.data as Array<{ id: string }>).map((relayer) => relayer.id);
    const expectedItems = [];
    for (const id of listed) expectedItems.push((await app().get(`/api/v1/relayers/${id}`)).body.data);
    expect(list.body).toEqual({
      success: true,
      data: expectedItems,
      error: null,
      pagination: { current_page: 1, per_page: 10, total_items: listed.length },
    });
    const summary = (await as(app(), key).get('/api/v1/relayers/summary').expect(200)).body.data as {
      low_balance: number;
    };
    return { statuses, listed, summary: summary.low_balance };
  };
  const readerOf = async (prefix: string) =>
    (await createKey(app(), { permissions: ['relayers:read'], relayer_ids: [`${prefix}*`] })).key;

  it("a relayer's own threshold set, changed and removed: status, ?state=low_balance and the summary answer at once", async () => {
    const p = uid('own');
    const a = await create(`${p}-a`, 'own', 50n);
    const reader = await readerOf(p);
    expect((await app().get(`/api/v1/relayers/${a.id}/status`).expect(200)).body).toEqual(
      successBody({
        network_type: 'evm',
        balance: '50',
        paused: false,
        system_disabled: false,
        pending_transactions_count: 0,
        last_confirmed_transaction_timestamp: null,
        nonce: '0',
        checked_at: ISO,
        low_balance: null,
      }),
    );
    expect(await seenBy(reader, [a.id])).toEqual({ statuses: { [a.id]: null }, listed: [], summary: 0 });

    await putRule(`relayers/${a.id}`, '100');
    expect(await seenBy(reader, [a.id])).toEqual({
      statuses: { [a.id]: true },
      listed: [a.id],
      summary: 1,
    });
    // Equal is not below.
    await putRule(`relayers/${a.id}`, '50');
    expect(await seenBy(reader, [a.id])).toEqual({ statuses: { [a.id]: false }, listed: [], summary: 0 });
    await putRule(`relayers/${a.id}`, '51');
    expect(await seenBy(reader, [a.id])).toEqual({
      statuses: { [a.id]: true },
      listed: [a.id],
      summary: 1,
    });
    // Its own null: no alert for it.
    await putRule(`relayers/${a.id}`, null);
    expect(await seenBy(reader, [a.id])).toEqual({ statuses: { [a.id]: null }, listed: [], summary: 0 });
    await putRule(`relayers/${a.id}`, '51');
    await deleteRule(`relayers/${a.id}`);
    // Its network has no default: no threshold now.
    expect(await seenBy(reader, [a.id])).toEqual({ statuses: { [a.id]: null }, listed: [], summary: 0 });
  });

  it("a network's threshold reaches every relayer of the network without a rule of its own, compared exactly at any size", async () => {
    const p = uid('wide');
    const big = await create(`${p}-big`, 'wide', 10n ** 20n); // 21 digits
    const nines = await create(`${p}-nines`, 'wide', 10n ** 20n - 1n); // 20 digits
    const silenced = await create(`${p}-silenced`, 'wide', 1n);
    const ownZero = await create(`${p}-own-zero`, 'wide', 1n);
    const elsewhere = await create(`${p}-elsewhere`, 'own', 1n);
    await putRule(`relayers/${silenced.id}`, null);
    await putRule(`relayers/${ownZero.id}`, '0');
    const reader = await readerOf(p);
    const ids = [big.id, nines.id, silenced.id, ownZero.id, elsewhere.id];
    const state = (bigLow: boolean | null, ninesLow: boolean | null) => {
      const listed = [big.id, nines.id].filter((_, i) => [bigLow, ninesLow][i] === true);
      return {
        statuses: {
          [big.id]: bigLow,
          [nines.id]: ninesLow,
          [silenced.id]: null,
          [ownZero.id]: false,
          [elsewhere.id]: null,
        },
        listed,
        summary: listed.length,
      };
    };
    expect(await seenBy(reader, ids)).toEqual(state(null, null));

    for (const [threshold, bigLow, ninesLow] of [
      ['100000000000000000000', false, true], // 10^20: equal, and one digit shorter
      ['99999999999999999999', false, false],
      ['100000000000000000001', true, true],
      // Shorter is smaller, whatever its first digit: "9" is not above "100000000000000000000".
      ['9', false, false],
      [`1${'0'.repeat(90)}`, true, true],
    ] as const) {
      await putRule('networks/evm:wide', threshold);
      expect({ threshold, seen: await seenBy(reader, ids) }).toEqual({
        threshold,
        seen: state(bigLow, ninesLow),
      });
    }
    await deleteRule('networks/evm:wide');
    expect(await seenBy(reader, ids)).toEqual(state(null, null));
  });

  it('a threshold removed and set again before any check: low_balance follows the threshold set (it stayed true)', async () => {
    const p = uid('again');
    const a = await create(`${p}-a`, 'again', 50n);
    const reader = await readerOf(p);
    await putRule(`relayers/${a.id}`, '100');
    await app().post(`/api/v1/relayers/${a.id}/check`).expect(200);
    expect(await seenBy(reader, [a.id])).toEqual({
      statuses: { [a.id]: true },
      listed: [a.id],
      summary: 1,
    });
    await deleteRule(`relayers/${a.id}`);
    expect(await seenBy(reader, [a.id])).toEqual({ statuses: { [a.id]: null }, listed: [], summary: 0 });
    await putRule(`relayers/${a.id}`, '10');
    expect(await seenBy(reader, [a.id])).toEqual({ statuses: { [a.id]: false }, listed: [], summary: 0 });

    // The same through the network's default.
    await putRule('networks/evm:again', '100');
    await deleteRule(`relayers/${a.id}`);
    expect(await lowBalance(a.id)).toBe(true);
    await deleteRule('networks/evm:again');
    expect(await lowBalance(a.id)).toBeNull();
    await putRule('networks/evm:again', '10');
    expect(await seenBy(reader, [a.id])).toEqual({ statuses: { [a.id]: false }, listed: [], summary: 0 });
  });

  describe('events', () => {
    const hook = async (): Promise<{ id: string; path: string }> => {
      const id = uid('hook');
      await app()
        .post('/api/v1/notifications', { id, url: receiver.url(`/${id}`) })
        .expect(201);
      return { id, path: `/${id}` };
    };
    const balanceEvents = (hookPath: string) =>
      receiver
        .to(hookPath)
        .filter((r) => r.json.event === 'relayer_low_balance' || r.json.event === 'relayer_balance_restored')
        .map(eventFields);
    /** Waits for `count` balance events at the target, then a while longer for any that should not come. */
    const settled = async (hookPath: string, count: number) => {
      const deadline = Date.now() + 15_000;
      while (balanceEvents(hookPath).length < count && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      await new Promise((resolve) => setTimeout(resolve, 700));
      return balanceEvents(hookPath);
    };
    const low = (relayer: string, balance: string, threshold: string) => ({
      event: 'relayer_low_balance',
      payload_type: 'relayer_low_balance',
      balance,
      threshold,
      relayer,
    });
    const restored = (relayer: string, balance: string, threshold: string) => ({
      event: 'relayer_balance_restored',
      payload_type: 'relayer_balance_restored',
      balance,
      threshold,
      relayer,
    });

    it('a crossing the write finds is announced once, as a check would: none on removal, and the checks after it announce nothing more', async () => {
      const target = await hook();
      const p = uid('events');
      const a = await create(`${p}-a`, 'events', 50n, target.id);

      await putRule(`relayers/${a.id}`, '100');
      expect(await settled(target.path, 1)).toEqual([low(a.id, '50', '100')]);
      const [announced] = receiver.to(target.path).filter((r) => r.json.event === 'relayer_low_balance');
      expect(announced.json.payload.relayer).toEqual(
        (await app().get(`/api/v1/relayers/${a.id}`).expect(200)).body.data,
      );

      // Still below: the same rule again, a higher one, and a check announce nothing.
      await putRule(`relayers/${a.id}`, '100');
      await putRule(`relayers/${a.id}`, '200');
      await app().post(`/api/v1/relayers/${a.id}/check`).expect(200);
      await putRule(`relayers/${a.id}`, '10');
      expect(await settled(target.path, 2)).toEqual([low(a.id, '50', '100'), restored(a.id, '50', '10')]);

      // Removed: forgotten without an event; set again above the balance: a first comparison, not low.
      await deleteRule(`relayers/${a.id}`);
      await putRule(`relayers/${a.id}`, '10');
      // Its own rule stands: the network's default does not reach it.
      await putRule('networks/evm:events', '100');
      await app().post(`/api/v1/relayers/${a.id}/check`).expect(200);
      expect(await settled(target.path, 2)).toEqual([low(a.id, '50', '100'), restored(a.id, '50', '10')]);

      // Its rule removed, the network's 100 applies: low.
      await deleteRule(`relayers/${a.id}`);
      await app().post(`/api/v1/relayers/${a.id}/check`).expect(200);
      expect(await settled(target.path, 3)).toEqual([
        low(a.id, '50', '100'),
        restored(a.id, '50', '10'),
        low(a.id, '50', '100'),
      ]);
      expect(await lowBalance(a.id)).toBe(true);
    });

    it("a network's default set by a key scoped to other relayers announces the crossing of every relayer it reaches", async () => {
      const target = await hook();
      const p = uid('scoped');
      const inside = await create(`${p}-a`, 'scoped', 5n, target.id);
      const outside = await create(`other-${p}-b`, 'scoped', 7n, target.id);
      const high = await create(`${p}-c`, 'scoped', 5000n, target.id);
      const key = await createKey(app(), {
        permissions: ['networks:write', 'relayers:read'],
        relayer_ids: [`${p}*`],
      });
      await putRule('networks/evm:scoped', '1000', key.key);
      const events = await settled(target.path, 2);
      expect(events.sort((x, y) => x.relayer.localeCompare(y.relayer))).toEqual(
        [low(inside.id, '5', '1000'), low(outside.id, '7', '1000')].sort((x, y) =>
          x.relayer.localeCompare(y.relayer),
        ),
      );
      expect({
        inside: await lowBalance(inside.id),
        outside: await lowBalance(outside.id),
        high: await lowBalance(high.id),
      }).toEqual({ inside: true, outside: true, high: false });
    });
  });
});

function eventFields(received: ReceivedWebhook) {
  const { payload_type, balance, threshold, relayer } = received.json.payload as {
    payload_type: string;
    balance: string;
    threshold: string;
    relayer: { id: string };
  };
  return { event: received.json.event, payload_type, balance, threshold, relayer: relayer.id };
}
