import { expectError, successBody } from '../support/envelope';
import { TcpProxy } from '../support/tcp-proxy';
import { startTestApp, type TestApp } from '../support/test-app';
import { createTestDatabase, TEST_DB, type TestDatabase } from '../support/test-database';
import { uid } from '../factories';

const REDIS_TEST_URL = process.env.REDIS_TEST_URL;
const describeMysql = TEST_DB === 'mysql' ? describe : describe.skip;
const describeRedis = TEST_DB === 'sqlite' && REDIS_TEST_URL ? describe : describe.skip;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls until the check passes; returns the milliseconds it took. */
async function within(ms: number, check: () => Promise<boolean>): Promise<number> {
  const started = Date.now();
  while (Date.now() - started < ms) {
    if (await check()) return Date.now() - started;
    await sleep(100);
  }
  throw new Error(`not recovered within ${ms} ms`);
}

describeMysql('database outage through a proxy (MySQL)', () => {
  let database: TestDatabase;
  let proxy: TcpProxy;
  let app: TestApp;

  beforeAll(async () => {
    database = await createTestDatabase({ kind: 'mysql' });
    const url = new URL(database.url);
    proxy = new TcpProxy(url.hostname, Number(url.port || 3306));
    url.port = String(await proxy.start());
    app = await startTestApp({ DATABASE_URL: url.toString() });
  });
  afterAll(async () => {
    await app?.close();
    await proxy?.close();
    await database?.drop();
  });

  it('fails fast while cut (503 envelope, ready 503, health 200) and recovers by itself with nothing lost', async () => {
    const before = uid('before');
    await app
      .post('/api/v1/notifications', { id: before, url: 'https://hooks.example.com/before' })
      .expect(201);

    proxy.cut();
    for (const send of [
      () => app.get(`/api/v1/notifications/${before}`),
      () => app.post('/api/v1/notifications', { url: 'https://hooks.example.com/during' }),
      () => app.get('/api/v1/relayers'),
    ]) {
      const started = Date.now();
      const res = await send();
      expect(Date.now() - started).toBeLessThan(5000);
      expectError(res, 503, 'Service Unavailable');
    }
    const started = Date.now();
    const ready = await app.get('/api/v1/ready', false);
    expect({
      status: ready.status,
      database: ready.body.details.database.status,
      fast: Date.now() - started < 5000,
    }).toEqual({
      status: 503,
      database: 'down',
      fast: true,
    });
    await app.get('/api/v1/health', false).expect(200);
    const metrics = await app.get('/debug/metrics/scrape');
    expect({ status: metrics.status, type: metrics.type }).toEqual({ status: 200, type: 'text/plain' });
    expect(metrics.text.split('\n')).toEqual(
      expect.arrayContaining([
        '# TYPE http_requests_total counter',
        'http_requests_total{method="GET",route="/api/v1/relayers",status="503"} 1',
        'database_errors_total{kind="unavailable"} 3',
      ]),
    );

    proxy.restore();
    const recoveredIn = await within(
      10_000,
      async () => (await app.get('/api/v1/ready', false)).status === 200,
    );
    process.stdout.write(`database outage: recovered ${recoveredIn} ms after the database returned\n`);
    const got = await app.get(`/api/v1/notifications/${before}`).expect(200);
    expect(got.body).toEqual(
      successBody({
        id: before,
        type: 'webhook',
        url: 'https://hooks.example.com/before',
        has_signing_key: false,
      }),
    );
    await app.post('/api/v1/notifications', { url: 'https://hooks.example.com/after' }).expect(201);
  });
});

describeRedis('Redis outage through a proxy', () => {
  let proxy: TcpProxy;
  let database: TestDatabase;
  let app: TestApp;

  beforeAll(async () => {
    const redis = new URL(REDIS_TEST_URL as string);
    proxy = new TcpProxy(redis.hostname, Number(redis.port || 6379));
    await proxy.start();
    database = await createTestDatabase();
    app = await startTestApp({
      DATABASE_URL: database.url,
      REDIS_URL: `redis://127.0.0.1:${proxy.port}`,
      RATE_LIMIT_BURST_SIZE: '1000',
      RATE_LIMIT_REQUESTS_PER_SECOND: '100',
    });
  });
  afterAll(async () => {
    await app?.close();
    await proxy?.close();
    await database?.drop();
  });

  it('serves requests while Redis is away (fail open, logged once), reports it in readiness, and recovers', async () => {
    await app.get('/api/v1/ready', false).expect(200);
    proxy.cut();
    for (let i = 0; i < 10; i++) await app.get('/api/v1/notifications').expect(200);
    const ready = await app.get('/api/v1/ready', false);
    expect({
      status: ready.status,
      redis: ready.body.details.redis.status,
      database: ready.body.details.database.status,
    }).toEqual({
      status: 503,
      redis: 'down',
      database: 'up',
    });
    expect(await app.waitForLog(/rate-limit storage unavailable/)).toHaveLength(1);
    proxy.restore();
    await within(10_000, async () => (await app.get('/api/v1/ready', false)).status === 200);
    await app.get('/api/v1/notifications').expect(200);
    expect(await app.waitForLog(/rate-limit storage is back/)).toHaveLength(1);
  });
});
