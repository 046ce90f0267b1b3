import { Configuration, MetricsApi } from '@openzeppelin/relayer-sdk';
import { MetricsListener } from '../../../src/metrics/metrics-listener';
import { MetricsService } from '../../../src/metrics';
import { errorBody, expectError } from '../../support/envelope';
import { startTestApp, useTestApp, type TestApp } from '../../support/test-app';
import { openApiDocument } from '../../support/routes';

const PROMETHEUS_TEXT = 'text/plain; version=0.0.4; charset=utf-8';

/** Metrics every instance has, whatever it has done so far. */
const KNOWN_NAMES = [
  'database_errors_total',
  'database_pool_connections',
  'http_request_duration_seconds',
  'http_requests_total',
  'process_resident_memory_bytes',
  'rate_limit_rejections_total',
  'relayer_health_checks_total',
  'relayers_system_disabled',
  'webhook_deliveries_total',
];

/** The registry's own names, read from it directly rather than through the service's helper. */
const registryNames = (app: TestApp): string[] =>
  app.app
    .get(MetricsService)
    .registry.getMetricsAsArray()
    .map((metric) => metric.name)
    .sort();

/** The metric names a Prometheus text exposition declares with `# HELP`, in order. */
const helpNames = (text: string): string[] =>
  text
    .split('\n')
    .filter((line) => line.startsWith('# HELP '))
    .map((line) => line.split(' ')[2]);

/** The URL of the METRICS_PORT listener. */
const listenerUrl = (app: TestApp, path: string): string => {
  const address = app.app.get(MetricsListener).address();
  if (!address) throw new Error('the metrics listener is not running');
  return `http://127.0.0.1:${address.port}${path}`;
};

