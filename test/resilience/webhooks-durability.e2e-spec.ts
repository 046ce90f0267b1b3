import { randomBytes } from 'node:crypto';
import { secrets } from '../support/secrets';
import { startReadyService } from '../support/service-process';
import { startTestApp, type TestApp } from '../support/test-app';
import { writeTestCatalogue } from '../support/test-catalogue';
import { createTestDatabase, TEST_DB, type TestDatabase } from '../support/test-database';
import { WebhookReceiver } from '../support/webhook-receiver';
import { relayerBody, uid } from '../factories';

/** `relayer_created:<id>:<name>`: what one acknowledged change must produce at the receiver. */
const key = (event: string, relayer: { id: string; name: string }) =>
  `${event}:${relayer.id}:${relayer.name}`;

describe(`webhook outbox on ${TEST_DB}: nothing committed is lost across SIGKILL`, () => {
  let database: TestDatabase;
  const receiver = new WebhookReceiver();
  const catalogue = writeTestCatalogue(60);
  const apiKey = secrets.add(randomBytes(32).toString('hex'));

  beforeAll(async () => {
    database = await createTestDatabase();
    await receiver.start();
  });
  afterAll(async () => {
    await receiver.close();
    await database?.drop();
  });

  const start = () =>
    startReadyService({
      API_KEY: apiKey,
      DATABASE_URL: database.url,
      CONFIG_FILE: catalogue.file,
      NODE_ENV: 'production',
      // The receiver listens on loopback, which production refuses by default (docs/reference/hardening.md).
      WEBHOOK_BLOCK_PRIVATE_IPS: 'false',
      LOG_LEVEL: 'warn',
      WEBHOOK_TIMEOUT_MS: '300',
      WEBHOOK_RETRY_BASE_MS: '100',
      WEBHOOK_MAX_ATTEMPTS: '100',
      // Only the changes made here produce events (no relayer_state_update from health checks).
      RELAYER_HEALTH_CHECKS: 'false',
    });
  it('events committed before a SIGKILL are delivered after the restart (same X-Event-Id when sent twice)', async () => {
    receiver.defaultStatus = 503; // the receiver is down: every event stays pending, retried
    const service = await start();
    const hook = uid('hook');
    expect(
      (await service.call('POST', '/api/v1/notifications', { id: hook, url: receiver.url('/durable') }))
        .status,
    ).toBe(201);
    const expected = new Set<string>();
    for (let i = 0; i < 15; i++) {
      const relayer = { id: uid('kill'), name: 'first' };
      const created = await service.call(
        'POST',
        '/api/v1/relayers',
        relayerBody('evm', { ...relayer, signer_id: catalogue.nextSigner(), notification_id: hook }),
      );
      expect(created.status).toBe(201);
      expected.add(key('relayer_created', relayer));
      const patched = await service.call('PATCH', `/api/v1/relayers/${relayer.id}`, { name: 'second' });
      expect(patched.status).toBe(200);
      expected.add(key('relayer_updated', { id: relayer.id, name: 'second' }));
    }
    await receiver.waitFor('/durable', 1); // attempts are under way
    await service.stop('SIGKILL');

    receiver.defaultStatus = 200;
    const restarted = await start();
    try {
      const deadline = Date.now() + 45_000;
      const delivered = () =>
        new Set(
          receiver
            .to('/durable')
            .filter((r) => r.answeredStatus === 200 && r.headers['x-event-id'] === r.json.id)
            .map((r) => key(r.json.event, r.json.payload.relayer as { id: string; name: string })),
        );
      while ([...expected].some((k) => !delivered().has(k))) {
        if (Date.now() > deadline) {
          throw new Error(
            `not delivered after restart: ${[...expected].filter((k) => !delivered().has(k)).join(', ')}`,
          );
        }
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      // Every attempt of one event carried the same id; no event was invented.
      const idsByEvent = new Map<string, Set<string>>();
      for (const r of receiver.to('/durable')) {
        const k = key(r.json.event, r.json.payload.relayer as { id: string; name: string });
        idsByEvent.set(k, (idsByEvent.get(k) ?? new Set()).add(r.json.id));
      }
      expect({
        events: [...idsByEvent.keys()].sort(),
        oneIdEach: [...idsByEvent.values()].every((ids) => ids.size === 1),
      }).toEqual({
        events: [...expected].sort(),
        oneIdEach: true,
      });
    } finally {
      await restarted.stop();
    }
  }, 90_000);
});

const describeMysql = TEST_DB === 'mysql' ? describe : describe.skip;

describeMysql('instances on one MySQL database: every event once, each target in commit order', () => {
  const EVENTS = 45;
  let database: TestDatabase;
  const receiver = new WebhookReceiver();
  const apps: TestApp[] = [];

  beforeAll(async () => {
    database = await createTestDatabase({ kind: 'mysql' });
    await receiver.start();
    const apiKey = secrets.add(randomBytes(32).toString('hex'));
    for (let i = 0; i < 3; i++)
      apps.push(await startTestApp({ DATABASE_URL: database.url, API_KEY: apiKey }));
  });
  afterAll(async () => {
    for (const app of apps) await app.close();
    await receiver.close();
    await database?.drop();
  });

  it('changes made through both instances: each event reaches the receiver exactly once', async () => {
    const [a, b] = apps;
    const hook = uid('hook');
    await a.post('/api/v1/notifications', { id: hook, url: receiver.url('/shared') }).expect(201);
    const writes: Array<Promise<unknown>> = [];
    for (let i = 0; i < 20; i++) {
      const through = i % 2 === 0 ? a : b;
      writes.push(
        through
          .post(
            '/api/v1/relayers',
            relayerBody('evm', { id: uid('pair'), name: `relayer ${i}`, notification_id: hook }),
          )
          .expect(201),
      );
    }
    await Promise.all(writes);
    await receiver.waitFor('/shared', 20);
    // Both dispatchers keep polling: give them a few rounds to (wrongly) send anything twice.
    const log = async () =>
      (await a.get(`/api/v1/notifications/${hook}/deliveries?per_page=100`).expect(200)).body as {
        data: Array<{ status: string; attempts: number }>;
      };
    const deadline = Date.now() + 15_000;
    while ((await log()).data.some((d) => d.status !== 'delivered')) {
      if (Date.now() > deadline) throw new Error('deliveries still pending');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const perEvent = new Map<string, number>();
    for (const r of receiver.to('/shared')) perEvent.set(r.json.id, (perEvent.get(r.json.id) ?? 0) + 1);
    expect({ events: perEvent.size, sentOnce: [...perEvent.values()].every((n) => n === 1) }).toEqual({
      events: 20,
      sentOnce: true,
    });
    expect((await log()).data.map((d) => d.attempts)).toEqual(Array(20).fill(1));
  });

  it('changes made one after the other through all three, a slow receiver: its events arrive in commit order, once each', async () => {
    // Every answer takes 30 ms: while one instance sends, the others see the next events due.
    receiver.script(
      '/ordered',
      Array.from({ length: EVENTS }, () => ({ delayMs: 30 })),
    );
    const hook = uid('hook');
    await apps[0].post('/api/v1/notifications', { id: hook, url: receiver.url('/ordered') }).expect(201);
    const relayer = uid('order');
    await apps[0]
      .post('/api/v1/relayers', relayerBody('evm', { id: relayer, name: 'n 0', notification_id: hook }))
      .expect(201);
    for (let i = 1; i < EVENTS; i++) {
      await apps[i % 3].patch(`/api/v1/relayers/${relayer}`, { name: `n ${i}` }).expect(200);
    }
    await receiver.waitFor('/ordered', EVENTS, 30_000);
    // Three dispatchers keep polling: give them a few rounds to (wrongly) send anything again.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const arrived = receiver
      .to('/ordered')
      .map((r) => String((r.json.payload.relayer as { name?: unknown }).name));
    expect({
      arrived,
      // A batch whose targets another instance holds claims nothing, without an error.
      failedRounds: apps[0]
        .logText()
        .split('\n')
        .filter((line) => line.includes('Webhooks round failed')),
    }).toEqual({ arrived: Array.from({ length: EVENTS }, (_, i) => `n ${i}`), failedRounds: [] });
  }, 60_000);
});
