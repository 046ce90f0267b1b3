import request from 'supertest';
import { errorBody, expectError, successBody } from '../../support/envelope';
import { EvmRpc } from '../../support/evm-rpc';
import { useTestApp } from '../../support/test-app';
import { TEST_DB } from '../../support/test-database';
import { waitFor } from '../../support/wait';
import { WebhookReceiver, type ReceivedWebhook } from '../../support/webhook-receiver';
import { createKey, fileSigners, ISO, relayerBody, setBalanceAlert, uid } from '../../factories';
import { writeConfigFile } from '../../support/test-catalogue';

const SIGNERS = 12;

/** A catalogue with two EVM networks on the fake node, and plain signers `alert-<i>`. */
function writeCatalogue(url: string): string {
  const file = writeConfigFile({
    networks: [
      { type: 'evm', network: 'fake', chain_id: 31337, rpc_urls: [url] },
      { type: 'evm', network: 'other', chain_id: 31337, rpc_urls: [url] },
    ],
    signers: fileSigners('alert', SIGNERS),
  });
  return file;
}

interface Created {
  id: string;
  address: string;
}

describe(`balance alerts on ${TEST_DB} (docs/reference/balance-alerts.md)`, () => {
  const node = new EvmRpc();
  const receiver = new WebhookReceiver();
  let catalogue = '';
  let nextSigner = 0;
  beforeAll(async () => {
    await Promise.all([node.start(), receiver.start()]);
    catalogue = writeCatalogue(node.url('/'));
  });
  afterAll(async () => {
    await Promise.all([node.close(), receiver.close()]);
  });
  // An interval of an hour: only the creates and the checks asked for here run, unless a test makes checks due.
  const handle = useTestApp(() => ({
    CONFIG_FILE: catalogue,
    RELAYER_HEALTH_CHECKS: 'true',
    RELAYER_HEALTH_CHECK_INTERVAL_SECONDS: '3600',
    RELAYER_HEALTH_RETRY_SECONDS: '3600',
    RPC_TIMEOUT_MS: '2000',
    WEBHOOK_RETRY_BASE_MS: '50',
  }));
  const app = () => handle.current;

  const put = (url: string, body: unknown, key = app().apiKey) =>
    request(app().baseUrl)
      .put(url)
      .set('Authorization', `Bearer ${key}`)
      .set('Content-Type', 'application/json')
      .send(typeof body === 'string' ? body : JSON.stringify(body));
  const as = (key: string, method: 'get' | 'delete', url: string) =>
    request(app().baseUrl)[method](url).set('Authorization', `Bearer ${key}`);

  /** A relayer on `network` whose first check has run (with the balance set before it). */
  const create = async (
    fields: { network?: string; notification_id?: string } = {},
    balance = 10n ** 18n,
  ): Promise<Created> => {
    const res = await app()
      .post(
        '/api/v1/relayers',
        relayerBody('evm', { network: 'fake', signer_id: `alert-${nextSigner++}`, ...fields }),
      )
      .expect(201);
    const relayer = res.body.data as Created;
    node.setBalance(relayer.address, balance);
    await waitFor(
      'the first check',
      async () =>
        (
          (await app().get(`/api/v1/relayers/${relayer.id}/status`).expect(200)).body.data as {
            checked_at: string | null;
          }
        ).checked_at !== null,
      { timeoutMs: 15_000 },
    );
    return relayer;
  };
  const check = async (id: string) =>
    (await app().post(`/api/v1/relayers/${id}/check`).expect(200)).body.data as {
      balance: string;
      low_balance: boolean | null;
    };
  const hook = async (): Promise<{ id: string; path: string }> => {
    const id = uid('hook');
    const hookPath = `/${id}`;
    await app()
      .post('/api/v1/notifications', { id, url: receiver.url(hookPath) })
      .expect(201);
    return { id, path: hookPath };
  };
  /** The balance events a target received, as the fields a test compares. */
  const balanceEvents = (hookPath: string) =>
    receiver
      .to(hookPath)
      .filter((r) => r.json.event === 'relayer_low_balance' || r.json.event === 'relayer_balance_restored')
      .map(eventFields);
  /** Lets the dispatcher deliver whatever was queued, then answers what arrived. */
  const settled = async (hookPath: string, count: number) => {
    await waitFor(`${count} balance events at ${hookPath}`, () => balanceEvents(hookPath).length >= count, {
      timeoutMs: 15_000,
    });
    await new Promise((resolve) => setTimeout(resolve, 500));
    return balanceEvents(hookPath);
  };

  describe('the rules', () => {
    it('PUT, GET and DELETE on a network and a relayer: the network default, the override, null, and DELETE falling back', async () => {
      const relayer = await create({ network: 'other' });
      const url = `/api/v1/relayers/${relayer.id}/balance-alert`;
      const networkUrl = '/api/v1/networks/evm:other/balance-alert';

      expect((await app().get(url)).body).toEqual(successBody({ threshold: null, source: null }));
      expect((await app().get(networkUrl)).body).toEqual(successBody({ threshold: null, source: null }));

      let res = await put(networkUrl, { threshold: '1000' });
      expect({ status: res.status, body: res.body as unknown }).toEqual({
        status: 200,
        body: successBody({ threshold: '1000', source: 'network' }),
      });
      expect((await app().get(networkUrl)).body).toEqual(
        successBody({ threshold: '1000', source: 'network' }),
      );
      expect((await app().get(url)).body).toEqual(successBody({ threshold: '1000', source: 'network' }));

      res = await put(url, { threshold: 250 });
      expect({ status: res.status, body: res.body as unknown }).toEqual({
        status: 200,
        body: successBody({ threshold: '250', source: 'relayer' }),
      });
      expect((await app().get(url)).body).toEqual(successBody({ threshold: '250', source: 'relayer' }));

      res = await put(url, { threshold: null });
      expect({ status: res.status, body: res.body as unknown }).toEqual({
        status: 200,
        body: successBody({ threshold: null, source: 'relayer' }),
      });
      expect((await app().get(url)).body).toEqual(successBody({ threshold: null, source: 'relayer' }));

      res = await app().delete(url);
      expect({ status: res.status, body: res.body as unknown }).toEqual({
        status: 200,
        body: successBody({ threshold: '1000', source: 'network' }),
      });
      // Deleting what is not there changes nothing and says what applies.
      res = await app().delete(url);
      expect({ status: res.status, body: res.body as unknown }).toEqual({
        status: 200,
        body: successBody({ threshold: '1000', source: 'network' }),
      });

      res = await app().delete(networkUrl);
      expect({ status: res.status, body: res.body as unknown }).toEqual({
        status: 200,
        body: successBody({ threshold: null, source: null }),
      });
      expect((await app().get(url)).body).toEqual(successBody({ threshold: null, source: null }));
    });

    it('thresholds are read exactly at any size, as decimal strings or JSON integers', async () => {
      const relayer = await create({ network: 'other' });
      const url = `/api/v1/relayers/${relayer.id}/balance-alert`;
      const huge = `1${'0'.repeat(90)}`;
      for (const [body, expected] of [
        [`{"threshold": "${huge}"}`, huge],
        ['{"threshold": 18446744073709551617}', '18446744073709551617'],
        ['{"threshold": 123456789012345678901234567890}', '123456789012345678901234567890'],
        ['{"threshold": "000042"}', '42'],
        ['{"threshold": 0}', '0'],
      ] as const) {
        const res = await put(url, body);
        expect({ body, status: res.status, data: res.body as unknown }).toEqual({
          body,
          status: 200,
          data: successBody({ threshold: expected, source: 'relayer' }),
        });
      }
      const read = await app().get(url).expect(200);
      expect(read.text).toBe('{"success":true,"data":{"threshold":"0","source":"relayer"},"error":null}');
    });

    it('negative, non-integer, missing or unknown: 400 naming the field, and nothing changes', async () => {
      const relayer = await create({ network: 'other' });
      const url = `/api/v1/relayers/${relayer.id}/balance-alert`;
      await put(url, { threshold: '77' }).expect(200);
      const rule =
        'threshold must be a whole number >= 0 in the base unit (a JSON integer or a string of decimal digits, at most 1000 digits)';
      for (const [body, message] of [
        ['{"threshold": -1}', rule],
        ['{"threshold": "-1"}', rule],
        ['{"threshold": 1.5}', rule],
        ['{"threshold": "1.5"}', rule],
        ['{"threshold": 1e400}', rule],
        ['{"threshold": "1e3"}', rule],
        ['{"threshold": ""}', rule],
        ['{"threshold": " 12"}', rule],
        ['{"threshold": true}', rule],
        ['{"threshold": [1]}', rule],
        [`{"threshold": "${'9'.repeat(1001)}"}`, rule],
        ['{}', 'threshold is required'],
        ['{"threshold": "5", "network": "x"}', 'network is not an allowed field'],
      ] as const) {
        const res = await put(url, body);
        expect({ body: body.slice(0, 40), status: res.status, data: res.body as unknown }).toEqual({
          body: body.slice(0, 40),
          status: 400,
          data: errorBody(message),
        });
      }
      // A network's default is a threshold: null is for a relayer's own rule.
      const res = await put('/api/v1/networks/evm:other/balance-alert', { threshold: null });
      expectError(res, 400, `${rule}; null is for a relayer's own rule`);
      expect((await app().get(url)).body).toEqual(successBody({ threshold: '77', source: 'relayer' }));
    });

    it('unknown relayer or network: 404 on every method', async () => {
      for (const method of ['get', 'put', 'delete'] as const) {
        const relayerRes =
          method === 'put'
            ? await put('/api/v1/relayers/nope/balance-alert', { threshold: '1' })
            : await app()[method]('/api/v1/relayers/nope/balance-alert');
        expectError(relayerRes, 404, 'Relayer with ID nope not found');
        const networkRes =
          method === 'put'
            ? await put('/api/v1/networks/evm:nope/balance-alert', { threshold: '1' })
            : await app()[method]('/api/v1/networks/evm:nope/balance-alert');
        expectError(networkRes, 404, "Network with ID 'evm:nope' not found");
      }
    });

    it('permissions: read to GET, write to PUT and DELETE, each of its resource (403, nothing changes)', async () => {
      const relayer = await create({ network: 'other' });
      const url = `/api/v1/relayers/${relayer.id}/balance-alert`;
      const networkUrl = '/api/v1/networks/evm:other/balance-alert';
      const key = async (permissions: string[]) =>
        (await createKey(app(), { name: permissions.join(' '), permissions })).key;
      const reader = await key(['relayers:read', 'networks:read']);
      const writer = await key(['relayers:write', 'networks:write']);

      expect((await as(reader, 'get', url)).body).toEqual(successBody({ threshold: null, source: null }));
      expect((await as(reader, 'get', networkUrl)).body).toEqual(
        successBody({ threshold: null, source: null }),
      );
      expectError(await put(url, { threshold: '5' }, reader), 403, 'Forbidden');
      expectError(await put(networkUrl, { threshold: '5' }, reader), 403, 'Forbidden');
      expectError(await as(reader, 'delete', url), 403, 'Forbidden');
      expectError(await as(reader, 'delete', networkUrl), 403, 'Forbidden');
      expectError(await as(writer, 'get', url), 403, 'Forbidden');
      expectError(await as(writer, 'get', networkUrl), 403, 'Forbidden');
      expect((await app().get(url)).body).toEqual(successBody({ threshold: null, source: null }));

      // A relayers:write key sets a relayer's rule, not a network's.
      const relayerWriter = await key(['relayers:write']);
      expect((await put(url, { threshold: '5' }, relayerWriter)).status).toBe(200);
      expectError(await put(networkUrl, { threshold: '5' }, relayerWriter), 403, 'Forbidden');
      expect((await as(relayerWriter, 'delete', url)).status).toBe(200);
      expect((await app().get(networkUrl)).body).toEqual(successBody({ threshold: null, source: null }));
    });

    it("a relayer's rule goes with it: the same id created again has none", async () => {
      const id = uid('gone');
      const body = relayerBody('evm', { id, network: 'other', signer_id: `alert-${nextSigner++}` });
      await app().post('/api/v1/relayers', body).expect(201);
      await setBalanceAlert(app(), `relayers/${id}`, '12');
      await app().delete(`/api/v1/relayers/${id}`).expect(200);
      expectError(
        await app().get(`/api/v1/relayers/${id}/balance-alert`),
        404,
        `Relayer with ID ${id} not found`,
      );
      await app().post('/api/v1/relayers', body).expect(201);
      expect((await app().get(`/api/v1/relayers/${id}/balance-alert`)).body).toEqual(
        successBody({ threshold: null, source: null }),
      );
    });

    it('each change is audited as an update of its relayer or network, with the rule before and after', async () => {
      const relayer = await create({ network: 'other' });
      const url = `/api/v1/relayers/${relayer.id}/balance-alert`;
      await put(url, { threshold: '300' }).expect(200);
      await put(url, { threshold: '300' }).expect(200); // unchanged: no record
      await app().delete(url).expect(200);
      await setBalanceAlert(app(), 'networks/evm:other', '9');
      await app().delete('/api/v1/networks/evm:other/balance-alert').expect(200);

      const records = async (query: string) =>
        ((await app().get(`/api/v1/audit?${query}`).expect(200)).body.data as Array<Record<string, unknown>>)
          .map(({ action, resource_type, resource_id, before, after }) => ({
            action,
            resource_type,
            resource_id,
            before,
            after,
          }))
          .reverse();
      expect(await records(`resource_type=relayer&resource_id=${relayer.id}&action=relayer.update`)).toEqual([
        {
          action: 'relayer.update',
          resource_type: 'relayer',
          resource_id: relayer.id,
          before: { threshold: null, source: null },
          after: { threshold: '300', source: 'relayer' },
        },
        {
          action: 'relayer.update',
          resource_type: 'relayer',
          resource_id: relayer.id,
          before: { threshold: '300', source: 'relayer' },
          after: { threshold: null, source: null },
        },
      ]);
      // The first test set and removed this network's default too: the last two records are this test's.
      expect((await records('resource_type=network&resource_id=evm:other')).slice(-2)).toEqual([
        {
          action: 'network.update',
          resource_type: 'network',
          resource_id: 'evm:other',
          before: { threshold: null, source: null },
          after: { threshold: '9', source: 'network' },
        },
        {
          action: 'network.update',
          resource_type: 'network',
          resource_id: 'evm:other',
          before: { threshold: '9', source: 'network' },
          after: { threshold: null, source: null },
        },
      ]);
    });
  });

  describe('the checks', () => {
    beforeAll(async () => {
      await setBalanceAlert(app(), 'networks/evm:fake', '1000');
    });

    it('one relayer_low_balance per crossing however many checks stay below, one relayer_balance_restored when it rises back', async () => {
      const target = await hook();
      const relayer = await create({ notification_id: target.id }, 5000n);
      expect(await check(relayer.id)).toMatchObject({ balance: '5000', low_balance: false });

      node.setBalance(relayer.address, 10n);
      for (let i = 0; i < 4; i++) {
        expect(await check(relayer.id)).toMatchObject({ balance: '10', low_balance: true });
      }
      // Scheduled rounds too (the batch path): every check made due at once, three times.
      for (let round = 0; round < 3; round++) await dueRound(relayer);

      expect(await settled(target.path, 1)).toEqual([
        {
          event: 'relayer_low_balance',
          payload_type: 'relayer_low_balance',
          balance: '10',
          threshold: '1000',
          relayer: relayer.id,
        },
      ]);
      const [low] = receiver.to(target.path).filter((r) => r.json.event === 'relayer_low_balance');
      expect(Object.keys(low.json.payload)).toEqual(['payload_type', 'relayer', 'balance', 'threshold']);
      expect(low.json.payload.relayer).toEqual(
        (await app().get(`/api/v1/relayers/${relayer.id}`).expect(200)).body.data,
      );

      // Back to the threshold exactly: restored, once.
      node.setBalance(relayer.address, 1000n);
      for (let i = 0; i < 3; i++) {
        expect(await check(relayer.id)).toMatchObject({ balance: '1000', low_balance: false });
      }
      await dueRound(relayer);
      expect(await settled(target.path, 2)).toEqual([
        {
          event: 'relayer_low_balance',
          payload_type: 'relayer_low_balance',
          balance: '10',
          threshold: '1000',
          relayer: relayer.id,
        },
        {
          event: 'relayer_balance_restored',
          payload_type: 'relayer_balance_restored',
          balance: '1000',
          threshold: '1000',
          relayer: relayer.id,
        },
      ]);

      // A second crossing is a second event.
      node.setBalance(relayer.address, 999n);
      await dueRound(relayer);
      await check(relayer.id);
      expect((await settled(target.path, 3)).at(-1)).toEqual({
        event: 'relayer_low_balance',
        payload_type: 'relayer_low_balance',
        balance: '999',
        threshold: '1000',
        relayer: relayer.id,
      });
      expect(balanceEvents(target.path)).toHaveLength(3);
    });

    it('GET /status answers low_balance: null without a threshold, true or false once a threshold written or a check compared the balance', async () => {
      const relayer = await create({ network: 'other' }, 50n);
      const status = async () =>
        (await app().get(`/api/v1/relayers/${relayer.id}/status`).expect(200)).body.data as Record<
          string,
          unknown
        >;
      expect(await status()).toEqual({
        network_type: 'evm',
        balance: '50',
        paused: false,
        system_disabled: false,
        pending_transactions_count: 0,
        last_confirmed_transaction_timestamp: null,
        nonce: '0',
        checked_at: ISO,
        low_balance: null,
      });
      // A threshold written is compared at once with the last balance read, and again by each check.
      await setBalanceAlert(app(), `relayers/${relayer.id}`, '100');
      expect((await status()).low_balance).toBe(true);
      await check(relayer.id);
      expect((await status()).low_balance).toBe(true);
      await setBalanceAlert(app(), `relayers/${relayer.id}`, '50');
      expect((await status()).low_balance).toBe(false);
      node.setBalance(relayer.address, 49n);
      await check(relayer.id);
      expect((await status()).low_balance).toBe(true);
      await app().delete(`/api/v1/relayers/${relayer.id}/balance-alert`).expect(200);
      expect((await status()).low_balance).toBeNull();
    });

    it("a relayer's null override silences its network's default; its own threshold replaces it; DELETE brings the default back", async () => {
      const target = await hook();
      const relayer = await create({ notification_id: target.id }, 5000n);
      const url = `/api/v1/relayers/${relayer.id}/balance-alert`;
      await put(url, { threshold: null }).expect(200);
      node.setBalance(relayer.address, 1n);
      expect(await check(relayer.id)).toMatchObject({ balance: '1', low_balance: null });
      await dueRound(relayer);

      // Its own threshold, below the balance: not low.
      await put(url, { threshold: '1' }).expect(200);
      expect(await check(relayer.id)).toMatchObject({ low_balance: false });
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(balanceEvents(target.path)).toEqual([]);

      // Back to the network's 1000: low, once.
      await app().delete(url).expect(200);
      expect(await check(relayer.id)).toMatchObject({ low_balance: true });
      await check(relayer.id);
      expect(await settled(target.path, 1)).toEqual([
        {
          event: 'relayer_low_balance',
          payload_type: 'relayer_low_balance',
          balance: '1',
          threshold: '1000',
          relayer: relayer.id,
        },
      ]);
    });

    it('/metrics: relayer_balance and relayer_low_balance per enabled relayer checked once, relayers_low_balance the count', async () => {
      const low = await create({}, 7n);
      const high = await create({}, 10n ** 20n);
      await check(low.id);
      await check(high.id);
      const text = (await app().get('/debug/metrics/scrape').expect(200)).text;
      const sample = (name: string, id: string) =>
        new RegExp(`^${name}\\{relayer_id="${id}",network_type="evm",network="fake"\\} (\\S+)$`, 'm').exec(
          text,
        )?.[1];
      expect({
        lowBalance: sample('relayer_balance', low.id),
        lowFlag: sample('relayer_low_balance', low.id),
        highBalance: sample('relayer_balance', high.id),
        highFlag: sample('relayer_low_balance', high.id),
      }).toEqual({ lowBalance: '7', lowFlag: '1', highBalance: '100000000000000000000', highFlag: '0' });
      const count = Number(/^relayers_low_balance (\d+)$/m.exec(text)?.[1]);
      const flagged = [...text.matchAll(/^relayer_low_balance\{[^}]*\} 1$/gm)].length;
      expect({ count, matchesFlags: count === flagged, atLeastOne: count >= 1 }).toEqual({
        count: flagged,
        matchesFlags: true,
        atLeastOne: true,
      });
      const names = (await app().get('/metrics').expect(200)).body as string[];
      expect(names).toEqual(
        expect.arrayContaining(['relayer_balance', 'relayer_low_balance', 'relayers_low_balance']),
      );
    });
  });

  /** Makes the relayer due and waits for the scheduler's round to check it (a batch, not POST /check). */
  async function dueRound(relayer: Created): Promise<void> {
    const checkedAt = async () =>
      (
        (await app().get(`/api/v1/relayers/${relayer.id}/status`).expect(200)).body.data as {
          checked_at: string | null;
        }
      ).checked_at;
    const before = await checkedAt();
    await handle.database.exec(
      `UPDATE relayer_checks SET next_check_at = '2000-01-01 00:00:00.000' WHERE relayer_id = '${relayer.id}'`,
    );
    await waitFor('a scheduled check, recorded', async () => (await checkedAt()) !== before, {
      timeoutMs: 15_000,
    });
  }
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
