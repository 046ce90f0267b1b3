import { expectError } from '../../support/envelope';
import { startTestApp, useTestApp, type TestApp } from '../../support/test-app';

describe('health and readiness (docs/reference/running.md#2-probes)', () => {
  const handle = useTestApp();

  it('GET /api/v1/health → 200 text/plain "OK" without a token', async () => {
    const res = await handle.current.get('/api/v1/health', false).expect(200);
    expect({ text: res.text, type: res.type }).toEqual({ text: 'OK', type: 'text/plain' });
  });

  it('GET /api/v1/ready → 200 with the Terminus body naming the database', async () => {
    const res = await handle.current.get('/api/v1/ready', false).expect(200);
    expect(res.body).toEqual({
      status: 'ok',
      info: { database: { status: 'up', responseTime: expect.any(Number) } },
      error: {},
      details: { database: { status: 'up', responseTime: expect.any(Number) } },
    });
  });
});

describe('a database that cannot be reached (MySQL on an unused port)', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ DATABASE_URL: 'mysql://nobody:nothing@127.0.0.1:1/none' });
  });
  afterAll(async () => {
    await app?.close();
  });

  it('keeps health 200, answers ready 503 within 5 s naming the database down', async () => {
    await app.get('/api/v1/health', false).expect(200);
    const started = Date.now();
    const res = await app.get('/api/v1/ready', false);
    expect(Date.now() - started).toBeLessThan(5000);
    expect({ status: res.status, body: res.body as unknown }).toEqual({
      status: 503,
      body: {
        status: 'error',
        info: {},
        error: {
          database: {
            status: 'down',
            message: 'not connected or migrations not applied',
            responseTime: expect.any(Number),
          },
        },
        details: {
          database: {
            status: 'down',
            message: 'not connected or migrations not applied',
            responseTime: expect.any(Number),
          },
        },
      },
    });
  });

  it('answers API requests with a 503 envelope at once, and checks auth first', async () => {
    expectError(await app.get('/api/v1/notifications'), 503, 'Service Unavailable');
    expectError(
      await app.post('/api/v1/notifications', { url: 'https://hooks.example.com/x' }),
      503,
      'Service Unavailable',
    );
    expectError(await app.get('/api/v1/notifications', false), 401, 'Unauthorized');
  });

  it('keeps the metrics answering (200, Prometheus text) while the API answers 503', async () => {
    expectError(await app.get('/api/v1/relayers'), 503, 'Service Unavailable');
    const res = await app.get('/debug/metrics/scrape');
    expect({ status: res.status, type: res.type }).toEqual({ status: 200, type: 'text/plain' });
    expect(res.text.split('\n')).toEqual(
      expect.arrayContaining([
        '# TYPE http_requests_total counter',
        'http_requests_total{method="GET",route="/api/v1/relayers",status="503"} 1',
      ]),
    );
    expectError(await app.get('/debug/metrics/scrape', false), 401, 'Unauthorized');
  });
});
