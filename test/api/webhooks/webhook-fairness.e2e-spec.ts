import { useWebhookApp } from '../../support/webhook-app';
import { TEST_DB } from '../../support/test-database';
import { relayerBody, uid } from '../../factories';

/** Events of the slow target due at once (docs/reference/hardening.md#4-webhook-fairness: "150 of its events due"). */
const BACKLOG = 150;
const SLOW_MS = 3000;
/** The contract's bound for another target's new event. */
const DEADLINE_MS = 30_000;

describe(`one slow receiver does not hold back the others on ${TEST_DB} (docs/reference/webhooks.md#29-batches)`, () => {
  // A timeout that a 3 s receiver stays well within, as an operator sets it for slow receivers.
  const { receiver, app } = useWebhookApp({ WEBHOOK_TIMEOUT_MS: '30000' });

  it('a target answering in 3 s with 150 events due: another target gets its new event within 30 s, the slow one its events in commit order', async () => {
    receiver.script(
      '/slow',
      Array.from({ length: BACKLOG }, () => ({ delayMs: SLOW_MS })),
    );
    const targets = { slow: uid('hook'), fast: uid('hook') };
    for (const [path, id] of Object.entries(targets)) {
      await app()
        .post('/api/v1/notifications', { id, url: receiver.url(`/${path}`) })
        .expect(201);
    }
    const slowRelayer = uid('slow');
    await app()
      .post(
        '/api/v1/relayers',
        relayerBody('evm', { id: slowRelayer, name: 'slow 0', notification_id: targets.slow }),
      )
      .expect(201);
    for (let i = 1; i < BACKLOG; i++) {
      await app()
        .patch(`/api/v1/relayers/${slowRelayer}`, { name: `slow ${i}` })
        .expect(200);
    }
    // The slow target's deliveries are under way: its second one has been sent.
    await receiver.waitFor('/slow', 2, 20_000);

    const committed = Date.now();
    await app()
      .post(
        '/api/v1/relayers',
        relayerBody('evm', { id: uid('fast'), name: 'fast 0', notification_id: targets.fast }),
      )
      .expect(201);
    const [fast] = await receiver.waitFor('/fast', 1, DEADLINE_MS + 5000);
    const waitedMs = Date.now() - committed;

    const slowNames = receiver
      .to('/slow')
      .map((r) => String((r.json.payload.relayer as { name?: unknown }).name));
    expect({
      fast: `${fast.json.event}:${String((fast.json.payload.relayer as { name?: unknown }).name)}`,
      withinDeadline: waitedMs < DEADLINE_MS,
      // What the slow target got so far is the start of its events, in commit order.
      slowInCommitOrder: slowNames,
    }).toEqual({
      fast: 'relayer_created:fast 0',
      withinDeadline: true,
      slowInCommitOrder: Array.from({ length: slowNames.length }, (_, i) => `slow ${i}`),
    });
  }, 90_000);
});
