import { errorBody, expectError } from '../support/envelope';
import { rawRequest } from '../support/raw-http';
import { useTestApp } from '../support/test-app';
import net from 'node:net';
import { waitFor } from '../support/wait';
import { uid } from '../factories';

describe('request hardening', () => {
  const handle = useTestApp({ REQUEST_TIMEOUT_MS: '400', TRUST_PROXY: '1' });
  const app = () => handle.current;

  it('a handler that runs past REQUEST_TIMEOUT_MS answers 504 "Gateway Timeout"', async () => {
    const body = JSON.stringify({ url: 'https://hooks.example.com/slow' });
    const socket = net.connect(app().port, '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    let received = '';
    socket.on('data', (d: Buffer) => (received += d.toString()));
    socket.write(
      `POST /api/v1/notifications HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${app().apiKey}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 5)}`,
    );
    try {
      await waitFor(
        'the answer to a request whose body never finishes',
        () => received.includes('\r\n\r\n{'),
        {
          timeoutMs: 5000,
          detail: () => `received: ${JSON.stringify(received)}`,
        },
      );
    } finally {
      socket.destroy();
    }
    expect(received).toMatch(/^HTTP\/1\.1 504 /);
    expect(JSON.parse(received.slice(received.indexOf('\r\n\r\n') + 4))).toEqual(
      errorBody('Gateway Timeout'),
    );
  });

  it('requests Node refuses itself still get an envelope: malformed → 400, headers over 16 KiB → 431', async () => {
    const bad = await rawRequest(app().port, {
      method: 'GET',
      path: '/api/v1/notifications',
      headers: [['Bad Header', 'x']],
    });
    expect({ status: bad.status, body: bad.body }).toEqual({ status: 400, body: errorBody('Bad Request') });
    const big = await rawRequest(app().port, {
      method: 'GET',
      path: '/api/v1/notifications',
      headers: [['X-Big', 'a'.repeat(20_000)]],
    });
    expect({ status: big.status, body: big.body }).toEqual({
      status: 431,
      body: errorBody('Request Header Fields Too Large'),
    });
  });

  it('with TRUST_PROXY the log shows the client behind the load balancer', async () => {
    await app().get('/api/v1/notifications').set('X-Forwarded-For', '203.0.113.7').expect(200);
    expect(await app().waitForLog(/"client":"203\.0\.113\.7"/)).toHaveLength(1);
  });

  it('keeps idle connections 65 s, longer than common load balancers (AWS ALB: 60 s)', async () => {
    const res = await fetch(`${app().baseUrl}/api/v1/health`);
    expect({ status: res.status, keepAlive: res.headers.get('keep-alive') }).toEqual({
      status: 200,
      keepAlive: 'timeout=65',
    });
  });
});

describe('Prometheus metrics at /debug/metrics/scrape', () => {
  const handle = useTestApp({ RATE_LIMIT_BURST_SIZE: '2', RATE_LIMIT_REQUESTS_PER_SECOND: '1' });
  const app = () => handle.current;

  it('needs the API key, and counts requests by route and status, latency, rate-limit rejections and the pool', async () => {
    expectError(await app().get('/debug/metrics/scrape', false), 401, 'Unauthorized');
    await app()
      .post('/api/v1/notifications', {
        id: uid('m'),
        url: 'https://hooks.example.com/m',
      })
      .expect(201);
    await app().get('/api/v1/notifications/missing').expect(404);
    expectError(await app().get('/api/v1/notifications'), 429, 'Too Many Requests');
    // The metrics are behind the same limit: ask until the window has passed, counting the refusals.
    let refusals = 1;
    const res = await waitFor(
      'GET /debug/metrics/scrape to pass the rate limit',
      async () => {
        const answer = await app().get('/debug/metrics/scrape');
        if (answer.status !== 429) return answer;
        refusals += 1;
        return false;
      },
      { timeoutMs: 10_000, intervalMs: 250 },
    );
    expect(res.status).toBe(200);
    expect(res.type).toBe('text/plain');
    const lines = res.text.split('\n');
    expect(lines).toEqual(
      expect.arrayContaining([
        'http_requests_total{method="POST",route="/api/v1/notifications",status="201"} 1',
        'http_requests_total{method="GET",route="/api/v1/notifications/:notification_id",status="404"} 1',
        `rate_limit_rejections_total ${refusals}`,
        'http_request_duration_seconds_count{method="POST",route="/api/v1/notifications",status="201"} 1',
        expect.stringMatching(/^database_pool_connections\{state="total"\} \d+$/),
        expect.stringMatching(/^process_resident_memory_bytes \d+$/),
      ]),
    );
  });
});