describe('metrics in the SDK shapes (docs/reference/running.md#4-metrics)', () => {
  const handle = useTestApp({ METRICS_PORT: '0' });
  const app = () => handle.current;

  it('GET /metrics → 200, a bare JSON array of every metric name, sorted, the registry names', async () => {
    const res = await app().get('/metrics');
    expect({ status: res.status, type: res.type }).toEqual({ status: 200, type: 'application/json' });
    const names = res.body as string[];
    expect(names).toEqual(registryNames(app()));
    expect(names).toEqual(expect.arrayContaining(KNOWN_NAMES));
    expect(names).toEqual([...names].sort());
    expect(new Set(names).size).toBe(names.length);
  });

  it('GET /metrics/{name} → 200, that metric alone in Prometheus text', async () => {
    await app().get('/metrics').expect(200);
    const res = await app().get('/metrics/http_requests_total');
    expect({ status: res.status, type: res.headers['content-type'] }).toEqual({
      status: 200,
      type: PROMETHEUS_TEXT,
    });
    expect(
      res.text.startsWith(
        '# HELP http_requests_total HTTP requests answered, by method, route and status\n' +
          '# TYPE http_requests_total counter\n',
      ),
    ).toBe(true);
    expect(res.text.endsWith('\n')).toBe(true);
    const lines = res.text.slice(0, -1).split('\n');
    expect(lines.filter((line) => !/^http_requests_total\{[^}]*\} \d+$/.test(line))).toEqual([
      '# HELP http_requests_total HTTP requests answered, by method, route and status',
      '# TYPE http_requests_total counter',
    ]);
    expect(lines).toEqual(
      expect.arrayContaining([
        expect.stringMatching(
          /^http_requests_total\{method="GET",route="\/metrics",status="200"\} [1-9]\d*$/,
        ),
      ]),
    );
  });

  it('GET /metrics/{name} of a metric without labels is exactly its three lines', async () => {
    const res = await app().get('/metrics/rate_limit_rejections_total');
    expect({ status: res.status, type: res.headers['content-type'], text: res.text }).toEqual({
      status: 200,
      type: PROMETHEUS_TEXT,
      text:
        '# HELP rate_limit_rejections_total Requests refused with 429 by the rate limit\n' +
        '# TYPE rate_limit_rejections_total counter\n' +
        'rate_limit_rejections_total 0\n',
    });
  });

  it('GET /metrics/{name} of an unknown name → 404 "Metric not found" (also for names of Object.prototype)', async () => {
    for (const name of ['no_such_metric', 'constructor', '__proto__', 'toString', 'http_requests']) {
      const res = await app().get(`/metrics/${name}`);
      // The route answers text: its error is still JSON.
      expect({
        name,
        status: res.status,
        type: res.headers['content-type'],
        body: res.body as unknown,
      }).toEqual({
        name,
        status: 404,
        type: 'application/json; charset=utf-8',
        body: errorBody('Metric not found'),
      });
    }
  });

  it('GET /debug/metrics/scrape → 200, every metric of the registry in Prometheus text', async () => {
    const res = await app().get('/debug/metrics/scrape');
    expect({ status: res.status, type: res.headers['content-type'] }).toEqual({
      status: 200,
      type: PROMETHEUS_TEXT,
    });
    expect(helpNames(res.text).sort()).toEqual(registryNames(app()));
    expect(res.text.endsWith('\n')).toBe(true);
  });

  it('all three need the API key: 401 "Unauthorized" without it or with a wrong one', async () => {
    for (const path of [
      '/metrics',
      '/metrics/http_requests_total',
      '/metrics/no_such_metric',
      '/debug/metrics/scrape',
    ]) {
      expectError(await app().get(path, false), 401, 'Unauthorized');
      expectError(
        await app().get(path, false).set('Authorization', 'Bearer not-the-key-not-the-key-not-the-key'),
        401,
        'Unauthorized',
      );
    }
  });

  it('are in the OpenAPI document behind the bearer key: names as a JSON array, the others as Prometheus text', async () => {
    const doc = await openApiDocument<{
      security?: unknown;
      paths: Record<
        string,
        {
          get: {
            security?: unknown;
            parameters?: { name: string; in: string }[];
            responses: Record<string, { content?: Record<string, { schema: unknown }> }>;
          };
        }
      >;
    }>(app());
    const list = doc.paths['/metrics'].get;
    const detail = doc.paths['/metrics/{metric_name}'].get;
    const scrape = doc.paths['/debug/metrics/scrape'].get;
    expect({
      list: list.responses['200'].content,
      detail: detail.responses['200'].content,
      detailParameters: detail.parameters?.map(({ name, in: where }) => ({ name, in: where })),
      detail404: Object.keys(detail.responses['404'] ?? {}).length > 0,
      scrape: scrape.responses['200'].content,
      security: [list.security, detail.security, scrape.security],
    }).toEqual({
      list: {
        'application/json': {
          schema: { type: 'array', items: { type: 'string' }, example: ['http_requests_total'] },
        },
      },
      detail: { [PROMETHEUS_TEXT]: { schema: { type: 'string' } } },
      detailParameters: [{ name: 'metric_name', in: 'path' }],
      detail404: true,
      scrape: { [PROMETHEUS_TEXT]: { schema: { type: 'string' } } },
      security: [[{ bearer: [] }], [{ bearer: [] }], [{ bearer: [] }]],
    });
  });

  it('the official SDK (MetricsApi of @openzeppelin/relayer-sdk) reads all three with the key in baseOptions', async () => {
    // SDK 1.10.0 sends accessToken on metricDetail only: listMetrics and scrapeMetrics send no
    // Authorization, so the key also goes in baseOptions, which every call sends.
    const bearer = { Authorization: `Bearer ${app().apiKey}` };
    const sdk = new MetricsApi(
      new Configuration({
        basePath: app().baseUrl,
        accessToken: app().apiKey,
        baseOptions: { headers: bearer },
      }),
    );
    const list = await sdk.listMetrics();
    expect({ status: list.status, data: list.data }).toEqual({ status: 200, data: registryNames(app()) });
    const detail = await sdk.metricDetail('rate_limit_rejections_total');
    expect({ status: detail.status, data: detail.data }).toEqual({
      status: 200,
      data:
        '# HELP rate_limit_rejections_total Requests refused with 429 by the rate limit\n' +
        '# TYPE rate_limit_rejections_total counter\n' +
        'rate_limit_rejections_total 0\n',
    });
    const scrape = await sdk.scrapeMetrics();
    expect({ status: scrape.status, names: helpNames(scrape.data).sort() }).toEqual({
      status: 200,
      names: registryNames(app()),
    });
    await expect(sdk.metricDetail('no_such_metric')).rejects.toMatchObject({
      response: { status: 404, data: errorBody('Metric not found') },
    });

    const tokenOnly = new MetricsApi(
      new Configuration({ basePath: app().baseUrl, accessToken: app().apiKey }),
    );
    const fromTokenOnly = await tokenOnly.metricDetail('rate_limit_rejections_total');
    expect(fromTokenOnly.data).toBe(detail.data);
    for (const call of [() => tokenOnly.listMetrics(), () => tokenOnly.scrapeMetrics()]) {
      await expect(call()).rejects.toMatchObject({
        response: { status: 401, data: errorBody('Unauthorized') },
      });
    }
    // A per-call header works too.
    expect((await tokenOnly.listMetrics({ headers: bearer })).data).toEqual(registryNames(app()));
  });

  it('METRICS_PORT: GET /metrics there answers Prometheus text without a key; anything else is a 404', async () => {
    const address = app().app.get(MetricsListener).address();
    expect({ address: address?.address, port: address && address.port !== app().port }).toEqual({
      address: '127.0.0.1',
      port: true,
    });
    for (const path of ['/metrics', '/metrics?format=text']) {
      const res = await fetch(listenerUrl(app(), path));
      const text = await res.text();
      expect({
        path,
        status: res.status,
        type: res.headers.get('content-type'),
        names: helpNames(text).sort(),
      }).toEqual({ path, status: 200, type: PROMETHEUS_TEXT, names: registryNames(app()) });
    }
    const head = await fetch(listenerUrl(app(), '/metrics'), { method: 'HEAD' });
    expect({ status: head.status, body: await head.text() }).toEqual({ status: 200, body: '' });
    for (const [method, path] of [
      ['GET', '/'],
      ['GET', '/metrics/http_requests_total'],
      ['GET', '/debug/metrics/scrape'],
      ['GET', '/api/v1/relayers'],
      ['GET', '/metrics/'],
      ['POST', '/metrics'],
      ['DELETE', '/metrics'],
    ]) {
      const res = await fetch(listenerUrl(app(), path), { method });
      expect({
        method,
        path,
        status: res.status,
        type: res.headers.get('content-type'),
        body: await res.json(),
      }).toEqual({
        method,
        path,
        status: 404,
        type: 'application/json; charset=utf-8',
        body: errorBody('Not Found'),
      });
    }
    // docs/reference/envelope-and-errors.md#44-where-they-apply
    const asked = await fetch(listenerUrl(app(), '/metrics/x?y=1'), {
      headers: { Accept: 'application/problem+json' },
    });
    expect({
      status: asked.status,
      type: asked.headers.get('content-type'),
      body: await asked.json(),
    }).toEqual({
      status: 404,
      type: 'application/problem+json; charset=utf-8',
      body: {
        type: 'about:blank',
        title: 'Not Found',
        status: 404,
        detail: 'Not Found',
        instance: '/metrics/x',
      },
    });
  });
});

