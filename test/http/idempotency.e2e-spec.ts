import { Controller, HttpCode, Module, Post } from '@nestjs/common';
import { randomBytes, randomUUID } from 'node:crypto';
import type { Response } from 'supertest';
import { DataSource } from 'typeorm';
import { NoBody } from '../../src/common/http/no-body.decorator';
import { IdempotencyKeyEntity } from '../../src/idempotency/idempotency-key.entity';
import { IdempotentReplayOmits } from '../../src/common/http/idempotent-replay.decorator';
import { requestDigest } from '../../src/idempotency/idempotent-request';
import { errorBody, expectError, successBody } from '../support/envelope';
import { rawRequest } from '../support/raw-http';
import { secrets } from '../support/secrets';
import { startTestApp, type TestApp } from '../support/test-app';
import { createTestDatabase, TEST_DB, type TestDatabase } from '../support/test-database';
import { waitFor } from '../support/wait';
import { anonymousRelayerBody, uid } from '../factories';
import { openApiDocument } from '../support/routes';

const INVALID_KEY = 'Idempotency-Key must be one value of 1 to 255 printable ASCII characters';
const REUSED = 'This Idempotency-Key was used for another request: send a new key for a new request';
const IN_PROGRESS = 'A request with this Idempotency-Key is still in progress: retry later';
const HOUR_MS = 3600 * 1000;
/** REQUEST_TIMEOUT_MS (30 s by default) and the 10 s margin. */
const LEASE_MS = 40_000;

const itOnMysql = TEST_DB === 'mysql' ? it : it.skip;

const newKey = (): string => `key-${randomBytes(8).toString('hex')}`;

/**
 * Routes the service does not have (yet), added as an extension (docs/reference/extension-events.md) to reach states the
 * real routes cannot: a request that runs until the test lets it finish, and an answer holding a
 * secret shown once (what POST /api/v1/api-keys will answer).
 */
const slow = { runs: 0, release: (): void => undefined, gate: Promise.resolve() };
const holdSlowRequests = (): void => {
  slow.gate = new Promise<void>((resolve) => {
    slow.release = resolve;
  });
};

@Controller('idempotency-test')
class IdempotencyTestController {
  @Post('slow')
  @HttpCode(201)
  @NoBody()
  async slow(): Promise<{ run: number }> {
    slow.runs += 1;
    const run = slow.runs;
    await slow.gate;
    return { run };
  }

  @Post('secret')
  @HttpCode(201)
  @NoBody()
  @IdempotentReplayOmits('key')
  secret(): { id: string; name: string; key: string } {
    return { id: randomUUID(), name: 'ci', key: secrets.add(`rk_${randomBytes(32).toString('base64url')}`) };
  }
}

@Module({ controllers: [IdempotencyTestController] })
class IdempotencyTestModule {}

