import { randomUUID } from 'node:crypto';
import { realClock, stopClockAt } from '../../support/clock';
import { expectError, successBody } from '../../support/envelope';
import { useWebhookApp } from '../../support/webhook-app';
import { createKey, relayerBody, uid } from '../../factories';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** A datetime as the service stores it (UTC, milliseconds), for rows written directly. */
const stored = (at: number) => new Date(at).toISOString().replace('T', ' ').replace('Z', '');

interface Row {
  readonly status: 'pending' | 'delivered' | 'failed';
  /** When it ended delivered or failed (epoch ms). */
  readonly endedAt?: number;
  /** When it last ended failed, if ever, kept through a replay (epoch ms). */
  readonly failedAt?: number;
  readonly latencyMs?: number | null;
  readonly relayerId?: string;
}

interface Bucket {
  start: string;
  delivered: number;
  failed: number;
  p95_ms: number | null;
}

describe('the hourly series of a target (docs/reference/webhooks.md#95-the-hourly-series)', () => {
  const { receiver, handle, app, target, settled } = useWebhookApp({
    WEBHOOK_RETRY_BASE_MS: '40',
    WEBHOOK_TIMEOUT_MS: '30000',
  });
  afterEach(realClock);

  /** The start of the current hour (real clock), and a moment half an hour into it. */
  const thisHour = Math.floor(Date.now() / HOUR) * HOUR;
  const now = thisHour + 30 * MINUTE + 123;
  /** `hours` hours before the current hour's start, plus `minutes`. */
  const at = (hours: number, minutes = 0) => thisHour - hours * HOUR + minutes * MINUTE;

  /** Deliveries written straight into the log, each with its event's body. */
  const insert = async (notificationId: string, rows: Row[]) => {
    const text = (v: string | null | undefined) => (v === null || v === undefined ? 'NULL' : `'${v}'`);
    const events: string[] = [];
    const values = rows.map((row) => {
      const created = (row.failedAt ?? row.endedAt ?? now) - 1000;
      const eventId = randomUUID();
      events.push(`(${[text(eventId), text('{}'), text(stored(created))].join(', ')})`);
      return `(${[
        text(randomUUID()),
        text(notificationId),
        text(eventId),
        text('relayer_updated'),
        text(row.relayerId),
        text(row.status),
        row.failedAt === undefined ? '1' : '2',
        text(row.failedAt === undefined ? null : 'HTTP 503'),
        // Pending ones are due far in the future: the dispatcher leaves them alone.
        text(stored(row.status === 'pending' ? Date.parse('2999-01-01T00:00:00.000Z') : created)),
        text(stored(created)),
        text(row.status === 'delivered' && row.endedAt !== undefined ? stored(row.endedAt) : null),
        text(row.endedAt === undefined ? null : stored(row.endedAt)),
        row.latencyMs === undefined || row.latencyMs === null ? 'NULL' : String(row.latencyMs),
        text(row.failedAt === undefined ? null : stored(row.failedAt)),
        text(row.failedAt === undefined ? null : 'HTTP 503'),
      ].join(', ')})`;
    });
    await handle.database.exec(
      `INSERT INTO webhook_events (id, body, created_at) VALUES ${events.join(', ')}`,
    );
    await handle.database.exec(
      `INSERT INTO webhook_deliveries (id, notification_id, event_id, event, relayer_id, status, attempts,
         last_error, next_attempt_at, created_at, delivered_at, ended_at, latency_ms, failed_at, failed_error)
       VALUES ${values.join(', ')}`,
    );
  };
  /** Every hour of a window of `hours`, oldest first, with the counts `counted` gives by hours before the current one. */
  const buckets = (hours: number, counted: Record<number, Omit<Bucket, 'start'>>): Bucket[] =>
    Array.from({ length: hours }, (_, i) => {
      const before = hours - 1 - i;
      return {
        start: new Date(at(before)).toISOString(),
        ...(counted[before] ?? { delivered: 0, failed: 0, p95_ms: null }),
      };
    });
  const series = async (id: string, query = '', key = app().apiKey) => {
    const res = await app()
      .raw()
      .get(`/api/v1/notifications/${id}/stats/series${query}`)
      .set('Authorization', `Bearer ${key}`);
    return { status: res.status, body: res.body as unknown };
  };

  it('24h and 7d: every hour present, oldest first; delivered by the hour they ended, failed by the hour they last failed, p95 of the hour by nearest rank', async () => {
    const hook = await target('/series');
    const other = await target('/series-other');
    const delivered = (endedAt: number, latencyMs: number | null = null): Row => ({
      status: 'delivered',
      endedAt,
      latencyMs,
    });
    await insert(hook, [
      // The current hour so far: 10, 20, 30 ms; p95 is the third of three.
      delivered(at(0, 1), 10),
      delivered(at(0, 2), 30),
      delivered(at(0, 3), 20),
      // An hour ago: 21 timed (1..21 ms; p95 is the 20th) and 2 sent before durations were kept; 2 failed.
      ...Array.from({ length: 21 }, (_, i) => delivered(at(1, i), i + 1)),
      delivered(at(1, 30)),
      delivered(at(1, 31)),
      { status: 'failed', endedAt: at(1, 40), failedAt: at(1, 40), latencyMs: 5000 },
      { status: 'failed', endedAt: at(1, 50), failedAt: at(1, 50), latencyMs: 1 },
      // Failed five hours ago, replayed, delivered two hours ago: counted in both hours.
      { status: 'delivered', endedAt: at(2, 10), failedAt: at(5, 10), latencyMs: 40 },
      // Failed at the start of the hour three hours ago, replayed, pending now.
      { status: 'pending', failedAt: at(3) },
      // Only a delivery without a duration: counted, no p95.
      delivered(at(6, 59)),
      // The first hour of 24h starts at its first millisecond; the one before is out.
      delivered(at(23), 7),
      delivered(at(23) - 1, 8),
      { status: 'failed', endedAt: at(24, 30), failedAt: at(24, 30) },
      // Within 7d only.
      delivered(at(100), 5),
      delivered(at(167, 59), 9),
      { status: 'failed', endedAt: at(167), failedAt: at(167) },
      delivered(at(167) - 1, 3),
      // Never attempted.
      { status: 'pending' },
    ]);
    // Another target's deliveries are not this one's.
    await insert(other, [delivered(at(0, 5), 999), { status: 'failed', endedAt: at(1), failedAt: at(1) }]);

    const day = {
      0: { delivered: 3, failed: 0, p95_ms: 30 },
      1: { delivered: 23, failed: 2, p95_ms: 20 },
      2: { delivered: 1, failed: 0, p95_ms: 40 },
      3: { delivered: 0, failed: 1, p95_ms: null },
      5: { delivered: 0, failed: 1, p95_ms: null },
      6: { delivered: 1, failed: 0, p95_ms: null },
      23: { delivered: 1, failed: 0, p95_ms: 7 },
    };
    stopClockAt(now);
    expect(await series(hook, '?window=24h')).toEqual({
      status: 200,
      body: successBody({ window: '24h', buckets: buckets(24, day) }),
    });
    expect(await series(hook)).toEqual({
      status: 200,
      body: successBody({ window: '24h', buckets: buckets(24, day) }),
    });
    const week = {
      ...day,
      24: { delivered: 1, failed: 1, p95_ms: 8 },
      100: { delivered: 1, failed: 0, p95_ms: 5 },
      167: { delivered: 1, failed: 1, p95_ms: 9 },
    };
    const answer = await series(hook, '?window=7d');
    expect(answer).toEqual({ status: 200, body: successBody({ window: '7d', buckets: buckets(168, week) }) });
    expect((answer.body as { data: { buckets: Bucket[] } }).data.buckets).toHaveLength(168);
  });

  it('a delivery the dispatcher fails and a replay then delivers: failed in the hour of its failure, delivered in the hour of its delivery', async () => {
    const hook = await target('/lived');
    receiver.script('/lived', [{ status: 410 }]);
    const failedAt = at(2, 10) + 456;
    stopClockAt(failedAt);
    await app()
      .post('/api/v1/relayers', relayerBody('evm', { name: 'lived', notification_id: hook }))
      .expect(201);
    expect((await settled(hook, 1)).map((d) => [d.status, d.last_error])).toEqual([['failed', 'HTTP 410']]);
    jest.setSystemTime(now);
    await app().post(`/api/v1/notifications/${hook}/deliveries/replay`, { status: 'failed' }).expect(202);
    expect((await settled(hook, 1)).map((d) => [d.status, d.delivered_at])).toEqual([
      ['delivered', new Date(now).toISOString()],
    ]);
    expect(await series(hook)).toEqual({
      status: 200,
      body: successBody({
        window: '24h',
        buckets: buckets(24, {
          0: { delivered: 1, failed: 0, p95_ms: expect.any(Number) },
          2: { delivered: 0, failed: 1, p95_ms: null },
        }),
      }),
    });
    const stats = await app().get(`/api/v1/notifications/${hook}/stats`).expect(200);
    expect(stats.body).toEqual(
      successBody({
        window: '24h',
        delivered: 1,
        failed: 0,
        pending: 0,
        retried: 1,
        success_rate: 1,
        latency_ms: { p50: expect.any(Number), p95: expect.any(Number), max: expect.any(Number) },
        last_delivered_at: new Date(now).toISOString(),
        last_failed_at: new Date(failedAt).toISOString(),
        last_error: 'HTTP 410',
      }),
    );
  });

  it('a key limited to some relayers: the hours count only the deliveries about its relayers', async () => {
    const hook = uid('team-a-hook');
    await app()
      .post('/api/v1/notifications', { id: hook, url: receiver.url('/scoped-series') })
      .expect(201);
    await insert(hook, [
      { status: 'delivered', endedAt: at(0, 1), latencyMs: 11, relayerId: 'team-a-1' },
      { status: 'delivered', endedAt: at(0, 2), latencyMs: 900, relayerId: 'team-b-1' },
      { status: 'failed', endedAt: at(3, 2), failedAt: at(3, 2), relayerId: 'team-a-2' },
      { status: 'failed', endedAt: at(3, 3), failedAt: at(3, 3), relayerId: 'team-b-1' },
      // A test event is about no relayer.
      { status: 'failed', endedAt: at(4, 3), failedAt: at(4, 3) },
    ]);
    const { key } = await createKey(app(), {
      name: 'team a',
      permissions: ['notifications:read'],
      relayer_ids: ['team-a-*'],
    });
    stopClockAt(now);
    expect(await series(hook, '', key)).toEqual({
      status: 200,
      body: successBody({
        window: '24h',
        buckets: buckets(24, {
          0: { delivered: 1, failed: 0, p95_ms: 11 },
          3: { delivered: 0, failed: 1, p95_ms: null },
        }),
      }),
    });
    expect(await series(hook)).toEqual({
      status: 200,
      body: successBody({
        window: '24h',
        buckets: buckets(24, {
          0: { delivered: 2, failed: 0, p95_ms: 900 },
          3: { delivered: 0, failed: 2, p95_ms: null },
          4: { delivered: 0, failed: 1, p95_ms: null },
        }),
      }),
    });
    // A target outside its scope is missing to it.
    const theirs = await target('/theirs');
    expectError(
      await app()
        .raw()
        .get(`/api/v1/notifications/${theirs}/stats/series`)
        .set('Authorization', `Bearer ${key}`),
      404,
      'Notification not found',
    );
  });

  it('window must be 24h or 7d; unknown query keys are refused; unknown target: 404; notifications:read is needed, and enough', async () => {
    const hook = await target('/series-refused');
    for (const window of ['1h', '30d', '24H', '', '24h,7d']) {
      expectError(
        await app().get(`/api/v1/notifications/${hook}/stats/series?window=${encodeURIComponent(window)}`),
        400,
        'window must be one of: 24h, 7d',
      );
    }
    expectError(
      await app().get(`/api/v1/notifications/${hook}/stats/series?window=24h&status=failed`),
      400,
      'status is not an allowed field',
    );
    expectError(
      await app().get(`/api/v1/notifications/${uid('missing')}/stats/series`),
      404,
      'Notification not found',
    );
    expectError(
      await app().get(`/api/v1/notifications/no%20such/stats/series`),
      404,
      'Notification not found',
    );
    const keyWith = async (permissions: string[]) =>
      (await createKey(app(), { name: 'series', permissions })).key;
    expectError(
      await app()
        .raw()
        .get(`/api/v1/notifications/${hook}/stats/series`)
        .set('Authorization', `Bearer ${await keyWith(['relayers:read', 'notifications:write'])}`),
      403,
      'Forbidden',
    );
    expectError(await app().get(`/api/v1/notifications/${hook}/stats/series`, false), 401, 'Unauthorized');
    stopClockAt(now);
    expect(await series(hook, '?window=7d', await keyWith(['notifications:read']))).toEqual({
      status: 200,
      body: successBody({ window: '7d', buckets: buckets(168, {}) }),
    });
  });
});
