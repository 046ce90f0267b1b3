import { randomUUID } from 'node:crypto';
import { expectError, successBody } from '../../support/envelope';
import { useWebhookApp, type Delivery } from '../../support/webhook-app';
import { createKey, relayerBody, uid } from '../../factories';

const ALL_EVENTS =
  'relayer_created, relayer_updated, relayer_deleted, relayer_state_update, notification_test, relayer_low_balance, relayer_balance_restored';

describe('replaying a target deliveries (docs/reference/webhooks.md#7-replay)', () => {
  const {
    receiver,
    handle,
    app,
    target,
    settled: newestFirst,
  } = useWebhookApp({ WEBHOOK_RETRY_BASE_MS: '40', WEBHOOK_TIMEOUT_MS: '30000' });

  const replay = (notificationId: string, body: unknown) =>
    app().post(`/api/v1/notifications/${notificationId}/deliveries/replay`, body);
  /** The log, oldest first, once nothing is pending (deadline 15 s). */
  const settled = async (notificationId: string) => (await newestFirst(notificationId)).reverse();
  /** A relayer created and renamed `renames` times: 1 + renames events, one after the other. */
  const events = async (hook: string, renames: number) => {
    const id = uid('r');
    await app()
      .post('/api/v1/relayers', relayerBody('evm', { id, name: 'n0', notification_id: hook }))
      .expect(201);
    for (let i = 1; i <= renames; i++)
      await app()
        .patch(`/api/v1/relayers/${id}`, { name: `n${i}` })
        .expect(200);
    return id;
  };
  /** Makes the target's last replays `ms` old (the service writes when it queues a delivery again). */
  const replayedAgo = (notificationId: string, ms: number) =>
    handle.database.exec(
      `UPDATE webhook_deliveries SET replayed_at = '${new Date(Date.now() - ms).toISOString().replace('T', ' ').replace('Z', '')}'
        WHERE notification_id = '${notificationId}' AND replayed_at IS NOT NULL`,
    );
  const names = (path: string, from = 0) =>
    receiver
      .to(path)
      .slice(from)
      .map((r) => String((r.json.payload.relayer as { name: string }).name));

  it('queues every failed delivery again, oldest first: the receiver gets them in commit order with their X-Event-Id', async () => {
    receiver.script(
      '/down',
      Array.from({ length: 6 }, () => ({ status: 410 })),
    );
    const hook = await target('/down');
    await events(hook, 5);
    const failed = await settled(hook);
    expect(failed.map((d) => [d.status, d.attempts])).toEqual(Array(6).fill(['failed', 1]));

    expect((await replay(hook, { status: 'failed' }).expect(202)).body as unknown).toEqual(
      successBody({ queued: 6, remaining: 0, skipped: 0 }),
    );
    const got = (await receiver.waitFor('/down', 12)).slice(6);
    expect(got.map((r) => r.headers['x-event-id'])).toEqual(failed.map((d) => d.event_id));
    expect(got.map((r) => r.json.id)).toEqual(failed.map((d) => d.event_id));
    expect(names('/down', 6)).toEqual(['n0', 'n1', 'n2', 'n3', 'n4', 'n5']);
    expect((await settled(hook)).map((d) => [d.id, d.status, d.attempts])).toEqual(
      failed.map((d) => [d.id, 'delivered', 2]),
    );
    // Nothing failed is left; the delivered ones can be sent again too, once their replay is an hour old.
    expect((await replay(hook, { status: 'failed' }).expect(202)).body as unknown).toEqual(
      successBody({ queued: 0, remaining: 0, skipped: 0 }),
    );
    await replayedAgo(hook, 61 * 60_000);
    expect(
      (await replay(hook, { status: 'delivered', event: 'relayer_created' }).expect(202)).body as unknown,
    ).toEqual(successBody({ queued: 1, remaining: 0, skipped: 0 }));
    const [again] = (await receiver.waitFor('/down', 13)).slice(12);
    expect([again.headers['x-event-id'], again.json.event]).toEqual([failed[0].event_id, 'relayer_created']);
  });

  it('since, until and event choose the deliveries: a window [since, until) of creation times, one event name', async () => {
    receiver.script(
      '/window',
      Array.from({ length: 5 }, () => ({ status: 400 })),
    );
    const hook = await target('/window');
    await events(hook, 4);
    const failed = await settled(hook);
    expect(failed.map((d) => d.event)).toEqual([
      'relayer_created',
      'relayer_updated',
      'relayer_updated',
      'relayer_updated',
      'relayer_updated',
    ]);
    // Each later than the one before (one request after the other).
    expect(new Set(failed.map((d) => d.created_at)).size).toBe(5);

    const window = { status: 'failed', since: failed[1].created_at, until: failed[3].created_at };
    expect((await replay(hook, window).expect(202)).body as unknown).toEqual(
      successBody({ queued: 2, remaining: 0, skipped: 0 }),
    );
    await receiver.waitFor('/window', 7);
    await settled(hook);
    expect(names('/window', 5)).toEqual(['n1', 'n2']);

    expect(
      (await replay(hook, { status: 'failed', event: 'relayer_created' }).expect(202)).body as unknown,
    ).toEqual(successBody({ queued: 1, remaining: 0, skipped: 0 }));
    await receiver.waitFor('/window', 8);
    await settled(hook);
    // An offset other than Z names the same instant.
    const until = new Date(Date.parse(failed[4].created_at) + 1).toISOString().replace('Z', '+00:00');
    expect(
      (await replay(hook, { status: 'failed', since: failed[3].created_at, until }).expect(202))
        .body as unknown,
    ).toEqual(successBody({ queued: 2, remaining: 0, skipped: 0 }));
    await receiver.waitFor('/window', 10);
    await settled(hook);
    expect(names('/window', 5)).toEqual(['n1', 'n2', 'n0', 'n3', 'n4']);
    expect((await settled(hook)).map((d) => d.status)).toEqual(Array(5).fill('delivered'));
  });

  it('a delivery replayed in the last hour is not queued again: the answer counts it in skipped', async () => {
    receiver.script(
      '/skipped',
      Array.from({ length: 3 }, () => ({ status: 410 })),
    );
    const hook = await target('/skipped');
    await events(hook, 2);
    const failed = await settled(hook);
    expect(failed.map((d) => d.status)).toEqual(['failed', 'failed', 'failed']);
    // The replayed ones fail again (refused): they match the next replay, which skips them.
    receiver.script(
      '/skipped',
      Array.from({ length: 2 }, () => ({ status: 410 })),
    );
    const window = { status: 'failed', since: failed[1].created_at };
    expect((await replay(hook, window).expect(202)).body as unknown).toEqual(
      successBody({ queued: 2, remaining: 0, skipped: 0 }),
    );
    await receiver.waitFor('/skipped', 5);
    expect((await settled(hook)).map((d) => [d.status, d.attempts])).toEqual([
      ['failed', 1],
      ['failed', 2],
      ['failed', 2],
    ]);
    expect((await replay(hook, { status: 'failed' }).expect(202)).body as unknown).toEqual(
      successBody({ queued: 1, remaining: 0, skipped: 2 }),
    );
    await receiver.waitFor('/skipped', 6);
    expect((await settled(hook)).map((d) => [d.status, d.attempts])).toEqual([
      ['delivered', 2],
      ['failed', 2],
      ['failed', 2],
    ]);
    // All three were replayed within the hour: nothing is queued, nothing is sent.
    expect((await replay(hook, { status: 'failed' }).expect(202)).body as unknown).toEqual(
      successBody({ queued: 0, remaining: 0, skipped: 2 }),
    );
    expect((await replay(hook, { status: 'delivered' }).expect(202)).body as unknown).toEqual(
      successBody({ queued: 0, remaining: 0, skipped: 1 }),
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(receiver.to('/skipped')).toHaveLength(6);
    // An hour later they may be replayed again.
    await replayedAgo(hook, 61 * 60_000);
    expect((await replay(hook, { status: 'failed' }).expect(202)).body as unknown).toEqual(
      successBody({ queued: 2, remaining: 0, skipped: 0 }),
    );
    await receiver.waitFor('/skipped', 8);
    expect(names('/skipped')).toEqual(['n0', 'n1', 'n2', 'n1', 'n2', 'n0', 'n1', 'n2']);
  });

  it('while a replay of the target has deliveries pending, another replay is a 409 Replay in progress: <n> deliveries pending', async () => {
    receiver.script('/busy', [
      ...Array.from({ length: 3 }, () => ({ status: 410 })),
      { status: 200, delayMs: 1500 },
    ]);
    const hook = await target('/busy');
    await events(hook, 2);
    await settled(hook);
    expect((await replay(hook, { status: 'failed' }).expect(202)).body as unknown).toEqual(
      successBody({ queued: 3, remaining: 0, skipped: 0 }),
    );
    // The first is in flight for 1.5 s: all three are pending.
    for (const body of [{ status: 'failed' }, { status: 'delivered', event: 'relayer_deleted' }]) {
      expectError(await replay(hook, body), 409, 'Replay in progress: 3 deliveries pending');
    }
    await receiver.waitFor('/busy', 6);
    expect((await settled(hook)).map((d) => d.status)).toEqual(['delivered', 'delivered', 'delivered']);
    // Sent: replays are taken again (these three were replayed within the hour).
    expect((await replay(hook, { status: 'delivered' }).expect(202)).body as unknown).toEqual(
      successBody({ queued: 0, remaining: 0, skipped: 3 }),
    );
  });

  it('400 names the field (validation, before anything is queued); 404 for an unknown target', async () => {
    receiver.script('/checked', [{ status: 400 }]);
    const hook = await target('/checked');
    await events(hook, 0);
    await settled(hook);
    const cases: Array<[unknown, string]> = [
      [{}, 'status must be one of: failed, delivered'],
      [{ status: 'pending' }, 'status must be one of: failed, delivered'],
      [{ status: 'failed', since: 'yesterday' }, 'since must be an RFC 3339 date and time'],
      [{ status: 'failed', since: '2030-01-01' }, 'since must be an RFC 3339 date and time'],
      [{ status: 'failed', until: '2030-02-30T00:00:00Z' }, 'until must be an RFC 3339 date and time'],
      [
        { status: 'failed', since: '2030-01-02T00:00:00Z', until: '2030-01-01T00:00:00Z' },
        'until must be later than since',
      ],
      [{ status: 'failed', event: 'relayer_exploded' }, `event must be one of: ${ALL_EVENTS}`],
      [{ status: 'failed', limit: 5 }, 'limit is not an allowed field'],
    ];
    for (const [body, message] of cases) expectError(await replay(hook, body), 400, message);
    expect((await settled(hook)).map((d) => d.status)).toEqual(['failed']);
    expectError(await replay(uid('none'), { status: 'failed' }), 404, 'Notification not found');
  });

  it('as the retry of one delivery, a replay re-sends relayer data: it needs relayers:read besides notifications:write', async () => {
    receiver.script('/perm', [{ status: 400 }]);
    const hook = await target('/perm');
    await events(hook, 0);
    await settled(hook);
    const keyWith = async (permissions: string[]) =>
      (await createKey(app(), { name: 'replayer', permissions })).key;
    const replayWith = (key: string) =>
      app()
        .raw()
        .post(`/api/v1/notifications/${hook}/deliveries/replay`)
        .set('Authorization', `Bearer ${key}`)
        .send({ status: 'failed' });
    expectError(await replayWith(await keyWith(['notifications:write'])), 403, 'Forbidden');
    expectError(await replayWith(await keyWith(['relayers:read'])), 403, 'Forbidden');
    expect((await settled(hook)).map((d) => d.status)).toEqual(['failed']);
    const both = await replayWith(await keyWith(['notifications:write', 'relayers:read']));
    expect({ status: both.status, body: both.body as unknown }).toEqual({
      status: 202,
      body: successBody({ queued: 1, remaining: 0, skipped: 0 }),
    });
    await receiver.waitFor('/perm', 2);
  });
});

describe('a replay queues at most 10,000 deliveries, the oldest, and the next waits until they are sent (docs/reference/webhooks.md#7-replay)', () => {
  const SEEDED = 10_003;
  // The first attempt hangs for the whole test: the target's run holds the rest back, pending.
  const { receiver, handle, app } = useWebhookApp({ WEBHOOK_TIMEOUT_MS: '60000' });

  const at = (ms: number) => new Date(ms).toISOString().replace('T', ' ').replace('Z', '');

  it('10,003 failed, 10,002 in the window: the first call queues the 10,000 oldest of those and leaves 2; the next is a 409 while they are pending', async () => {
    receiver.script('/bulk', [{ never: true }]);
    const hook = uid('hook');
    await app()
      .post('/api/v1/notifications', { id: hook, url: receiver.url('/bulk') })
      .expect(201);
    // More failed deliveries than the API makes in a test's time, written directly, 1 ms apart.
    const start = Date.now() - 3_600_000;
    const ids = Array.from({ length: SEEDED }, () => randomUUID());
    const eventIds = Array.from({ length: SEEDED }, () => randomUUID());
    for (let from = 0; from < SEEDED; from += 1000) {
      const rows = ids.slice(from, from + 1000).map((id, k) => {
        const i = from + k;
        const eventId = eventIds[i];
        const body = JSON.stringify({
          id: eventId,
          event: 'relayer_updated',
          payload: {
            payload_type: 'relayer_updated',
            relayer: { id: 'r-bulk', name: `n${i}` },
            changed: ['name'],
          },
          timestamp: new Date(start + i).toISOString(),
        });
        return [
          `('${eventId}', '${body}', '${at(start + i)}')`,
          `('${id}', '${hook}', '${eventId}', 'relayer_updated', 'r-bulk', 'failed', 1, 410, 'HTTP 410', '${at(start + i)}', NULL, NULL, '${at(start + i)}', NULL, '${at(start + i)}')`,
        ];
      });
      await handle.database.exec(
        `INSERT INTO webhook_events (id, body, created_at) VALUES ${rows.map(([event]) => event).join(', ')}`,
      );
      await handle.database.exec(
        `INSERT INTO webhook_deliveries (id, notification_id, event_id, event, relayer_id, status, attempts,
           last_status_code, last_error, next_attempt_at, lease_owner, lease_until, created_at, delivered_at, ended_at)
         VALUES ${rows.map(([, delivery]) => delivery).join(', ')}`,
      );
    }
    // The window leaves the oldest out: 10,002 match.
    const since = new Date(start + 1).toISOString();
    expect(
      (
        await app()
          .post(`/api/v1/notifications/${hook}/deliveries/replay`, { status: 'failed', since })
          .expect(202)
      ).body as unknown,
    ).toEqual(successBody({ queued: 10_000, remaining: 2, skipped: 0 }));
    const left = (await app().get(`/api/v1/notifications/${hook}/deliveries?status=failed`).expect(200))
      .body as { data: Delivery[]; pagination: { total_items: number } };
    expect({ ids: left.data.map((d) => d.id), total: left.pagination.total_items }).toEqual({
      ids: [ids[10_002], ids[10_001], ids[0]],
      total: 3,
    });
    const pending = (
      await app().get(`/api/v1/notifications/${hook}/deliveries?status=pending&per_page=1`).expect(200)
    ).body as { pagination: { total_items: number } };
    expect(pending.pagination.total_items).toBe(10_000);
    // The oldest queued is the one being sent.
    const [first] = await receiver.waitFor('/bulk', 1);
    expect([first.headers['x-event-id'], first.json.id]).toEqual([eventIds[1], eventIds[1]]);
    expect(String((first.json.payload.relayer as { name: string }).name)).toBe('n1');

    // The 10,000 are still pending (the first one hangs): no other replay until they are sent.
    expectError(
      await app().post(`/api/v1/notifications/${hook}/deliveries/replay`, { status: 'failed' }),
      409,
      'Replay in progress: 10000 deliveries pending',
    );
  }, 60_000);
});
