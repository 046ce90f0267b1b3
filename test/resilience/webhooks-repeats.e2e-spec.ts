import { randomBytes } from 'node:crypto';
import { secrets } from '../support/secrets';
import { startReadyService } from '../support/service-process';
import { writeTestCatalogue } from '../support/test-catalogue';
import { createTestDatabase, TEST_DB, type TestDatabase } from '../support/test-database';
import { waitFor } from '../support/wait';
import { WebhookReceiver, type ReceivedWebhook } from '../support/webhook-receiver';
import { relayerBody, uid } from '../factories';

/** Events per target: a relayer_created and then relayer_updated ones. */
const EVENTS = 30;
/** Deliveries answered 2xx to each target before the SIGKILL. */
const ANSWERED_BEFORE_KILL = 12;
const TARGETS = ['a', 'b'] as const;

const nameOf = (r: ReceivedWebhook) => String((r.json.payload.relayer as { name?: unknown }).name);

describe(`webhooks on ${TEST_DB}: a SIGKILL mid-round repeats at most the attempt in flight per target (docs/reference/webhooks.md#29-batches)`, () => {
  let database: TestDatabase;
  const receiver = new WebhookReceiver();
  const catalogue = writeTestCatalogue(10);
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
      // A killed instance's leases end 2 * 5 s + 5 s later. The margin: the slowest answer (the first, 1.5 s)
      // times out only if the machine delays it by 3.5 s more; with 2 s, a loaded CI run timed one out
      // and sent it again (at 45dce90, two repeats where one is allowed).
      WEBHOOK_TIMEOUT_MS: '5000',
      RELAYER_HEALTH_CHECKS: 'false',
    });
  it('two targets answering in 100 ms, killed after 12 deliveries each: after the restart each target gets every event, in commit order, and at most one of them twice', async () => {
    // The first delivery of each target takes 1.5 s (its backlog builds up meanwhile), the others 100 ms.
    for (const target of TARGETS) {
      receiver.script(`/${target}`, [
        { delayMs: 1500 },
        ...Array.from({ length: EVENTS }, () => ({ delayMs: 100 })),
      ]);
    }
    const service = await start();
    const relayers = { a: uid('repeat'), b: uid('repeat') };
    for (const target of TARGETS) {
      const hook = uid('hook');
      expect(
        (await service.call('POST', '/api/v1/notifications', { id: hook, url: receiver.url(`/${target}`) }))
          .status,
      ).toBe(201);
      expect(
        (
          await service.call(
            'POST',
            '/api/v1/relayers',
            relayerBody('evm', {
              id: relayers[target],
              name: `${target} 0`,
              signer_id: catalogue.nextSigner(),
              notification_id: hook,
            }),
          )
        ).status,
      ).toBe(201);
    }
    for (let i = 1; i < EVENTS; i++) {
      for (const target of TARGETS) {
        expect(
          (await service.call('PATCH', `/api/v1/relayers/${relayers[target]}`, { name: `${target} ${i}` }))
            .status,
        ).toBe(200);
      }
    }
    const answered = (target: string) =>
      receiver.to(`/${target}`).filter((r) => r.answeredStatus === 200).length;
    await waitFor(
      `${ANSWERED_BEFORE_KILL} deliveries answered to each target`,
      () => TARGETS.every((target) => answered(target) >= ANSWERED_BEFORE_KILL),
      { timeoutMs: 20_000, intervalMs: 5 },
    );
    await service.stop('SIGKILL');
    const beforeKill = { a: receiver.to('/a').length, b: receiver.to('/b').length };

    for (const target of TARGETS) receiver.script(`/${target}`, []);
    const restarted = await start();
    try {
      const expected = (target: string) => Array.from({ length: EVENTS }, (_, i) => `${target} ${i}`);
      const delivered = (target: string) =>
        new Set(
          receiver
            .to(`/${target}`)
            .filter((r) => r.answeredStatus === 200)
            .map(nameOf),
        );
      await waitFor(
        'every event delivered after the restart',
        () => TARGETS.every((target) => expected(target).every((name) => delivered(target).has(name))),
        { timeoutMs: 40_000 },
      );
      // The dispatcher keeps polling: give it a few rounds to (wrongly) send anything again.
      await new Promise((resolve) => setTimeout(resolve, 1500));
      const report = (target: 'a' | 'b') => {
        const received = receiver.to(`/${target}`);
        const firstArrivals = [...new Set(received.map(nameOf))];
        return {
          firstArrivals,
          // Every delivery sent after the restart was pending when the process died.
          sentAfterRestart: received.length > beforeKill[target],
          sameIdEachTime: received.every((r) => r.headers['x-event-id'] === r.json.id),
          sentMoreThanOnce:
            received.length - firstArrivals.length <= 1
              ? 'at most one'
              : received.length - firstArrivals.length,
        };
      };
      expect({ a: report('a'), b: report('b') }).toEqual({
        a: {
          firstArrivals: expected('a'),
          sentAfterRestart: true,
          sameIdEachTime: true,
          sentMoreThanOnce: 'at most one',
        },
        b: {
          firstArrivals: expected('b'),
          sentAfterRestart: true,
          sameIdEachTime: true,
          sentMoreThanOnce: 'at most one',
        },
      });
    } finally {
      await restarted.stop();
    }
  }, 90_000);
});
