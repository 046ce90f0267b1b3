import { randomBytes } from 'node:crypto';
import net from 'node:net';
import { secrets } from './support/secrets';
import { ServiceProcess } from './support/service-process';
import { writeTestCatalogue } from './support/test-catalogue';
import { createTestDatabase, TEST_DB, type TestDatabase } from './support/test-database';

const describeEmbedded = TEST_DB === 'sqlite' ? describe : describe.skip;

describeEmbedded('graceful shutdown on SIGTERM', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database?.drop();
  });

  it('finishes the request in flight, answers readiness 503 meanwhile, refuses new connections, exits 0 within the grace', async () => {
    const apiKey = secrets.add(randomBytes(32).toString('hex'));
    const env = {
      API_KEY: apiKey,
      DATABASE_URL: database.url,
      CONFIG_FILE: writeTestCatalogue(2).file,
      SHUTDOWN_GRACE_MS: '5000',
    };
    const service = new ServiceProcess(process.cwd(), env);
    await service.start();
    await service.waitReady();

    // A request in flight: its body arrives slowly, over the moment of SIGTERM.
    const id = `drain-${randomBytes(4).toString('hex')}`;
    const body = JSON.stringify({ id, url: 'https://hooks.example.com/drained' });
    const socket = net.connect(service.port, '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    let received = '';
    socket.on('data', (d: Buffer) => (received += d.toString()));
    const closed = new Promise((resolve) => socket.once('close', resolve));
    socket.write(
      `POST /api/v1/notifications HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${apiKey}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 10)}`,
    );
    await new Promise((resolve) => setTimeout(resolve, 300));

    const signalled = Date.now();
    const exited = service.stop('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 500));
    // New connections are refused while the request is still running.
    const refused = await new Promise<string>((resolve) => {
      const probe = net.connect(service.port, '127.0.0.1');
      probe.once('connect', () => {
        probe.destroy();
        resolve('connected');
      });
      probe.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
    });
    expect(refused).toBe('ECONNREFUSED');
    // The rest of the body, and a readiness probe pipelined on the same connection.
    socket.write(`${body.slice(10)}GET /api/v1/ready HTTP/1.1\r\nHost: x\r\n\r\n`);
    await closed;
    const { code } = await exited;
    const drainMs = Date.now() - signalled;
    process.stdout.write(`graceful shutdown: drained and exited in ${drainMs} ms\n`);

    const statuses = [...received.matchAll(/HTTP\/1\.1 (\d{3})/g)].map((m) => Number(m[1]));
    expect({ statuses, code, ready503: received.includes('"shutdown":{"status":"down"') }).toEqual({
      statuses: [201, 503],
      code: 0,
      ready503: true,
    });
    expect(drainMs).toBeLessThan(5000);

    const again = new ServiceProcess(process.cwd(), env);
    await again.start();
    try {
      await again.waitReady();
      const res = await again.fetch(`/api/v1/notifications/${id}`, {
        headers: { Authorization: `Bearer ${apiKey}` },
      });
      expect(res.status).toBe(200);
    } finally {
      await again.stop();
    }
  }, 60_000);
});
