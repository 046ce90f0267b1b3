import { createKey } from '../factories';
import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { expectError } from '../support/envelope';
import { newApiKey, startTestApp, useTestApp, type TestApp } from '../support/test-app';
import { createTestDatabase, type TestDatabase } from '../support/test-database';

const LIMITED = { RATE_LIMIT_BURST_SIZE: '5', RATE_LIMIT_REQUESTS_PER_SECOND: '1' };
const REDIS_TEST_URL = process.env.REDIS_TEST_URL;

function expect429(res: import('supertest').Response): void {
  expectError(res, 429, 'Too Many Requests');
  expect(res.headers['retry-after']).toMatch(/^[1-5]$/);
}

describe('rate limit in memory (burst 5, 1 request per second)', () => {
  const handle = useTestApp(LIMITED);
  const app = () => handle.current;

  it('lets 5 quick requests through, answers the 6th with 429 and Retry-After; probes stay 200', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await app().get('/api/v1/notifications')).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200]);
    expect429(await app().post('/api/v1/notifications', { url: 'https://hooks.example.com/rl' }));
    expect429(await app().get('/api/v1/notifications'));
    const probes = await Promise.all([
      ...Array.from({ length: 20 }, () => app().get('/api/v1/health', false)),
      ...Array.from({ length: 5 }, () => app().get('/api/v1/ready', false)),
    ]);
    expect(probes.map((r) => r.status)).toEqual(Array(25).fill(200));
  });
});

/** A token of a managed key's shape (rk_ and 43 characters) that no key has: looked up by digest. */
const randomKeyLike = (): string => `rk_${randomBytes(32).toString('base64url')}`;

describe('failed authentications: a budget of their own per client address (docs/reference/rate-limits.md#17-failed-authentications)', () => {
  const handle = useTestApp(LIMITED);
  const app = () => handle.current;
  const as = (token: string, path = '/api/v1/notifications') =>
    app().get(path, false).set('Authorization', `Bearer ${token}`);
  const budget = (res: import('supertest').Response) => ({
    status: res.status,
    limit: res.headers['x-ratelimit-limit'],
    remaining: res.headers['x-ratelimit-remaining'],
  });

  it('401 up to the burst, then 429 without a database lookup; the keys keep their own budgets', async () => {
    const real = (await createKey(app(), { name: 'real', permissions: ['notifications:read'] })).key;
    const unusedKey = (await createKey(app(), { name: 'unused', permissions: ['notifications:read'] })).key;
    expect(budget(await as(real))).toEqual({ status: 200, limit: '5', remaining: '4' });

    const dataSource = app().app.get(DataSource);
    const lookups = jest.spyOn(dataSource.logger, 'logQuery');
    const keyLookups = () => lookups.mock.calls.filter(([sql]) => /^SELECT.*key_digest/is.test(sql)).length;
    try {
      for (let i = 0; i < 5; i++) expectError(await as(randomKeyLike()), 401, 'Unauthorized');
      expect(keyLookups()).toBe(5);
      for (let i = 0; i < 10; i++) expect429(await as(randomKeyLike()));
      // Every failure counts, and an unknown route answers the same.
      expect429(await app().get('/api/v1/notifications', false));
      expect429(await as('rk_short'));
      expect429(await as(randomKeyLike(), '/api/v1/no-such-route'));
      expect(keyLookups()).toBe(5);
    } finally {
      lookups.mockRestore();
    }

    // Neither key's budget was touched: the key's second request, the administrator's third.
    expect(budget(await as(real))).toEqual({ status: 200, limit: '5', remaining: '3' });
    expect(budget(await app().get('/api/v1/notifications'))).toEqual({
      status: 200,
      limit: '5',
      remaining: '2',
    });
    // A key this instance never found is a token like the others until the address's block ends.
    const blocked = await as(unusedKey);
    expect429(blocked);
    await new Promise((resolve) => setTimeout(resolve, Number(blocked.headers['retry-after']) * 1000 + 100));
    expect(budget(await as(unusedKey))).toEqual({ status: 200, limit: '5', remaining: '4' });
    expectError(await as(randomKeyLike()), 401, 'Unauthorized');
  });
});

const describeRedis = REDIS_TEST_URL ? describe : describe.skip;

describeRedis('rate limit shared through Redis by two instances', () => {
  let database: TestDatabase;
  let a: TestApp;
  let b: TestApp;

  beforeAll(async () => {
    database = await createTestDatabase();
    const shared = {
      ...LIMITED,
      DATABASE_URL: database.url,
      REDIS_URL: REDIS_TEST_URL,
      API_KEY: newApiKey(),
      RATE_LIMIT_KEY_PREFIX: `test-shared-${randomBytes(4).toString('hex')}`,
    };
    a = await startTestApp(shared);
    b = await startTestApp(shared);
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await database?.drop();
  });

  it('the sixth request through either instance gets 429', async () => {
    const statuses: number[] = [];
    for (const app of [a, b, a, b, a]) statuses.push((await app.get('/api/v1/notifications')).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200]);
    expect429(await b.get('/api/v1/notifications'));
    expect429(await a.get('/api/v1/notifications'));
  });

  it('failed authentications through either instance draw on one budget per address', async () => {
    const statuses: number[] = [];
    for (const app of [a, b, a, b, a]) {
      statuses.push(
        (await app.get('/api/v1/relayers', false).set('Authorization', `Bearer ${randomKeyLike()}`)).status,
      );
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401]);
    expect429(await b.get('/api/v1/relayers', false).set('Authorization', `Bearer ${randomKeyLike()}`));
    expect429(await a.get('/api/v1/relayers', false).set('Authorization', `Bearer ${randomKeyLike()}`));
  });

  it('readiness names Redis as up', async () => {
    const res = await a.get('/api/v1/ready', false).expect(200);
    expect(res.body).toEqual({
      status: 'ok',
      info: {
        database: { status: 'up', responseTime: expect.any(Number) },
        redis: { status: 'up', responseTime: expect.any(Number) },
      },
      error: {},
      details: {
        database: { status: 'up', responseTime: expect.any(Number) },
        redis: { status: 'up', responseTime: expect.any(Number) },
      },
    });
  });
});

describe('Redis unreachable: requests are served (fail open), readiness reports Redis down', () => {
  const handle = useTestApp({ ...LIMITED, REDIS_URL: 'redis://127.0.0.1:1' });

  it('serves more than the burst, logs the outage once, and answers ready 503 naming redis', async () => {
    for (let i = 0; i < 8; i++) await handle.current.get('/api/v1/notifications').expect(200);
    const ready = await handle.current.get('/api/v1/ready', false).expect(503);
    expect(ready.body).toEqual({
      status: 'error',
      info: { database: { status: 'up', responseTime: expect.any(Number) } },
      error: { redis: { status: 'down', message: expect.any(String), responseTime: expect.any(Number) } },
      details: {
        database: { status: 'up', responseTime: expect.any(Number) },
        redis: { status: 'down', message: expect.any(String), responseTime: expect.any(Number) },
      },
    });
    expect(await handle.current.waitForLog(/rate-limit storage unavailable/)).toHaveLength(1);
  });
});
