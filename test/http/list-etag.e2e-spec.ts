import { createHash } from 'node:crypto';
import type { Response } from 'supertest';
import { createKey, relayerBody, uid } from '../factories';
import { as } from '../support/as-key';
import { errorBody, successBody } from '../support/envelope';
import { appRoutes, routeName } from '../support/routes';
import { useTestApp, type TestApp } from '../support/test-app';
import { waitFor } from '../support/wait';

/**
 * docs/reference/pagination.md#16-etag-and-304 and docs/reference/safe-writes.md#14-conditional-gets:
 * every list route, found in the router, answers a strong ETag computed from the bytes of its body,
 * with `Cache-Control: private, no-cache`; a GET whose If-None-Match matches it (a list of tags, `*`,
 * `W/` compared weakly) is a 304 without a body and with the same ETag; a malformed value is ignored.
 */

const ETAG = /^"[A-Za-z0-9_-]{43}"$/;

/** The tag the service gives a body: the SHA-256 of its bytes, base64url, quoted. */
const tagOf = (text: string): string => `"${createHash('sha256').update(text).digest('base64url')}"`;

/** What a test compares of a 200 or 304: status, the cache headers, and the body's bytes. */
const answer = (res: Response) => ({
  status: res.status,
  etag: res.headers.etag as string | undefined,
  cacheControl: res.headers['cache-control'] as string | undefined,
  contentType: res.headers['content-type'] as string | undefined,
  text: res.text ?? '',
});

/** A 304 as the service sends it: the same ETag and cache policy, no body and no Content-Type. */
const notModified = (etag: string) => ({
  status: 304,
  etag,
  cacheControl: 'private, no-cache',
  contentType: undefined,
  text: '',
});

/** A 200 with its body tagged by its bytes. */
const tagged = (res: Response) => ({
  status: 200,
  etag: tagOf(res.text),
  cacheControl: 'private, no-cache',
  contentType: 'application/json; charset=utf-8',
  text: res.text,
});