describe('metrics routes share the rate limit of the API key', () => {
  // A window of 300 s: the budget of 3 cannot refill during the test.
  const handle = useTestApp({ RATE_LIMIT_BURST_SIZE: '3', RATE_LIMIT_REQUESTS_PER_SECOND: '0.01' });
  const app = () => handle.current;

  it('3 answers, then 429 "Too Many Requests" with Retry-After on each of the three', async () => {
    await app().get('/metrics').expect(200);
    await app().get('/metrics/http_requests_total').expect(200);
    await app().get('/debug/metrics/scrape').expect(200);
    for (const path of ['/metrics', '/metrics/http_requests_total', '/debug/metrics/scrape']) {
      const res = await app().get(path);
      expectError(res, 429, 'Too Many Requests');
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    }
  });
});

describe('metrics while the database cannot be reached (MySQL on an unused port)', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ DATABASE_URL: 'mysql://nobody:nothing@127.0.0.1:1/none', METRICS_PORT: '0' });
  });
  afterAll(async () => {
    await app?.close();
  });

  it('the API answers 503 while all three routes and the METRICS_PORT listener answer 200', async () => {
    expectError(await app.get('/api/v1/relayers'), 503, 'Service Unavailable');
    const list = await app.get('/metrics');
    expect({ status: list.status, body: list.body as unknown }).toEqual({
      status: 200,
      body: registryNames(app),
    });
    const detail = await app.get('/metrics/http_requests_total');
    expect({ status: detail.status, text: detail.text }).toEqual({
      status: 200,
      text: expect.stringContaining(
        'http_requests_total{method="GET",route="/api/v1/relayers",status="503"} 1\n',
      ),
    });
    const scrape = await app.get('/debug/metrics/scrape');
    expect({ status: scrape.status, names: helpNames(scrape.text).sort() }).toEqual({
      status: 200,
      names: registryNames(app),
    });
    const listened = await fetch(listenerUrl(app, '/metrics'));
    expect({ status: listened.status, names: helpNames(await listened.text()).sort() }).toEqual({
      status: 200,
      names: registryNames(app),
    });
  });
});

describe('the METRICS_PORT listener follows the application', () => {
  it('is absent without METRICS_PORT', async () => {
    const app = await startTestApp({ DATABASE_URL: 'sqlite::memory:' });
    try {
      expect(app.app.get(MetricsListener).address()).toBeNull();
    } finally {
      await app.close();
    }
  });

  it('listens once the application has started and stops when it closes', async () => {
    const app = await startTestApp({ DATABASE_URL: 'sqlite::memory:', METRICS_PORT: '0' });
    const listener = app.app.get(MetricsListener);
    const url = listenerUrl(app, '/metrics');
    try {
      expect((await fetch(url)).status).toBe(200);
    } finally {
      await app.close();
    }
    expect(listener.address()).toBeNull();
    await expect(fetch(url)).rejects.toThrow('fetch failed');
  });
});