describe('Idempotency-Key on POST routes (docs/reference/safe-writes.md)', () => {
  let database: TestDatabase;
  let app: TestApp;
  /**
   * A second instance on the same database, as a second replica would be: on MySQL only, like
   * every deployment of more than one instance (README, "Stateless instances"). Two instances in
   * one test process on one SQLite file would also stall each other: better-sqlite3 waits for a
   * lock synchronously, holding up the event loop of the instance that holds it.
   */
  let other: TestApp;

  beforeAll(async () => {
    database = await createTestDatabase();
    app = await startTestApp({ DATABASE_URL: database.url }, { imports: [IdempotencyTestModule] });
    other =
      TEST_DB === 'mysql'
        ? await startTestApp(
            { DATABASE_URL: database.url, API_KEY: app.apiKey },
            { imports: [IdempotencyTestModule] },
          )
        : app;
  });
  afterAll(async () => {
    slow.release();
    if (other !== app) await other?.close();
    await app?.close();
    await database?.drop();
    if (app) expect(secrets.foundIn(app.logText())).toEqual([]);
  });

  const keys = () => app.app.get(DataSource).getRepository(IdempotencyKeyEntity);
  const withKey = (test: ReturnType<TestApp['post']>, key: string) => test.set('Idempotency-Key', key);
  const relayerBody = () => anonymousRelayerBody('evm', { name: 'idempotent' });
  /** The relayers that use this signer (one per network at most, so a duplicate would be a 400). */
  const relayersOf = async (signerId: string) =>
    ((await app.get('/api/v1/relayers?per_page=100').expect(200)).body.data as Array<{ signer_id: string }>)
      .filter((relayer) => relayer.signer_id === signerId)
      .map((relayer) => relayer as unknown);
  const notificationsAt = async (url: string) =>
    ((await app.get('/api/v1/notifications?per_page=100').expect(200)).body.data as Array<{ url: string }>)
      .filter((notification) => notification.url === url)
      .map((notification) => notification as unknown);
  const answer = (res: Response) => ({
    status: res.status,
    type: res.type,
    replayed: res.headers['idempotent-replayed'] as string | undefined,
    body: res.text,
  });

  it('a repeat answers the first answer again (status, body, ETag) with Idempotent-Replayed, and changes nothing', async () => {
    const key = newKey();
    const url = `https://hooks.example.com/${uid('n')}`;
    const first = await withKey(app.post('/api/v1/notifications', { url }), key);
    expect(first.status).toBe(201);
    expect(first.body).toEqual(
      successBody({ id: expect.any(String) as string, type: 'webhook', url, has_signing_key: false }),
    );
    const again = await withKey(app.post('/api/v1/notifications', { url }), key);
    expect(answer(again)).toEqual({ ...answer(first), replayed: 'true' });
    expect(answer(first).replayed).toBeUndefined();
    expect(again.headers.etag).toBe(first.headers.etag);
    expect(await notificationsAt(url)).toHaveLength(1);
    // The key binds the body's bytes: the same JSON spelled otherwise is another request (docs/reference/safe-writes.md#22-a-repeat-gets-the-first-answer).
    const respaced = await withKey(app.raw().post('/api/v1/notifications'), key)
      .set('Authorization', `Bearer ${app.apiKey}`)
      .set('Content-Type', 'application/json')
      .send(`{"url": ${JSON.stringify(url)}}`);
    expectError(respaced, 422, REUSED);
    const row = await keys().findOneByOrFail({ scope: 'admin', key });
    expect({ ...row, createdAt: row.createdAt instanceof Date }).toEqual({
      scope: 'admin',
      key,
      request: 'POST /api/v1/notifications',
      requestDigest: requestDigest('POST', '/api/v1/notifications', Buffer.from(JSON.stringify({ url }))),
      state: 'done',
      claimToken: expect.any(String) as string,
      responseStatus: 201,
      responseBody: first.text,
      responseHeaders: JSON.stringify(first.headers.etag ? { ETag: first.headers.etag } : {}),
      createdAt: true,
    });
  });

  it('20 concurrent POST /api/v1/relayers with one key and one body: one relayer, every answer the same 201', async () => {
    const key = newKey();
    const body = relayerBody();
    const results = await Promise.all(
      Array.from({ length: 20 }, () => withKey(app.post('/api/v1/relayers', body), key)),
    );
    const first = results.find((res) => res.headers['idempotent-replayed'] === undefined);
    expect(first?.status).toBe(201);
    expect(results.map(answer)).toEqual(
      results.map((res) => ({ ...answer(first as Response), replayed: res === first ? undefined : 'true' })),
    );
    expect(await relayersOf(body.signer_id)).toEqual([(first as Response).body.data]);
  });

  itOnMysql('the same across two instances on one database', async () => {
    const key = newKey();
    const body = relayerBody();
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        withKey((i % 2 === 0 ? app : other).post('/api/v1/relayers', body), key),
      ),
    );
    const firsts = results.filter((res) => res.headers['idempotent-replayed'] === undefined);
    expect(firsts.map((res) => res.status)).toEqual([201]);
    expect(results.map(answer)).toEqual(
      results.map((res) => ({ ...answer(firsts[0]), replayed: res === firsts[0] ? undefined : 'true' })),
    );
    expect(await relayersOf(body.signer_id)).toEqual([firsts[0].body.data]);
    // A later repeat on either instance: the same again.
    for (const instance of [app, other]) {
      expect(answer(await withKey(instance.post('/api/v1/relayers', body), key))).toEqual({
        ...answer(firsts[0]),
        replayed: 'true',
      });
    }
  });

  it('the same key with another body or on another route: 422, and nothing changes', async () => {
    const key = newKey();
    const url = `https://hooks.example.com/${uid('n')}`;
    await withKey(app.post('/api/v1/notifications', { url }), key).expect(201);
    const otherUrl = `https://hooks.example.com/${uid('n')}`;
    expectError(await withKey(app.post('/api/v1/notifications', { url: otherUrl }), key), 422, REUSED);
    expectError(await withKey(app.post('/api/v1/notifications', { url, id: uid('n') }), key), 422, REUSED);
    const body = relayerBody();
    expectError(await withKey(other.post('/api/v1/relayers', body), key), 422, REUSED);
    expect({
      url: await notificationsAt(url),
      otherUrl: await notificationsAt(otherUrl),
      relayers: await relayersOf(body.signer_id),
    }).toEqual({ url: [expect.anything()], otherUrl: [], relayers: [] });
  });

  it('an Idempotency-Key that is empty, longer than 255, not printable ASCII or sent twice: 400 naming it, nothing created', async () => {
    const url = `https://hooks.example.com/${uid('n')}`;
    for (const value of ['', 'x'.repeat(256), 'clé', 'a\tb']) {
      const res = await app.post('/api/v1/notifications', { url }).set('Idempotency-Key', value);
      expectError(res, 400, INVALID_KEY);
    }
    const twice = await rawRequest(app.port, {
      method: 'POST',
      path: '/api/v1/notifications',
      headers: [
        ['Authorization', `Bearer ${app.apiKey}`],
        ['Content-Type', 'application/json'],
        ['Idempotency-Key', 'a'],
        ['Idempotency-Key', 'b'],
      ],
      body: JSON.stringify({ url }),
    });
    expect({ status: twice.status, body: twice.body }).toEqual({ status: 400, body: errorBody(INVALID_KEY) });
    expect(await notificationsAt(url)).toEqual([]);
    await withKey(app.post('/api/v1/notifications', { url }), 'x'.repeat(255)).expect(201);
  });

  it('keys are case-sensitive: two keys that differ only in case are two keys', async () => {
    const key = newKey();
    const a = await withKey(app.post('/api/v1/notifications', { url: 'https://hooks.example.com/a' }), key);
    const b = await withKey(
      app.post('/api/v1/notifications', { url: 'https://hooks.example.com/b' }),
      key.toUpperCase(),
    );
    expect([a.status, b.status, a.body.data.id === b.body.data.id]).toEqual([201, 201, false]);
  });

  it('a 4xx answer is the request’s answer: stored and replayed (on a route without a body too)', async () => {
    const key = newKey();
    const body = { ...relayerBody(), paused: undefined };
    const first = await withKey(app.post('/api/v1/relayers', body), key);
    expectError(first, 400, 'paused must be true or false');
    expect(answer(await withKey(other.post('/api/v1/relayers', body), key))).toEqual({
      ...answer(first),
      replayed: 'true',
    });
    // A fixed body is another request: it needs another key.
    expectError(await withKey(app.post('/api/v1/relayers', { ...body, paused: true }), key), 422, REUSED);

    const retryKey = newKey();
    const notification = (
      await app.post('/api/v1/notifications', { url: 'https://hooks.example.com/retry' }).expect(201)
    ).body.data.id as string;
    const retry = `/api/v1/notifications/${notification}/deliveries/no-such-delivery/retry`;
    const notFound = await withKey(app.post(retry), retryKey);
    expectError(notFound, 404, 'Delivery not found');
    expect(notFound.headers['idempotent-replayed']).toBeUndefined();
    expect(answer(await withKey(app.post(retry, {}), retryKey))).toEqual({
      ...answer(notFound),
      replayed: 'true',
    });
  });

  it('a 5xx does not keep the key: the retry with the same key runs again', async () => {
    const key = newKey();
    const body = relayerBody();
    await database.exec('ALTER TABLE relayers RENAME TO relayers_away');
    let failed: Response;
    try {
      failed = await withKey(app.post('/api/v1/relayers', body), key);
    } finally {
      await database.exec('ALTER TABLE relayers_away RENAME TO relayers');
    }
    expectError(failed, 500, 'Internal Server Error');
    expect(await keys().findOneBy({ scope: 'admin', key })).toBeNull();
    const retried = await withKey(app.post('/api/v1/relayers', body), key);
    expect({ status: retried.status, replayed: retried.headers['idempotent-replayed'] }).toEqual({
      status: 201,
      replayed: undefined,
    });
    expect(answer(await withKey(app.post('/api/v1/relayers', body), key))).toEqual({
      ...answer(retried),
      replayed: 'true',
    });
    expect(await relayersOf(body.signer_id)).toEqual([retried.body.data]);
  });

  it('a repeat while the first runs waits for its answer; after 2 s it gets 409, and nothing runs twice', async () => {
    const key = newKey();
    holdSlowRequests();
    const runsBefore = slow.runs;
    const first = withKey(app.post('/api/v1/idempotency-test/slow'), key).then((res) => res);
    await waitFor('the first request to claim the key', () => keys().findOneBy({ scope: 'admin', key }));
    const waiting = withKey(other.post('/api/v1/idempotency-test/slow'), key).then((res) => res);
    await new Promise((resolve) => setTimeout(resolve, 300));
    slow.release();
    const [a, b] = await Promise.all([first, waiting]);
    expect(answer(a)).toEqual({
      status: 201,
      type: 'application/json',
      replayed: undefined,
      body: JSON.stringify(successBody({ run: runsBefore + 1 })),
    });
    expect(answer(b)).toEqual({ ...answer(a), replayed: 'true' });

    const longKey = newKey();
    holdSlowRequests();
    const long = withKey(app.post('/api/v1/idempotency-test/slow'), longKey).then((res) => res);
    await waitFor('the long request to claim its key', () =>
      keys().findOneBy({ scope: 'admin', key: longKey }),
    );
    const started = Date.now();
    const tooEarly = await withKey(app.post('/api/v1/idempotency-test/slow'), longKey);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1900);
    expectError(tooEarly, 409, IN_PROGRESS);
    slow.release();
    expect((await long).status).toBe(201);
    expect(slow.runs).toBe(runsBefore + 2);
  });

  it('a claim whose request never finished (its process died) is taken over once its lease has run out', async () => {
    const url = `https://hooks.example.com/${uid('n')}`;
    const claim = (key: string, ageMs: number) =>
      keys().insert({
        scope: 'admin',
        key,
        request: 'POST /api/v1/notifications',
        requestDigest: requestDigest('POST', '/api/v1/notifications', Buffer.from(JSON.stringify({ url }))),
        state: 'in_flight',
        claimToken: randomUUID(),
        responseStatus: null,
        responseBody: null,
        responseHeaders: null,
        createdAt: new Date(Date.now() - ageMs),
      });
    const abandoned = newKey();
    await claim(abandoned, LEASE_MS + 1000);
    const res = await withKey(app.post('/api/v1/notifications', { url }), abandoned);
    expect({ status: res.status, replayed: res.headers['idempotent-replayed'] }).toEqual({
      status: 201,
      replayed: undefined,
    });
    expect(await keys().findOneByOrFail({ scope: 'admin', key: abandoned })).toMatchObject({
      state: 'done',
      responseBody: res.text,
    });
    // Within its lease, a claim still holds its key.
    const running = newKey();
    await claim(running, LEASE_MS - 10_000);
    expectError(await withKey(app.post('/api/v1/notifications', { url }), running), 409, IN_PROGRESS);
    expect(await notificationsAt(url)).toHaveLength(1);
  });

  it('keys are kept 24 hours: an older key counts as unused, and the cleanup removes it', async () => {
    const stored = (key: string, ageMs: number, scope = 'admin') =>
      keys().insert({
        scope,
        key,
        request: 'POST /api/v1/notifications',
        requestDigest: 'f'.repeat(64),
        state: 'done',
        claimToken: randomUUID(),
        responseStatus: 201,
        responseBody: JSON.stringify(successBody({ id: 'old' })),
        responseHeaders: '{}',
        createdAt: new Date(Date.now() - ageMs),
      });
    const expired = newKey();
    await stored(expired, 24 * HOUR_MS + 60_000);
    const url = `https://hooks.example.com/${uid('n')}`;
    const reused = await withKey(app.post('/api/v1/notifications', { url }), expired);
    expect({ status: reused.status, replayed: reused.headers['idempotent-replayed'] }).toEqual({
      status: 201,
      replayed: undefined,
    });
    expect(reused.body.data.url).toBe(url);

    const old = [newKey(), newKey()];
    const recent = newKey();
    await stored(old[0], 25 * HOUR_MS);
    await stored(old[1], 48 * HOUR_MS, 'another-api-key');
    await stored(recent, 23 * HOUR_MS);
    // Every instance sweeps at start, then every 10 minutes.
    const third = await startTestApp({ DATABASE_URL: database.url, API_KEY: app.apiKey });
    try {
      await waitFor('the expired keys to be removed', async () => {
        const left = await keys().findBy([{ key: old[0] }, { key: old[1] }]);
        return left.length === 0;
      });
      expect(await keys().findOneBy({ scope: 'admin', key: recent })).not.toBeNull();
      expect(await keys().findOneBy({ scope: 'admin', key: expired })).not.toBeNull();
    } finally {
      await third.close();
    }
  });

  it('keys are scoped per API key: another key’s use of the same key name does not touch the administrator’s', async () => {
    // Only the administrator exists until API keys can be created through the API (docs/reference/keys-and-audit.md):
    // another principal's key is written as it would be stored, with that key's id as its scope.
    const key = newKey();
    const theirs = randomUUID();
    await keys().insert({
      scope: theirs,
      key,
      request: 'POST /api/v1/notifications',
      requestDigest: 'f'.repeat(64),
      state: 'done',
      claimToken: randomUUID(),
      responseStatus: 201,
      responseBody: JSON.stringify(successBody({ id: 'theirs' })),
      responseHeaders: '{}',
      createdAt: new Date(),
    });
    const url = `https://hooks.example.com/${uid('n')}`;
    const mine = await withKey(app.post('/api/v1/notifications', { url }), key);
    expect({
      status: mine.status,
      replayed: mine.headers['idempotent-replayed'],
      url: mine.body.data.url,
    }).toEqual({
      status: 201,
      replayed: undefined,
      url,
    });
    expect((await keys().findBy({ key })).map((row) => row.scope).sort()).toEqual(['admin', theirs].sort());
  });

  it('an answer with a secret shown once: the replay leaves it out, and it never reaches the database', async () => {
    const key = newKey();
    const first = await withKey(app.post('/api/v1/idempotency-test/secret'), key);
    expect(first.status).toBe(201);
    const { key: secret, ...rest } = first.body.data as { id: string; name: string; key: string };
    expect(secret).toMatch(/^rk_/);
    const again = await withKey(app.post('/api/v1/idempotency-test/secret'), key);
    expect(answer(again)).toEqual({
      status: 201,
      type: 'application/json',
      replayed: 'true',
      body: JSON.stringify(successBody(rest)),
    });
    expect((await database.dump()).includes(secret)).toBe(false);
  });

  it('the OpenAPI document shows the header, the replay marker, 409 and 422 on every POST', async () => {
    const doc = await openApiDocument<{
      paths: Record<
        string,
        Record<
          string,
          {
            parameters?: Array<{ name: string; in: string }>;
            responses: Record<string, { headers?: object }>;
          }
        >
      >;
    }>(app);
    const posts = Object.entries(doc.paths).flatMap(([path, operations]) =>
      Object.entries(operations)
        .filter(([method]) => method === 'post')
        .map(([, operation]) => ({
          path,
          header: operation.parameters?.some((p) => p.name === 'Idempotency-Key' && p.in === 'header'),
          conflicts: ['409', '422'].every((status) => status in operation.responses),
          replayMarker: Object.entries(operation.responses).some(
            ([status, response]) =>
              status.startsWith('2') && 'Idempotent-Replayed' in (response.headers ?? {}),
          ),
        })),
    );
    expect(posts.length).toBeGreaterThanOrEqual(6);
    expect(posts).toEqual(
      posts.map(({ path }) => ({ path, header: true, conflicts: true, replayMarker: true })),
    );
    expect(doc.paths['/api/v1/relayers'].post.responses['422']).toEqual({
      description: 'This Idempotency-Key was used for another request (another path or body)',
      content: { 'application/json': { schema: expect.any(Object) as object } },
    });
  });
});