describe('lists answer an ETag of their body and honour If-None-Match', () => {
  const handle = useTestApp();
  const app = () => handle.current;
  const hook = uid('etag-hook');
  const channel = uid('etag-channel');
  const relayer = relayerBody('evm', { notification_id: hook });
  beforeAll(async () => {
    await app()
      .post('/api/v1/notifications', { id: hook, url: 'https://hooks.example.com/etag' })
      .expect(201);
    const slack = { webhook_url: 'https://hooks.example.com/services/T0/B0/etag' };
    await app()
      .post('/api/v1/alert-channels', {
        id: channel,
        type: 'slack',
        config: slack,
        relayer_ids: [relayer.id],
      })
      .expect(201);
    // Paused: its delivery stays as queued, so that the deliveries' list does not change under the test.
    await app().post(`/api/v1/notifications/${hook}/pause`).expect(200);
    await app().post(`/api/v1/alert-channels/${channel}/pause`).expect(200);
    await app().post('/api/v1/relayers', relayer).expect(201);
  });
  const get = (url: string, ifNoneMatch?: string, key = app().apiKey) => {
    const request = as(app(), key).get(url);
    return ifNoneMatch === undefined ? request : request.set('If-None-Match', ifNoneMatch);
  };
  const listUrls = (): string[] =>
    appRoutes(app())
      .filter((route) => route.list)
      .map((route) =>
        route.path
          .replace('{notification_id}', hook)
          .replace('{channel_id}', channel)
          .replace('{relayer_id}', relayer.id),
      );

  it('the router has list routes, all of them GETs', () => {
    const lists = appRoutes(app()).filter((route) => route.list);
    expect(lists.map(routeName)).toEqual(
      expect.arrayContaining([
        'GET /api/v1/relayers',
        'GET /api/v1/notifications/{notification_id}/deliveries',
      ]),
    );
    expect({ atLeast: lists.length >= 7, methods: [...new Set(lists.map((route) => route.method))] }).toEqual(
      {
        atLeast: true,
        methods: ['GET'],
      },
    );
  });

  it('every list route answers a strong ETag of its body; If-None-Match with it (alone, weak, in a list, or *) is a 304 without a body', async () => {
    for (const url of listUrls()) {
      const first = await get(url);
      expect({ url, ...answer(first) }).toEqual({ url, ...tagged(first) });
      expect({ url, etag: ETAG.test(first.headers.etag) }).toEqual({ url, etag: true });
      expect({ url, body: first.body as unknown }).toEqual({
        url,
        body: {
          success: true,
          data: expect.any(Array) as unknown,
          error: null,
          pagination: { current_page: 1, per_page: 10, total_items: expect.any(Number) as unknown },
        },
      });
      const etag = first.headers.etag;
      for (const header of [etag, `W/${etag}`, `"other", ${etag}`, `"other",W/${etag}`, '*', ' * ']) {
        expect({ url, header, ...answer(await get(url, header)) }).toEqual({
          url,
          header,
          ...notModified(etag),
        });
      }
      // Another tag, or a value that is no list of tags: answered as without the header.
      for (const header of ['"other"', 'garbage', `garbage, ${etag}`, etag.slice(1, -1), '', `*, ${etag}`]) {
        const res = await get(url, header);
        expect({ url, header, ...answer(res) }).toEqual({ url, header, ...answer(first) });
      }
    }
  });

  it('fetch() with If-None-Match set by hand, which adds Cache-Control: no-cache to the request, gets its 304', async () => {
    const first = await get('/api/v1/relayers');
    const etag = first.headers.etag;
    const res = await fetch(`${app().baseUrl}/api/v1/relayers`, {
      headers: { Authorization: `Bearer ${app().apiKey}`, 'If-None-Match': etag },
    });
    expect({
      status: res.status,
      etag: res.headers.get('etag'),
      cacheControl: res.headers.get('cache-control'),
      contentType: res.headers.get('content-type'),
      text: await res.text(),
    }).toEqual({ ...notModified(etag), contentType: null });
  });

  it('a change answers 200 with another tag, which is then the one a 304 confirms', async () => {
    const url = `/api/v1/relayers?network=sepolia&per_page=100`;
    const before = await get(url);
    const old = before.headers.etag;
    const created = (
      await app()
        .post('/api/v1/relayers', relayerBody('evm', { network: 'sepolia' }))
        .expect(201)
    ).body.data as { id: string };
    const after = await get(url, old);
    expect(answer(after)).toEqual(tagged(after));
    expect(after.headers.etag).not.toBe(old);
    const ids = (after.body.data as Array<{ id: string }>).map((relayer) => relayer.id);
    const items = [];
    for (const id of ids) items.push((await app().get(`/api/v1/relayers/${id}`).expect(200)).body.data);
    expect(after.body).toEqual({
      success: true,
      data: items,
      error: null,
      pagination: { current_page: 1, per_page: 100, total_items: ids.length },
    });
    expect(ids).toContain(created.id);
    expect(answer(await get(url, after.headers.etag))).toEqual(notModified(after.headers.etag));
    // The old tag matches nothing now, alone or beside another.
    const res = await get(url, `${old}, "other"`);
    expect(answer(res)).toEqual(answer(after));
  });

  it("a key of another scope gets another body and so another tag: one scope's tag is no 304 to the other", async () => {
    const p = uid('etag');
    for (const id of [`${p}-a-1`, `${p}-b-1`]) {
      await app().post('/api/v1/relayers', relayerBody('evm', { id })).expect(201);
    }
    const keyA = (await createKey(app(), { permissions: ['relayers:read'], relayer_ids: [`${p}-a-*`] })).key;
    const keyB = (await createKey(app(), { permissions: ['relayers:read'], relayer_ids: [`${p}-b-*`] })).key;
    const page = async (id: string) => ({
      success: true,
      data: [(await app().get(`/api/v1/relayers/${id}`).expect(200)).body.data as unknown],
      error: null,
      pagination: { current_page: 1, per_page: 10, total_items: 1 },
    });
    const asA = await get('/api/v1/relayers', undefined, keyA);
    const asB = await get('/api/v1/relayers', undefined, keyB);
    expect({ a: asA.body as unknown, b: asB.body as unknown }).toEqual({
      a: await page(`${p}-a-1`),
      b: await page(`${p}-b-1`),
    });
    expect({ a: answer(asA), b: answer(asB) }).toEqual({ a: tagged(asA), b: tagged(asB) });
    expect(asA.headers.etag).not.toBe(asB.headers.etag);
    // A's tag sent with B's key: B's answer, in full.
    expect(answer(await get('/api/v1/relayers', asA.headers.etag, keyB))).toEqual(answer(asB));
    expect(answer(await get('/api/v1/relayers', asB.headers.etag, keyB))).toEqual(
      notModified(asB.headers.etag),
    );
  });

  it("single resources: a GET with If-None-Match of the resource's ETag is a 304; after a PATCH, 200 with the new one", async () => {
    const relayer = (await app().post('/api/v1/relayers', relayerBody('evm')).expect(201)).body.data as {
      id: string;
    };
    const url = `/api/v1/relayers/${relayer.id}`;
    const first = await get(url);
    const etag = first.headers.etag;
    expect(answer(first)).toEqual({
      status: 200,
      etag: expect.stringMatching(/^"1-[0-9a-z]+"$/) as unknown,
      cacheControl: 'private, no-cache',
      contentType: 'application/json; charset=utf-8',
      text: JSON.stringify(successBody(first.body.data)),
    });
    expect(answer(await get(url, etag))).toEqual(notModified(etag));
    expect(answer(await get(url, `W/${etag}`))).toEqual(notModified(etag));
    await app().patch(url, { name: 'renamed' }).expect(200);
    const after = await get(url, etag);
    expect({ status: after.status, name: (after.body.data as { name: string }).name }).toEqual({
      status: 200,
      name: 'renamed',
    });
    expect(after.headers.etag).toMatch(/^"2-[0-9a-z]+"$/);
    // If-Match keeps its strong comparison: the weak form of the current tag is a 412.
    const weak = await app().patch(url, { name: 'again' }).set('If-Match', `W/${after.headers.etag}`);
    expect({ status: weak.status, body: weak.body as unknown }).toEqual({
      status: 412,
      body: errorBody('Precondition Failed'),
    });
  });

  it('an answer without an ETag ignores If-None-Match, * included, and a 4xx is never a 304', async () => {
    const summary = await get('/api/v1/relayers/summary', '*');
    expect({
      status: summary.status,
      etag: summary.headers.etag,
      cacheControl: summary.headers['cache-control'],
      body: summary.body as unknown,
    }).toEqual({
      status: 200,
      etag: undefined,
      cacheControl: undefined,
      body: successBody(expect.objectContaining({ total: expect.any(Number) as unknown }) as unknown),
    });
    const missing = await get('/api/v1/relayers/no-such-relayer', '*');
    expect({ status: missing.status, body: missing.body as unknown }).toEqual({
      status: 404,
      body: errorBody('Relayer with ID no-such-relayer not found'),
    });
    const badQuery = await get('/api/v1/relayers?per_page=0', '*');
    expect({ status: badQuery.status, body: badQuery.body as unknown }).toEqual({
      status: 400,
      body: errorBody('per_page must be a whole number from 1 to 100'),
    });
  });

  it('a 304 is counted in http_requests_total under its status and logged with it', async () => {
    const url = '/api/v1/signers';
    const counted = async () => {
      const text = (await app().get('/debug/metrics/scrape').expect(200)).text;
      const line =
        /^http_requests_total\{method="GET",route="\/api\/v1\/signers",status="304"\} (\d+)$/m.exec(text);
      return Number(line?.[1] ?? 0);
    };
    const etag = (await get(url)).headers.etag;
    const before = await counted();
    for (let i = 0; i < 3; i++) expect((await get(url, etag)).status).toBe(304);
    expect((await counted()) - before).toBe(3);
    const lines = await app().waitForLog(/"url":"\/api\/v1\/signers".*"statusCode":304/);
    expect(lines.length).toBeGreaterThanOrEqual(1);
  });
});

