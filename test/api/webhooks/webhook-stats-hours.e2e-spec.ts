import { randomUUID } from 'node:crypto';
import { realClock, stopClockAt } from '../../support/clock';
import { successBody } from '../../support/envelope';
import { waitFor } from '../../support/wait';
import { useWebhookApp } from '../../support/webhook-app';
import { createKey, uid } from '../../factories';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** A datetime as the service stores it (UTC, milliseconds), for rows written directly. */
const stored = (at: number) => new Date(at).toISOString().replace('T', ' ').replace('Z', '');
/** An hour as webhook_delivery_hours keys it: `YYYY-MM-DD HH` (UTC). */
const hourKey = (at: number) => stored(at).slice(0, 13);

interface Row {
  readonly id?: string;
  readonly status: 'pending' | 'delivered' | 'failed';
  readonly endedAt?: number;
  readonly failedAt?: number;
  readonly latencyMs?: number | null;
}

describe('the hourly totals behind the stats (docs/reference/webhooks.md#94-the-cost)', () => {
  const { receiver, handle, app } = useWebhookApp({
    WEBHOOK_RETRY_BASE_MS: '40',
    WEBHOOK_TIMEOUT_MS: '30000',
  });
  afterEach(realClock);

  const thisHour = Math.floor(Date.now() / HOUR) * HOUR;
  const now = thisHour + 30 * MINUTE + 123;
  const at = (hours: number, minutes = 0) => thisHour - hours * HOUR + minutes * MINUTE;

  /** Deliveries about the relayer `team-a-1` written straight into the log, each with its event. */
  const insert = async (notificationId: string, rows: Row[]) => {
    const text = (v: string | null | undefined) => (v === null || v === undefined ? 'NULL' : `'${v}'`);
    const events: string[] = [];
    const values = rows.map((row) => {
      const created = (row.failedAt ?? row.endedAt ?? now) - 1000;
      const eventId = randomUUID();
      events.push(`(${[text(eventId), text('{}'), text(stored(created))].join(', ')})`);
      return `(${[
        text(row.id ?? randomUUID()),
        text(notificationId),
        text(eventId),
        text('relayer_updated'),
        text('team-a-1'),
        text(row.status),
        row.failedAt === undefined ? '1' : '2',
        text(row.failedAt === undefined ? null : 'HTTP 503'),
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
  const keptHours = async (notificationId: string) =>
    (
      await handle.database.query<{ hour: string }>(
        `SELECT hour FROM webhook_delivery_hours WHERE notification_id = '${notificationId}' ORDER BY hour`,
      )
    ).map((row) => row.hour);
  const get = async (path: string, key: string) => {
    const res = await app().raw().get(path).set('Authorization', `Bearer ${key}`);
    return { status: res.status, body: res.body as { data: Record<string, unknown> } };
  };
  /** Every window of the stats and of the series, as `key` reads them. */
  const everything = async (hook: string, key = app().apiKey) => ({
    '1h': await get(`/api/v1/notifications/${hook}/stats?window=1h`, key),
    '24h': await get(`/api/v1/notifications/${hook}/stats?window=24h`, key),
    '7d': await get(`/api/v1/notifications/${hook}/stats?window=7d`, key),
    'series 24h': await get(`/api/v1/notifications/${hook}/stats/series?window=24h`, key),
    'series 7d': await get(`/api/v1/notifications/${hook}/stats/series?window=7d`, key),
  });
  /** The 7d stats' counts and the series' hours that hold something, hours before this one by start. */
  const summary = (answers: Awaited<ReturnType<typeof everything>>) => {
    const { delivered, failed, pending, retried } = answers['7d'].body.data;
    const buckets = answers['series 7d'].body.data.buckets as Array<{
      start: string;
      delivered: number;
      failed: number;
      p95_ms: number | null;
    }>;
    const hours = Object.fromEntries(
      buckets
        .filter((b) => b.delivered > 0 || b.failed > 0)
        .map((b) => [(thisHour - Date.parse(b.start)) / HOUR, [b.delivered, b.failed, b.p95_ms]]),
    );
    return { counts: { delivered, failed, pending, retried }, hours };
  };

  it('closed hours are summed up once and read from their totals after: every window answers as from the deliveries, after a failure pending again ends, a replay and a retry too', async () => {
    // A key limited to the relayer of every delivery below reads them from the deliveries (no totals):
    // the answer without totals to compare with.
    const hook = uid('team-a-hook');
    await app()
      .post('/api/v1/notifications', { id: hook, url: receiver.url('/hours') })
      .expect(201);
    const { key: raw } = await createKey(app(), {
      name: 'raw',
      permissions: ['notifications:read'],
      relayer_ids: ['team-a-*'],
    });
    const retried = randomUUID();
    await insert(hook, [
      { status: 'delivered', endedAt: at(0, 1), latencyMs: 10 },
      ...Array.from({ length: 21 }, (_, i): Row => ({
        status: 'delivered',
        endedAt: at(1, i),
        latencyMs: i + 1,
      })),
      { status: 'delivered', endedAt: at(1, 30) },
      { status: 'failed', endedAt: at(1, 40), failedAt: at(1, 40), latencyMs: 5000 },
      { status: 'failed', endedAt: at(2, 10), failedAt: at(2, 10), latencyMs: 1 },
      // Failed, replayed, delivered later: a failure of hour 7, a delivery of hour 5.
      { status: 'delivered', endedAt: at(5, 10), failedAt: at(7, 10), latencyMs: 40 },
      // Failed in hour 4, pending again: its next end may move the failure out of hour 4.
      { status: 'pending', failedAt: at(4, 20) },
      { id: retried, status: 'delivered', endedAt: at(30, 1), latencyMs: 300 },
      { status: 'delivered', endedAt: at(30, 2), latencyMs: 300 },
      { status: 'delivered', endedAt: at(30, 3), latencyMs: 300 },
      { status: 'failed', endedAt: at(100, 5), failedAt: at(100, 5) },
      // The 7d window starts half an hour into hour 168 (its first whole hour is 167): in, in, out.
      { status: 'delivered', endedAt: at(167, 10), latencyMs: 8 },
      { status: 'delivered', endedAt: at(168, 45), latencyMs: 7 },
      { status: 'delivered', endedAt: at(168, 10), latencyMs: 9 },
      { status: 'pending' },
    ]);
    stopClockAt(now);

    // The first read sums up the closed hours of the week (167 whole ones, but for hour 4); the second
    // reads them.
    const first = await everything(hook);
    const closed = Array.from({ length: 167 }, (_, i) => hourKey(at(167 - i)));
    expect(await keptHours(hook)).toEqual(closed.filter((hour) => hour !== hourKey(at(4))));
    expect(await everything(hook)).toEqual(first);
    expect(await everything(hook, raw)).toEqual(first);
    expect(first['7d']).toEqual({
      status: 200,
      body: successBody({
        window: '7d',
        delivered: 29,
        failed: 3,
        pending: 2,
        retried: 4,
        success_rate: 0.9063,
        latency_ms: { p50: 11, p95: 300, max: 300 },
        last_delivered_at: new Date(at(0, 1)).toISOString(),
        last_failed_at: new Date(at(1, 40)).toISOString(),
        last_error: 'HTTP 503',
      }),
    });
    expect(summary(first).hours).toEqual({
      0: [1, 0, 10],
      1: [22, 1, 20],
      2: [0, 1, null],
      4: [0, 1, null],
      5: [1, 0, 40],
      7: [0, 1, null],
      30: [3, 0, 300],
      100: [0, 1, null],
      167: [1, 0, 8],
    });

    // They are read from the totals: a total changed by hand shows.
    const thirty = hourKey(at(30));
    await handle.database.exec(
      `UPDATE webhook_delivery_hours SET delivered = delivered + 1000 WHERE notification_id = '${hook}' AND hour = '${thirty}'`,
    );
    expect(summary(await everything(hook)).counts).toEqual({
      delivered: 1029,
      failed: 3,
      pending: 2,
      retried: 4,
    });
    await handle.database.exec(
      `UPDATE webhook_delivery_hours SET delivered = delivered - 1000 WHERE notification_id = '${hook}' AND hour = '${thirty}'`,
    );

    // The failure pending again ends failed now, as the dispatcher would write it: hour 4 loses it,
    // and is summed up from then on.
    await handle.database.exec(
      `UPDATE webhook_deliveries SET status = 'failed', attempts = 3, ended_at = '${stored(at(0, 5))}',
              failed_at = '${stored(at(0, 5))}', failed_error = 'HTTP 500', last_error = 'HTTP 500'
        WHERE notification_id = '${hook}' AND status = 'pending' AND failed_at IS NOT NULL`,
    );
    const ended = await everything(hook);
    expect(await everything(hook, raw)).toEqual(ended);
    expect(summary(ended)).toEqual({
      counts: { delivered: 29, failed: 4, pending: 1, retried: 5 },
      hours: {
        0: [1, 1, 10],
        1: [22, 1, 20],
        2: [0, 1, null],
        5: [1, 0, 40],
        7: [0, 1, null],
        30: [3, 0, 300],
        100: [0, 1, null],
        167: [1, 0, 8],
      },
    });
    expect(await keptHours(hook)).toEqual(closed);

    // A replay of the failed ones: the hours they ended and failed in are forgotten in its transaction,
    // and summed up again by the next read; they are delivered now.
    await app().post(`/api/v1/notifications/${hook}/deliveries/replay`, { status: 'failed' }).expect(202);
    expect(await keptHours(hook)).toEqual(
      closed.filter((hour) => ![at(1), at(2), at(100)].map(hourKey).includes(hour)),
    );
    await waitFor('the replayed deliveries to be delivered', async () => {
      const log = await app().get(`/api/v1/notifications/${hook}/deliveries?per_page=100`).expect(200);
      const statuses = (log.body as { data: Array<{ status: string }> }).data.map((d) => d.status);
      // All but the one never attempted (due in 2999), and the one before the window.
      return statuses.filter((status) => status === 'delivered').length === 34;
    });
    const replayed = await everything(hook);
    expect(await everything(hook, raw)).toEqual(replayed);
    expect(summary(replayed).counts).toEqual({ delivered: 33, failed: 0, pending: 1, retried: 5 });
    expect(summary(replayed).hours).toMatchObject({
      0: [5, 1, expect.any(Number)],
      1: [22, 1, 20],
      100: [0, 1, null],
    });
    expect(await keptHours(hook)).toEqual(closed);

    // A retry of one delivered in hour 30, which fails now.
    receiver.script('/hours', [{ status: 410 }]);
    await app().post(`/api/v1/notifications/${hook}/deliveries/${retried}/retry`).expect(202);
    expect(await keptHours(hook)).toEqual(closed.filter((hour) => hour !== thirty));
    await waitFor('the retried delivery to end', async () => {
      const res = await app().get(`/api/v1/notifications/${hook}/deliveries?status=failed`).expect(200);
      return (res.body as { data: unknown[] }).data.length === 1;
    });
    const retriedAnswer = await everything(hook);
    expect(await everything(hook, raw)).toEqual(retriedAnswer);
    expect(summary(retriedAnswer).counts).toEqual({ delivered: 32, failed: 1, pending: 1, retried: 6 });
    expect(summary(retriedAnswer).hours[30]).toEqual([2, 0, 300]);
    expect(await keptHours(hook)).toEqual(closed);
  });

  it('the hours before the retention go with the deliveries, and a deleted target takes its hours along', async () => {
    const hook = uid('team-a-hook');
    await app()
      .post('/api/v1/notifications', { id: hook, url: receiver.url('/kept') })
      .expect(201);
    const then = now - 8 * DAY;
    // Read eight days ago, then now: an hour of each time is kept.
    await insert(hook, [{ status: 'delivered', endedAt: then - 3 * HOUR, latencyMs: 12 }]);
    stopClockAt(then);
    expect(
      (await get(`/api/v1/notifications/${hook}/stats?window=24h`, app().apiKey)).body.data.delivered,
    ).toBe(1);
    await insert(hook, [{ status: 'delivered', endedAt: at(3), latencyMs: 13 }]);
    stopClockAt(now);
    expect(
      (await get(`/api/v1/notifications/${hook}/stats?window=24h`, app().apiKey)).body.data.delivered,
    ).toBe(1);
    const old = hourKey(then - 3 * HOUR);
    expect((await keptHours(hook)).filter((hour) => hour === old || hour === hourKey(at(3)))).toEqual([
      old,
      hourKey(at(3)),
    ]);
    // The sweep, an hour after the last one: the delivery of eight days ago and its hour are gone.
    jest.setSystemTime(Date.now() + 2 * HOUR);
    await waitFor('the sweep', async () => !(await keptHours(hook)).includes(old));
    expect((await keptHours(hook)).every((hour) => hour >= hourKey(Date.now() - 7 * DAY))).toBe(true);
    expect(await keptHours(hook)).toContain(hourKey(at(3)));
    await app().delete(`/api/v1/notifications/${hook}`).expect(200);
    expect(await keptHours(hook)).toEqual([]);
  });
});
