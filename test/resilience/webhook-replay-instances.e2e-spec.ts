import { randomBytes } from 'node:crypto';
import { errorBody, successBody } from '../support/envelope';
import { secrets } from '../support/secrets';
import { startTestApp, type TestApp } from '../support/test-app';
import { createTestDatabase, TEST_DB, type TestDatabase } from '../support/test-database';
import { WebhookReceiver } from '../support/webhook-receiver';
import { relayerBody, uid } from '../factories';

const describeMysql = TEST_DB === 'mysql' ? describe : describe.skip;

interface Delivery {
  event_id: string;
  status: string;
  attempts: number;
}

describeMysql(
  'three instances on one MySQL database: a replay is queued once, and one at a time (docs/reference/webhooks.md#7-replay)',
  () => {
    const EVENTS = 20;
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

    const log = async (hook: string): Promise<Delivery[]> =>
      (
        (await apps[2].get(`/api/v1/notifications/${hook}/deliveries?per_page=100`).expect(200)).body
          .data as Delivery[]
      )
        .slice()
        .reverse();
    const settled = async (hook: string): Promise<Delivery[]> => {
      const deadline = Date.now() + 20_000;
      for (;;) {
        const current = await log(hook);
        if (current.length === EVENTS && current.every((d) => d.status !== 'pending')) return current;
        if (Date.now() > deadline) throw new Error(`deliveries still pending: ${JSON.stringify(current)}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    };

    it('two instances replay the same failed deliveries at once: one queues them, the other is a 409 while they are pending; each is received once, in commit order, with its X-Event-Id', async () => {
      // Refused at first (failed after one attempt), then a slow receiver: the three dispatchers all see the backlog due.
      receiver.script('/replayed', [
        ...Array.from({ length: EVENTS }, () => ({ status: 410 })),
        ...Array.from({ length: EVENTS }, () => ({ delayMs: 30 })),
      ]);
      const hook = uid('hook');
      await apps[0].post('/api/v1/notifications', { id: hook, url: receiver.url('/replayed') }).expect(201);
      const relayer = uid('replay');
      await apps[0]
        .post('/api/v1/relayers', relayerBody('evm', { id: relayer, name: 'n 0', notification_id: hook }))
        .expect(201);
      for (let i = 1; i < EVENTS; i++) {
        await apps[i % 3].patch(`/api/v1/relayers/${relayer}`, { name: `n ${i}` }).expect(200);
      }
      const failed = await settled(hook);
      expect(failed.map((d) => [d.status, d.attempts])).toEqual(Array(EVENTS).fill(['failed', 1]));

      // One queues them all; the other, one after it (the target is locked for the replay), finds them
      // pending: a replay in progress (the first is in flight for 30 ms at least).
      const answers = await Promise.all(
        [apps[0], apps[1]].map(async (app) => {
          const res = await app.post(`/api/v1/notifications/${hook}/deliveries/replay`, { status: 'failed' });
          return { status: res.status, body: res.body as unknown };
        }),
      );
      expect(answers.sort((a, b) => a.status - b.status)).toEqual([
        { status: 202, body: successBody({ queued: EVENTS, remaining: 0, skipped: 0 }) },
        { status: 409, body: errorBody(`Replay in progress: ${EVENTS} deliveries pending`) },
      ]);

      await receiver.waitFor('/replayed', 2 * EVENTS, 30_000);
      // Three dispatchers keep polling: give them a few rounds to (wrongly) send anything again.
      await new Promise((resolve) => setTimeout(resolve, 1500));
      const replayed = receiver.to('/replayed').slice(EVENTS);
      expect({
        count: receiver.to('/replayed').length,
        eventIds: replayed.map((r) => r.headers['x-event-id']),
        names: replayed.map((r) => String((r.json.payload.relayer as { name: string }).name)),
      }).toEqual({
        count: 2 * EVENTS,
        eventIds: failed.map((d) => d.event_id),
        names: Array.from({ length: EVENTS }, (_, i) => `n ${i}`),
      });
      expect((await settled(hook)).map((d) => [d.status, d.attempts])).toEqual(
        Array(EVENTS).fill(['delivered', 2]),
      );
    }, 90_000);
  },
);
