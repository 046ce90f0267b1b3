import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import net from 'node:net';
import { secrets } from '../support/secrets';
import { ServiceProcess } from '../support/service-process';
import { writeTestCatalogue } from '../support/test-catalogue';
import { createTestDatabase, TEST_DB, type TestDatabase } from '../support/test-database';
import { waitFor, withDeadline } from '../support/wait';
import { uid } from '../factories';

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

    // A request in flight: its body arrives slowly, over the moment of SIGTERM. With
    // `Expect: 100-continue`, Node answers 100 once it has the headers and hands the request on:
    // from then on the request is in flight inside the service.
    const id = uid('drain');
    const body = JSON.stringify({ id, url: 'https://hooks.example.com/drained' });
    const socket = net.connect(service.port, '127.0.0.1');
    await withDeadline('the connection to the service', once(socket, 'connect'), 5000);
    let received = '';
    socket.on('data', (d: Buffer) => (received += d.toString()));
    const closed = once(socket, 'close');
    socket.write(
      `POST /api/v1/notifications HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${apiKey}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${body.length}\r\nExpect: 100-continue\r\n\r\n` +
        body.slice(0, 10),
    );
    await waitFor('100 Continue to the request in flight', () => received.includes('HTTP/1.1 100 '), {
      timeoutMs: 5000,
      detail: () => `received: ${JSON.stringify(received)}`,
    });

    const exited = service.stop('SIGTERM');
    // New connections are refused while the request is still running (its body is not all sent).
    await waitFor(
      'new connections to be refused after SIGTERM',
      () =>
        new Promise<boolean>((resolve) => {
          const probe = net.connect(service.port, '127.0.0.1');
          probe.once('connect', () => {
            probe.destroy();
            resolve(false);
          });
          probe.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ECONNREFUSED'));
        }),
      { timeoutMs: 5000 },
    );
    // The rest of the body, and a readiness probe pipelined on the same connection.
    socket.write(`${body.slice(10)}GET /api/v1/ready HTTP/1.1\r\nHost: x\r\n\r\n`);
    await withDeadline(
      'the service to answer both requests and close the connection',
      closed,
      10_000,
      () => `received: ${JSON.stringify(received)}\n${service.log}`,
    );
    // Exit code 0 means the drain ended within the grace: after SHUTDOWN_GRACE_MS it exits 1.
    const { code } = await exited;

    const statuses = [...received.matchAll(/HTTP\/1\.1 ([2-5]\d\d)/g)].map((m) => Number(m[1]));
    expect({ statuses, code, ready503: received.includes('"shutdown":{"status":"down"') }).toEqual({
      statuses: [201, 503],
      code: 0,
      ready503: true,
    });

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
  });
});
