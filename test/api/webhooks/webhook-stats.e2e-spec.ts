import { randomUUID } from 'node:crypto';
import { expectError, successBody } from '../../support/envelope';
import { useWebhookApp } from '../../support/webhook-app';
import { createKey, ISO, relayerBody, uid } from '../../factories';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** A datetime as the service stores it (UTC, milliseconds), for rows written directly. */
const stored = (at: Date) => at.toISOString().replace('T', ' ').replace('Z', '');

interface Row {
  status: 'pending' | 'delivered' | 'failed';
  endedAgoMs?: number;
  createdAgoMs?: number;
  attempts: number;
  latencyMs: number | null;
  lastError?: string;
}

describe('delivery stats: a target delivery log summed up over 1h, 24h or 7d', () => {
  const { receiver, handle, app, target, settled } = useWebhookApp({
    WEBHOOK_RETRY_BASE_MS: '40',
    WEBHOOK_TIMEOUT_MS: '30000',
    WEBHOOK_MAX_ATTEMPTS: '3',
  });

  const stats = async (id: string, query = '') => {
    const res = await app().get(`/api/v1/notifications/${id}/stats${query}`);
    expect({ status: res.status, success: (res.body as { success: unknown }).success }).toEqual({
      status: 200,
      success: true,
    });
    return (res.body as { data: Record<string, unknown> }).data;
  };
  /** Deliveries written straight into the log (each with its event's body), ended (or created) that long before `now`. */
  const insert = async (notificationId: string, now: number, rows: Row[]) => {
    const text = (v: string | null) => (v === null ? 'NULL' : `'${v}'`);
    const events: string[] = [];
    const values = rows.map((row) => {
      const created = new Date(now - (row.createdAgoMs ?? row.endedAgoMs ?? 0) - 1000);
      const ended = row.endedAgoMs === undefined ? null : new Date(now - row.endedAgoMs);
      const eventId = randomUUID();
      events.push(`(${[text(eventId), text('{}'), text(stored(created))].join(', ')})`);
      return `(${[
        text(randomUUID()),
        text(notificationId),
        text(eventId),
        text('notification_test'),
        'NULL',
        text(row.status),
        String(row.attempts),
        row.status === 'delivered' ? '200' : 'NULL',
        text(row.lastError ?? null),
        // Pending ones are due far in the future: the dispatcher leaves them alone.
        text(stored(row.status === 'pending' ? new Date('2999-01-01T00:00:00.000Z') : created)),
        text(stored(created)),
        text(row.status === 'delivered' && ended ? stored(ended) : null),
        text(ended && stored(ended)),
        row.latencyMs === null ? 'NULL' : String(row.latencyMs),
        // As the service writes a failure: when, and its error, kept through a replay.
        text(row.status === 'failed' && ended ? stored(ended) : null),
        text(row.status === 'failed' ? (row.lastError ?? null) : null),
      ].join(', ')})`;
    });
    await handle.database.exec(
      `INSERT INTO webhook_events (id, body, created_at) VALUES ${events.join(', ')}`,
    );
    await handle.database.exec(
      `INSERT INTO webhook_deliveries (id, notification_id, event_id, event, relayer_id, status, attempts,
         last_status_code, last_error, next_attempt_at, created_at, delivered_at, ended_at, latency_ms,
         failed_at, failed_error)
       VALUES ${values.join(', ')}`,
    );
  };

  it('a target without deliveries: zero counts, no rate, no latency, no last times', async () => {
    const hook = await target('/empty');
    expect(await stats(hook)).toEqual({
      window: '24h',
      delivered: 0,
      failed: 0,
      pending: 0,
      retried: 0,
      success_rate: null,
      latency_ms: { p50: null, p95: null, max: null },
      last_delivered_at: null,
      last_failed_at: null,
      last_error: null,
    });
  });

  it('deliveries sent by the dispatcher and by POST .../test: counts, retried, rate, latency of the last attempt, last times', async () => {
    const hook = await target('/live');
    // 1: delivered on its second attempt, answered after 500 ms.
    receiver.script('/live', [{ status: 503 }, { status: 200, delayMs: 500 }]);
    const relayer = relayerBody('evm', { name: 'counted', notification_id: hook });
    await app().post('/api/v1/relayers', relayer).expect(201);
    await settled(hook, 1);
    // 2 and 3: test events answered at once and after 100 ms; 4: refused at once.
    receiver.script('/live', [{ status: 200 }, { status: 200, delayMs: 100 }, { status: 400 }]);
    const tests = [];
    for (let i = 0; i < 3; i++) {
      tests.push(
        (await app().post(`/api/v1/notifications/${hook}/test`).expect(200)).body.data as {
          delivered: boolean;
          duration_ms: number;
        },
      );
    }
    expect(tests.map((t) => t.delivered)).toEqual([true, true, false]);
    // 5: failed after WEBHOOK_MAX_ATTEMPTS.
    receiver.script('/live', [{ status: 500 }, { status: 500 }, { status: 500 }]);
    const beforeLastFailure = Date.now();
    await app().patch(`/api/v1/relayers/${relayer.id}`, { name: 'renamed' }).expect(200);
    const items = await settled(hook, 5);
    const afterLastFailure = Date.now();
    expect(items.map((d) => [d.event, d.status, d.attempts, d.last_error])).toEqual([
      ['relayer_updated', 'failed', 3, 'HTTP 500'],
      ['notification_test', 'failed', 1, 'HTTP 400'],
      ['notification_test', 'delivered', 1, null],
      ['notification_test', 'delivered', 1, null],
      ['relayer_created', 'delivered', 2, null],
    ]);

    const got = await stats(hook, '?window=1h');
    expect(got).toEqual({
      window: '1h',
      delivered: 3,
      failed: 2,
      pending: 0,
      retried: 2,
      success_rate: 0.6,
      latency_ms: { p50: expect.any(Number), p95: expect.any(Number), max: expect.any(Number) },
      last_delivered_at: items[2].delivered_at,
      last_failed_at: ISO,
      last_error: 'HTTP 500',
    });
    // The delivered ones' last attempts: the two test events as their answers said, the relayer's second
    // attempt (after 500 ms) the slowest; p50 is the second of three, p95 the third.
    const latency = got.latency_ms as { p50: number; p95: number; max: number };
    const [fast, slower] = [tests[0].duration_ms, tests[1].duration_ms];
    expect(slower).toBeGreaterThanOrEqual(100);
    expect(latency.max).toBeGreaterThanOrEqual(500);
    expect(latency).toEqual({ p50: Math.max(fast, slower), p95: latency.max, max: latency.max });
    expect(latency.p50).toBeLessThanOrEqual(latency.p95);
    const lastFailedAt = Date.parse(got.last_failed_at as string);
    expect(lastFailedAt).toBeGreaterThanOrEqual(beforeLastFailure);
    expect(lastFailedAt).toBeLessThanOrEqual(afterLastFailure);
    expect(lastFailedAt).toBeGreaterThan(Date.parse(items[2].delivered_at as string));
  });

  it('the window takes the deliveries that ended within it; pending counts the whole backlog, last_* the whole log', async () => {
    const hook = await target('/window');
    const now = Date.now();
    await insert(hook, now, [
      { status: 'delivered', endedAgoMs: 10 * MINUTE, attempts: 1, latencyMs: 10 },
      { status: 'delivered', endedAgoMs: 20 * MINUTE, attempts: 2, latencyMs: 40 },
      { status: 'delivered', endedAgoMs: 30 * MINUTE, attempts: 1, latencyMs: 20 },
      // A failed delivery's latency is not counted: latency is of the delivered ones.
      { status: 'failed', endedAgoMs: 40 * MINUTE, attempts: 3, latencyMs: 2000, lastError: 'HTTP 503' },
      { status: 'delivered', endedAgoMs: 5 * HOUR, attempts: 1, latencyMs: 300 },
      { status: 'failed', endedAgoMs: 6 * HOUR, attempts: 1, latencyMs: 5, lastError: 'HTTP 404' },
      { status: 'delivered', endedAgoMs: 3 * DAY, attempts: 4, latencyMs: 900 },
      // Sent before latencies were recorded: counted, not timed.
      { status: 'delivered', endedAgoMs: 3 * DAY, attempts: 1, latencyMs: null },
      ...Array.from({ length: 16 }, (_, i) => ({
        status: 'delivered' as const,
        endedAgoMs: 2 * DAY + i * MINUTE,
        attempts: 1,
        latencyMs: 101 + i,
      })),
      { status: 'failed', endedAgoMs: 8 * DAY, attempts: 1, latencyMs: 7, lastError: 'HTTP 410' },
      // The backlog: one waiting for its next attempt, one created 9 days ago and never sent.
      { status: 'pending', createdAgoMs: 1000, attempts: 1, latencyMs: 30, lastError: 'HTTP 502' },
      { status: 'pending', createdAgoMs: 9 * DAY, attempts: 0, latencyMs: null },
    ]);
    const last = {
      pending: 2,
      last_delivered_at: new Date(now - 10 * MINUTE).toISOString(),
      last_failed_at: new Date(now - 40 * MINUTE).toISOString(),
      last_error: 'HTTP 503',
    };
    expect(await stats(hook, '?window=1h')).toEqual({
      window: '1h',
      delivered: 3,
      failed: 1,
      retried: 2,
      success_rate: 0.75,
      latency_ms: { p50: 20, p95: 40, max: 40 },
      ...last,
    });
    const day = {
      window: '24h',
      delivered: 4,
      failed: 2,
      retried: 2,
      success_rate: 0.6667,
      latency_ms: { p50: 20, p95: 300, max: 300 },
      ...last,
    };
    expect(await stats(hook, '?window=24h')).toEqual(day);
    expect(await stats(hook)).toEqual(day);
    // 21 timed: 10, 20, 40, 101..116, 300, 900; p50 is the 11th (108), p95 the 20th (300).
    expect(await stats(hook, '?window=7d')).toEqual({
      window: '7d',
      delivered: 22,
      failed: 2,
      retried: 3,
      success_rate: 0.9167,
      latency_ms: { p50: 108, p95: 300, max: 900 },
      ...last,
    });
  });

  it('a key limited to some relayers reads only the window: its counts and its last_* are those of the deliveries about its relayers that ended within it', async () => {
    const hook = uid('team-a-hook');
    await app()
      .post('/api/v1/notifications', { id: hook, url: receiver.url('/scoped') })
      .expect(201);
    const [mine, theirs] = [uid('team-a'), uid('team-b')];
    // Mine: created (delivered), renamed (refused, failed). Theirs: created (delivered).
    receiver.script('/scoped', [{ status: 200 }, { status: 410 }, { status: 200 }]);
    await app()
      .post('/api/v1/relayers', relayerBody('evm', { id: mine, name: 'mine', notification_id: hook }))
      .expect(201);
    await app().patch(`/api/v1/relayers/${mine}`, { name: 'mine, renamed' }).expect(200);
    await settled(hook, 2);
    await app()
      .post('/api/v1/relayers', relayerBody('evm', { id: theirs, name: 'theirs', notification_id: hook }))
      .expect(201);
    const items = await settled(hook, 3);
    // Mine ended three hours ago: outside 1h, inside 24h.
    const ended = new Date(Date.now() - 3 * HOUR);
    await handle.database.exec(
      `UPDATE webhook_deliveries SET ended_at = '${stored(ended)}',
         delivered_at = CASE WHEN status = 'delivered' THEN '${stored(ended)}' ELSE NULL END,
         failed_at = CASE WHEN status = 'failed' THEN '${stored(ended)}' ELSE NULL END
       WHERE notification_id = '${hook}' AND relayer_id = '${mine}'`,
    );
    const { key } = await createKey(app(), {
      name: 'team a',
      permissions: ['notifications:read'],
      relayer_ids: ['team-a-*'],
    });
    const statsAs = async (window: string, bearer: string) => {
      const got = await app()
        .raw()
        .get(`/api/v1/notifications/${hook}/stats?window=${window}`)
        .set('Authorization', `Bearer ${bearer}`);
      return { status: got.status, body: got.body as unknown };
    };
    const none = { p50: null, p95: null, max: null };
    // Nothing of mine ended within the hour: no row outside it is read, not even for last_*.
    expect(await statsAs('1h', key)).toEqual({
      status: 200,
      body: successBody({
        window: '1h',
        delivered: 0,
        failed: 0,
        pending: 0,
        retried: 0,
        success_rate: null,
        latency_ms: none,
        last_delivered_at: null,
        last_failed_at: null,
        last_error: null,
      }),
    });
    expect(await statsAs('24h', key)).toEqual({
      status: 200,
      body: successBody({
        window: '24h',
        delivered: 1,
        failed: 1,
        pending: 0,
        retried: 0,
        success_rate: 0.5,
        latency_ms: { p50: expect.any(Number), p95: expect.any(Number), max: expect.any(Number) },
        last_delivered_at: ended.toISOString(),
        last_failed_at: ended.toISOString(),
        last_error: 'HTTP 410',
      }),
    });
    // The administrator's last_* still come from the whole log.
    const theirsDelivered = items.find((d) => d.relayer_id === theirs)?.delivered_at;
    expect(await statsAs('1h', app().apiKey)).toEqual({
      status: 200,
      body: successBody({
        window: '1h',
        delivered: 1,
        failed: 0,
        pending: 0,
        retried: 0,
        success_rate: 1,
        latency_ms: { p50: expect.any(Number), p95: expect.any(Number), max: expect.any(Number) },
        last_delivered_at: theirsDelivered,
        last_failed_at: ended.toISOString(),
        last_error: 'HTTP 410',
      }),
    });
  });

  it('a replay or a retry does not forget the failures: last_failed_at and last_error stay those of the last failure while the deliveries are pending again, and once they are delivered', async () => {
    const none = { p50: null, p95: null, max: null };
    // Two events refused for good (410 is not retried), about a relayer created then renamed.
    const hook = await target('/forgotten');
    receiver.script('/forgotten', [{ status: 410 }, { status: 410 }]);
    const relayer = relayerBody('evm', { name: 'refused', notification_id: hook });
    await app().post('/api/v1/relayers', relayer).expect(201);
    await app().patch(`/api/v1/relayers/${relayer.id}`, { name: 'refused again' }).expect(200);
    await settled(hook, 2);
    const failedOnce = await stats(hook);
    const lastFailure = { last_failed_at: failedOnce.last_failed_at, last_error: 'HTTP 410' };
    expect(failedOnce).toEqual({
      window: '24h',
      delivered: 0,
      failed: 2,
      pending: 0,
      retried: 0,
      success_rate: 0,
      latency_ms: none,
      last_delivered_at: null,
      last_failed_at: ISO,
      last_error: 'HTTP 410',
    });

    // Paused, so that the replayed deliveries stay pending while the stats are read.
    await app().post(`/api/v1/notifications/${hook}/pause`).expect(200);
    expect(
      (await app().post(`/api/v1/notifications/${hook}/deliveries/replay`, { status: 'failed' }).expect(202))
        .body as unknown,
    ).toEqual(successBody({ queued: 2, remaining: 0, skipped: 0 }));
    expect(await stats(hook)).toEqual({
      window: '24h',
      delivered: 0,
      failed: 0,
      pending: 2,
      retried: 0,
      success_rate: null,
      latency_ms: none,
      last_delivered_at: null,
      ...lastFailure,
    });

    // Resumed: both are delivered (the receiver answers 200 now); the failure is still the last one.
    await app().post(`/api/v1/notifications/${hook}/resume`).expect(200);
    const delivered = await settled(hook, 2);
    expect(delivered.map((d) => [d.status, d.attempts, d.last_error])).toEqual([
      ['delivered', 2, null],
      ['delivered', 2, null],
    ]);
    expect(await stats(hook)).toEqual({
      window: '24h',
      delivered: 2,
      failed: 0,
      pending: 0,
      retried: 2,
      success_rate: 1,
      latency_ms: { p50: expect.any(Number), p95: expect.any(Number), max: expect.any(Number) },
      last_delivered_at: delivered[0].delivered_at,
      ...lastFailure,
    });

    // The retry of one delivery, likewise.
    const other = await target('/forgotten-retry');
    receiver.script('/forgotten-retry', [{ status: 404 }]);
    await app()
      .post('/api/v1/relayers', relayerBody('evm', { name: 'refused once', notification_id: other }))
      .expect(201);
    const [failed] = await settled(other, 1);
    const before = await stats(other);
    await app().post(`/api/v1/notifications/${other}/pause`).expect(200);
    await app().post(`/api/v1/notifications/${other}/deliveries/${failed.id}/retry`).expect(202);
    expect(await stats(other)).toEqual({
      window: '24h',
      delivered: 0,
      failed: 0,
      pending: 1,
      retried: 0,
      success_rate: null,
      latency_ms: none,
      last_delivered_at: null,
      last_failed_at: before.last_failed_at,
      last_error: 'HTTP 404',
    });
    expect(before.last_failed_at).toEqual(ISO);
  });

  it('window must be 1h, 24h or 7d; unknown query keys are refused as on the lists; unknown target: 404', async () => {
    const hook = await target('/refused');
    const get = (path: string) => app().get(path);
    for (const window of ['2d', '24H', '', '1h,24h']) {
      expectError(
        await get(`/api/v1/notifications/${hook}/stats?window=${encodeURIComponent(window)}`),
        400,
        'window must be one of: 1h, 24h, 7d',
      );
    }
    expectError(
      await get(`/api/v1/notifications/${hook}/stats?window=1h&window=7d`),
      400,
      'window must be one of: 1h, 24h, 7d',
    );
    expectError(
      await get(`/api/v1/notifications/${hook}/stats?window=1h&status=failed`),
      400,
      'status is not an allowed field',
    );
    expectError(await get(`/api/v1/notifications/${uid('missing')}/stats`), 404, 'Notification not found');
    expectError(
      await get(`/api/v1/notifications/${uid('missing')}/stats?window=7d`),
      404,
      'Notification not found',
    );
  });

  it('notifications:read is needed, and enough', async () => {
    const hook = await target('/keys');
    const keyWith = async (permissions: string[]) =>
      (await createKey(app(), { name: 'stats', permissions })).key;
    const statsAs = async (key: string) =>
      app().raw().get(`/api/v1/notifications/${hook}/stats?window=7d`).set('Authorization', `Bearer ${key}`);
    expectError(await statsAs(await keyWith(['relayers:read', 'notifications:write'])), 403, 'Forbidden');
    expectError(await app().get(`/api/v1/notifications/${hook}/stats`, false), 401, 'Unauthorized');
    const allowed = await statsAs(await keyWith(['notifications:read']));
    expect({ status: allowed.status, body: allowed.body as unknown }).toEqual({
      status: 200,
      body: successBody({
        window: '7d',
        delivered: 0,
        failed: 0,
        pending: 0,
        retried: 0,
        success_rate: null,
        latency_ms: { p50: null, p95: null, max: null },
        last_delivered_at: null,
        last_failed_at: null,
        last_error: null,
      }),
    });
  });
});
