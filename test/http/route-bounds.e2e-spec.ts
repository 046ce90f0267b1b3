import type http from 'node:http';
import { expectError, successBody } from '../support/envelope';
import { EvmRpc } from '../support/evm-rpc';
import { LoopbackServer } from '../support/loopback-server';
import { useTestApp } from '../support/test-app';
import { waitFor } from '../support/wait';
import { WebhookReceiver } from '../support/webhook-receiver';
import { ISO, createNotification, createRelayer, relayerBody, uid } from '../factories';

/**
 * Bounds that docs/security.md ("Every route's worst case") cites from here, each proven over HTTP
 * against the real app: what one call may read, call or name, at most. Health checks are off in this
 * file's app, so every RPC call counted is one a request made.
 */

const KiB = 1024;
/** What the service reads of a webhook answer (docs/reference/webhooks.md#2-delivery). */
const WEBHOOK_ANSWER_LIMIT = 64 * KiB;
/** How much the endless target writes in one go: the bound below is the limit plus a few of these. */
const CHUNK = KiB;
const PER_PAGE_RULE = 'per_page must be a whole number from 1 to 100';
/** Sepolia's chain id in the test catalogue (test/support/test-catalogue.ts). */
const SEPOLIA_CHAIN_ID = 11_155_111;

/**
 * A webhook target that misbehaves: `/endless` answers 200 and then writes its body 1 KiB at a time
 * without end, until the client hangs up; `/redirect` answers 302 to `location`.
 */
class MisbehavingTarget extends LoopbackServer {
  location = '';
  /** For each endless answer, the body bytes written before its connection closed. */
  readonly written: number[] = [];

  protected handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    req.resume();
    req.on('end', () => {
      if (req.url === '/redirect') {
        res.writeHead(302, { location: this.location, 'content-type': 'text/plain' }).end('moved');
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.alloc(CHUNK, ' ');
      let written = 0;
      let open = true;
      res.on('error', () => undefined);
      res.on('close', () => {
        open = false;
        this.written.push(written);
      });
      const pump = (): void => {
        if (!open) return;
        written += chunk.length;
        if (res.write(chunk)) setImmediate(pump);
        else res.once('drain', pump);
      };
      pump();
    });
  }
}

const target = new MisbehavingTarget();
/** Where the redirect points, and where the relayers' events of this file go. */
const receiver = new WebhookReceiver();
/** Answers Sepolia's chain id, nonce 0 and the balance set for an address. */
const rightNode = new EvmRpc(SEPOLIA_CHAIN_ID);
/** Answers chain id 1: every check moves on to the next endpoint. */
const wrongNode = new EvmRpc(1);

beforeAll(async () => {
  await Promise.all([target.start(), receiver.start(), rightNode.start(), wrongNode.start()]);
  target.location = receiver.url('/landing');
});
afterAll(async () => {
  await Promise.all([target.close(), receiver.close(), rightNode.close(), wrongNode.close()]);
});

const handle = useTestApp();
const app = () => handle.current;

describe('a page holds at most 100 items (per_page)', () => {
  const emptyPage = (perPage: number) => ({
    ...successBody([]),
    pagination: { current_page: 1, per_page: perPage, total_items: 0 },
  });

  it('GET /api/v1/api-keys: per_page=101 is a 400 naming per_page; per_page=100 is served', async () => {
    expectError(await app().get('/api/v1/api-keys?per_page=101'), 400, PER_PAGE_RULE);
    const res = await app().get('/api/v1/api-keys?per_page=100');
    expect({ status: res.status, body: res.body as unknown }).toEqual({ status: 200, body: emptyPage(100) });
  });

  it('GET /api/v1/audit: per_page=101 is a 400 naming per_page; per_page=100 is served', async () => {
    const before2000 = 'until=2000-01-01T00:00:00Z';
    expectError(await app().get(`/api/v1/audit?${before2000}&per_page=101`), 400, PER_PAGE_RULE);
    const res = await app().get(`/api/v1/audit?${before2000}&per_page=100`);
    expect({ status: res.status, body: res.body as unknown }).toEqual({ status: 200, body: emptyPage(100) });
  });

  it('GET /api/v1/notifications/{id}/deliveries: per_page=101 is a 400 naming per_page; per_page=100 is served', async () => {
    const hook = (await createNotification(app())).id as string;
    const deliveries = `/api/v1/notifications/${hook}/deliveries`;
    expectError(await app().get(`${deliveries}?per_page=101`), 400, PER_PAGE_RULE);
    const res = await app().get(`${deliveries}?per_page=100`);
    expect({ status: res.status, body: res.body as unknown }).toEqual({ status: 200, body: emptyPage(100) });
  });
});

