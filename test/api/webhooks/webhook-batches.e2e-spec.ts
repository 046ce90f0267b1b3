import { useWebhookApp } from '../../support/webhook-app';
import { TEST_DB } from '../../support/test-database';
import { relayerBody, uid } from '../../factories';

const PATCHES = 30;

describe(`webhook dispatch in batches on ${TEST_DB} (docs/reference/webhooks.md#2-delivery)`, () => {
  const { receiver, app, target, settled } = useWebhookApp({ WEBHOOK_TIMEOUT_MS: '5000' });

  it('two targets claimed in different rounds and answered together: each written delivered with its own status and lease, and sent once', async () => {
    receiver.script('/lease-a', [{ hold: true }]);
    receiver.script('/lease-b', [{ hold: true, status: 202 }]);
    const a = await target('/lease-a');
    await app()
      .post('/api/v1/relayers', relayerBody('evm', { id: uid('lease'), notification_id: a }))
      .expect(201);
    await receiver.waitFor('/lease-a', 1);
    // Claimed while a's run holds its first delivery: another round, another lease.
    const b = await target('/lease-b');
    await app()
      .post('/api/v1/relayers', relayerBody('evm', { id: uid('lease'), notification_id: b }))
      .expect(201);
    await receiver.waitFor('/lease-b', 1);
    expect([receiver.release('/lease-a'), receiver.release('/lease-b')]).toEqual([1, 1]);
    const [logA, logB] = await Promise.all([settled(a), settled(b)]);
    // Nothing is sent again once the leases would have ended.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const written = (log: typeof logA) =>
      log.map((d) => ({ status: d.status, attempts: d.attempts, code: d.last_status_code }));
    expect({
      a: written(logA),
      b: written(logB),
      arrivals: [receiver.to('/lease-a').length, receiver.to('/lease-b').length],
    }).toEqual({
      a: [{ status: 'delivered', attempts: 1, code: 200 }],
      b: [{ status: 'delivered', attempts: 1, code: 202 }],
      arrivals: [1, 1],
    });
  });

  it('a backlog for two targets: each target gets its events once and in commit order, the targets side by side', async () => {
    // Target a's first delivery is answered after 1.5 s: the rest queue up behind it meanwhile.
    receiver.script('/a', [{ delayMs: 1500 }]);
    const targets = { a: uid('hook'), b: uid('hook') };
    for (const [path, id] of Object.entries(targets)) {
      await app()
        .post('/api/v1/notifications', { id, url: receiver.url(`/${path}`) })
        .expect(201);
    }
    const relayers = { a: uid('batch'), b: uid('batch') };
    for (const key of ['a', 'b'] as const) {
      await app()
        .post(
          '/api/v1/relayers',
          relayerBody('evm', { id: relayers[key], name: `${key} 0`, notification_id: targets[key] }),
        )
        .expect(201);
    }
    for (let i = 1; i <= PATCHES; i++) {
      for (const key of ['a', 'b'] as const) {
        await app()
          .patch(`/api/v1/relayers/${relayers[key]}`, { name: `${key} ${i}` })
          .expect(200);
      }
    }
    const [a, b] = await Promise.all([
      receiver.waitFor('/a', PATCHES + 1),
      receiver.waitFor('/b', PATCHES + 1),
    ]);
    // Nothing more arrives: each event once.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const names = (path: string) =>
      receiver
        .to(path)
        .map((r) => `${r.json.event}:${String((r.json.payload.relayer as { name?: unknown }).name)}`);
    const expected = (key: string) => [
      `relayer_created:${key} 0`,
      ...Array.from({ length: PATCHES }, (_, i) => `relayer_updated:${key} ${i + 1}`),
    ];
    const answered = (list: typeof a) => list.map((r) => r.answeredAt ?? Infinity);
    expect({
      a: names('/a'),
      b: names('/b'),
      distinctIds: new Set([...receiver.to('/a'), ...receiver.to('/b')].map((r) => r.json.id)).size,
      // Side by side: b's updates began before a's had all been answered.
      interleaved: Math.min(...answered(b).slice(1)) < Math.max(...answered(a)),
    }).toEqual({
      a: expected('a'),
      b: expected('b'),
      distinctIds: 2 * (PATCHES + 1),
      interleaved: true,
    });
  });
});