describe('Idempotency-Key and the request timeout', () => {
  let database: TestDatabase;
  let app: TestApp;

  beforeAll(async () => {
    database = await createTestDatabase();
    app = await startTestApp(
      { DATABASE_URL: database.url, REQUEST_TIMEOUT_MS: '1000' },
      { imports: [IdempotencyTestModule] },
    );
  });
  afterAll(async () => {
    slow.release();
    await app?.close();
    await database?.drop();
  });

  const keys = () => app.app.get(DataSource).getRepository(IdempotencyKeyEntity);

  it('a 504 does not keep the key: once its request has ended, the retry runs', async () => {
    const key = newKey();
    holdSlowRequests();
    const timedOut = await app.post('/api/v1/idempotency-test/slow').set('Idempotency-Key', key);
    expectError(timedOut, 504, 'Gateway Timeout');
    // Its handler still runs (the 504 only means nothing was committed): the key is still held,
    // and a repeat waits half the timeout for it before answering 409.
    expectError(
      await app.post('/api/v1/idempotency-test/slow').set('Idempotency-Key', key),
      409,
      IN_PROGRESS,
    );
    slow.release();
    await waitFor(
      'the key to be freed',
      async () => (await keys().findOneBy({ scope: 'admin', key })) === null,
    );
    const retried = await app.post('/api/v1/idempotency-test/slow').set('Idempotency-Key', key);
    expect({ status: retried.status, replayed: retried.headers['idempotent-replayed'] }).toEqual({
      status: 201,
      replayed: undefined,
    });
  });
});