describe('a webhook url is at most 2,048 characters', () => {
  /** A public https URL of exactly `length` characters. */
  const urlOf = (length: number): string => {
    const base = 'https://hooks.example.com/';
    return base + 'p'.repeat(length - base.length);
  };
  const URL_RULE = 'url must be at most 2048 characters';

  it('POST /api/v1/notifications: a url of 2,049 characters is a 400 naming url and stores nothing; 2,048 is accepted', async () => {
    const refused = uid('n');
    expectError(await app().post('/api/v1/notifications', { id: refused, url: urlOf(2049) }), 400, URL_RULE);
    expectError(await app().get(`/api/v1/notifications/${refused}`), 404, 'Notification not found');

    const accepted = uid('n');
    const res = await app().post('/api/v1/notifications', { id: accepted, url: urlOf(2048) });
    const stored = { id: accepted, type: 'webhook', url: urlOf(2048), has_signing_key: false };
    expect({ status: res.status, body: res.body as unknown }).toEqual({
      status: 201,
      body: successBody(stored),
    });
    expect((await app().get(`/api/v1/notifications/${accepted}`).expect(200)).body).toEqual(
      successBody(stored),
    );
  });

  it('PATCH /api/v1/notifications/{id}: a url of 2,049 characters is a 400 naming url and changes nothing; 2,048 is accepted', async () => {
    const hook = (await createNotification(app())).id as string;
    const before = (await app().get(`/api/v1/notifications/${hook}`).expect(200)).body as unknown;
    expectError(await app().patch(`/api/v1/notifications/${hook}`, { url: urlOf(2049) }), 400, URL_RULE);
    expect((await app().get(`/api/v1/notifications/${hook}`).expect(200)).body).toEqual(before);

    const res = await app().patch(`/api/v1/notifications/${hook}`, { url: urlOf(2048) });
    expect({ status: res.status, body: res.body as unknown }).toEqual({
      status: 200,
      body: successBody({ id: hook, type: 'webhook', url: urlOf(2048), has_signing_key: false }),
    });
  });
});

describe('a webhook answer is read at most 64 KiB, and no redirect is followed', () => {
  it('POST /api/v1/notifications/{id}/test against a target writing an endless answer: 200 delivered, its connection closed after at most 64 KiB and a few chunks', async () => {
    const hook = (await createNotification(app(), { url: target.url('/endless') })).id as string;
    const res = await app().post(`/api/v1/notifications/${hook}/test`);
    expect({ status: res.status, body: res.body as unknown }).toEqual({
      status: 200,
      body: successBody({ delivered: true, status_code: 200, error: null, duration_ms: expect.any(Number) }),
    });
    // Had the service read the answer to its end, it would never have answered.
    const [written] = await waitFor(
      'the endless answer to be cut off',
      () => target.written.length > 0 && target.written,
    );
    // The reader stops at the chunk that reaches 64 KiB; the target hears of it a turn or two later.
    expect(written).toBeLessThanOrEqual(WEBHOOK_ANSWER_LIMIT + 8 * CHUNK);
  });

  it('POST /api/v1/notifications/{id}/test against a target answering 302: not delivered, HTTP 302, and the Location is never contacted', async () => {
    const hook = (await createNotification(app(), { url: target.url('/redirect') })).id as string;
    const res = await app().post(`/api/v1/notifications/${hook}/test`);
    expect({ status: res.status, body: res.body as unknown }).toEqual({
      status: 200,
      body: successBody({
        delivered: false,
        status_code: 302,
        error: 'HTTP 302',
        duration_ms: expect.any(Number),
      }),
    });
    expect(receiver.to('/landing')).toEqual([]);
  });
});

describe('a 409 names at most 50 relayers', () => {
  it('DELETE /api/v1/notifications/{id} used by 51 relayers: 409 naming the 50 lowest ids and saying there are more; the target stays', async () => {
    const hook = await createNotification(app(), { url: receiver.url('/used') });
    const ids = Array.from({ length: 51 }, (_, i) => `bound-${String(i).padStart(2, '0')}`);
    // Created highest first: the 50 named are the lowest ids, not the first 50 created.
    for (const id of [...ids].reverse()) {
      await app()
        .post('/api/v1/relayers', relayerBody('evm', { id, notification_id: hook.id }))
        .expect(201);
    }
    expectError(
      await app().delete(`/api/v1/notifications/${String(hook.id)}`),
      409,
      `Notification is used by relayers: ${ids.slice(0, 50).join(', ')} and more`,
    );
    expect(
      (
        await app()
          .get(`/api/v1/notifications/${String(hook.id)}`)
          .expect(200)
      ).body,
    ).toEqual(successBody(hook));
  });
});