describe('a 304 is a request: the rate limit counts it (burst 5, 1 per second)', () => {
  const handle = useTestApp({ RATE_LIMIT_BURST_SIZE: '5', RATE_LIMIT_REQUESTS_PER_SECOND: '1' });
  const app = (): TestApp => handle.current;

  it('200, then 304s each taking one of the budget, then 429', async () => {
    const first = await app().get('/api/v1/notifications');
    const etag = first.headers.etag;
    const budget = (res: Response) => ({
      status: res.status,
      remaining: res.headers['x-ratelimit-remaining'] as unknown,
    });
    const seen = [budget(first)];
    for (let i = 0; i < 4; i++) {
      seen.push(budget(await app().get('/api/v1/notifications').set('If-None-Match', etag)));
    }
    const refused = await app().get('/api/v1/notifications').set('If-None-Match', etag);
    expect({ seen, refused: { status: refused.status, body: refused.body as unknown } }).toEqual({
      seen: [
        { status: 200, remaining: '4' },
        { status: 304, remaining: '3' },
        { status: 304, remaining: '2' },
        { status: 304, remaining: '1' },
        { status: 304, remaining: '0' },
      ],
      refused: { status: 429, body: errorBody('Too Many Requests') },
    });
    // The window passes: a 304 again, with the same tag.
    const again = await waitFor(
      'the rate limit window to pass',
      async () => {
        const res = await app().get('/api/v1/notifications').set('If-None-Match', etag);
        return res.status === 429 ? false : res;
      },
      { timeoutMs: 10_000, intervalMs: 250 },
    );
    expect({ status: again.status, etag: again.headers.etag }).toEqual({ status: 304, etag });
  });
});