describe('an on-demand check makes at most 22 JSON-RPC requests', () => {
  /** 20 custom RPC URLs: `wrong` of them at the wrong node (first), the rest at the right one. */
  const customRpcUrls = (wrong: number) =>
    Array.from({ length: 20 }, (_, i) => ({
      url: (i < wrong ? wrongNode : rightNode).url(`/node-${i}`),
      weight: 100,
    }));
  const counted = () => ({
    wrong: { requests: wrongNode.rpc.received, eth_chainId: wrongNode.rpc.callCount('eth_chainId') },
    right: {
      requests: rightNode.rpc.received,
      eth_chainId: rightNode.rpc.callCount('eth_chainId'),
      eth_getTransactionCount: rightNode.rpc.callCount('eth_getTransactionCount'),
      eth_getBalance: rightNode.rpc.callCount('eth_getBalance'),
    },
  });
  const resetCounts = () => {
    for (const node of [wrongNode, rightNode]) {
      node.rpc.received = 0;
      node.rpc.resetCallCounts();
    }
  };

  it('POST /api/v1/relayers/{id}/check with 20 custom RPC URLs, only the last one right: exactly 22 requests (20 eth_chainId, the nonce, the balance)', async () => {
    const relayer = await createRelayer(app(), 'evm', { custom_rpc_urls: customRpcUrls(19) });
    rightNode.setBalance(relayer.address as string, 42n);
    resetCounts();
    const res = await app().post(`/api/v1/relayers/${String(relayer.id)}/check`);
    expect({ status: res.status, body: res.body as unknown }).toEqual({
      status: 200,
      body: successBody({
        network_type: 'evm',
        balance: '42',
        paused: false,
        system_disabled: false,
        pending_transactions_count: 0,
        last_confirmed_transaction_timestamp: null,
        nonce: '0',
        checked_at: ISO,
        low_balance: null,
      }),
    });
    expect(counted()).toEqual({
      wrong: { requests: 19, eth_chainId: 19 },
      right: { requests: 3, eth_chainId: 1, eth_getTransactionCount: 1, eth_getBalance: 1 },
    });
  });

  it('POST /api/v1/relayers/{id}/check with 20 custom RPC URLs, none right: exactly 20 requests, and the relayer is disabled', async () => {
    const relayer = await createRelayer(app(), 'evm', { custom_rpc_urls: customRpcUrls(20) });
    resetCounts();
    const res = await app().post(`/api/v1/relayers/${String(relayer.id)}/check`);
    expect({ status: res.status, body: res.body as unknown }).toEqual({
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
        low_balance: null,
      }),
    });
    expect(counted()).toEqual({
      wrong: { requests: 20, eth_chainId: 20 },
      right: { requests: 0, eth_chainId: 0, eth_getTransactionCount: 0, eth_getBalance: 0 },
    });
  });
});

describe('reading the stored check makes no RPC call', () => {
  it('GET /api/v1/relayers/{id}/balance and /status answer what the last check stored, without calling the RPC endpoint', async () => {
    const relayer = await createRelayer(app(), 'evm', {
      custom_rpc_urls: [{ url: rightNode.url('/reads'), weight: 100 }],
    });
    const id = String(relayer.id);
    rightNode.setBalance(relayer.address as string, 7n);
    await app().post(`/api/v1/relayers/${id}/check`).expect(200);
    const requests = rightNode.rpc.received;
    rightNode.setBalance(relayer.address as string, 8n);
    for (let i = 0; i < 3; i++) {
      const balance = await app().get(`/api/v1/relayers/${id}/balance`);
      expect({ status: balance.status, body: balance.body as unknown }).toEqual({
        status: 200,
        body: successBody({ balance: 7, unit: 'wei' }),
      });
      const status = await app().get(`/api/v1/relayers/${id}/status`);
      expect({ status: status.status, body: status.body as unknown }).toEqual({
        status: 200,
        body: successBody({
          network_type: 'evm',
          balance: '7',
          paused: false,
          system_disabled: false,
          pending_transactions_count: 0,
          last_confirmed_transaction_timestamp: null,
          nonce: '0',
          checked_at: ISO,
          low_balance: null,
        }),
      });
    }
    expect(rightNode.rpc.received).toBe(requests);
  });
});
