import { randomUUID } from 'node:crypto';
import { as } from '../../support/as-key';
import { errorBody, expectError, successBody } from '../../support/envelope';
import { useTestApp } from '../../support/test-app';
import { createKey, notificationBody } from '../../factories';

/**
 * docs/reference/webhooks.md#97-failing-targets-and-the-summary: GET /api/v1/notifications/summary
 * counts the targets the key may see, running, paused and failing (paused, or under 90 % delivered of
 * what ended in the last hour, as GET .../stats?window=1h says success_rate), and the list's `failing`
 * filter finds the same targets.
 */

const MINUTE = 60_000;

/** A datetime as the service stores it (UTC, milliseconds), for rows written directly. */
const stored = (at: Date) => at.toISOString().replace('T', ' ').replace('Z', '');

interface Ended {
  readonly status: 'delivered' | 'failed' | 'pending';
  readonly n: number;
  /** When it ended: that many minutes ago (a pending one ended once and was queued again). */
  readonly agoMinutes: number;
  readonly relayer?: string;
}

/** Every target, with what its log holds. */
const TARGETS: Record<string, Ended[]> = {
  // Running, nothing delivered ever: no rate, not failing.
  'h-idle': [],
  // 19 of 20 in the last hour: 0.95.
  'h-95': [
    { status: 'delivered', n: 19, agoMinutes: 10 },
    { status: 'failed', n: 1, agoMinutes: 20 },
  ],
  // 4 of 5: 0.8, failing. The failure is about another relayer than the deliveries.
  'h-80': [
    { status: 'delivered', n: 4, agoMinutes: 10, relayer: 'team-1' },
    { status: 'failed', n: 1, agoMinutes: 5, relayer: 'other-1' },
  ],
  // 9 of 10: exactly 0.9, which is not under 90 %.
  'h-90': [
    { status: 'delivered', n: 9, agoMinutes: 15 },
    { status: 'failed', n: 1, agoMinutes: 15 },
  ],
  // Paused with a perfect hour: failing anyway.
  'h-paused': [{ status: 'delivered', n: 3, agoMinutes: 10, relayer: 'team-1' }],
  // Failures older than an hour and one queued again since (pending): nothing ended in the hour.
  'h-old': [
    { status: 'failed', n: 6, agoMinutes: 90, relayer: 'team-1' },
    { status: 'delivered', n: 1, agoMinutes: 120 },
    { status: 'pending', n: 2, agoMinutes: 10, relayer: 'team-1' },
  ],
  // All failed in the hour: 0, failing.
  'h-zero': [{ status: 'failed', n: 2, agoMinutes: 30, relayer: 'team-2' }],
};
const IDS = Object.keys(TARGETS);
const FAILING = ['h-80', 'h-paused', 'h-zero'];
const NOT_FAILING = ['h-idle', 'h-95', 'h-90', 'h-old'];

describe('GET /api/v1/notifications/summary and the failing filter', () => {
  const handle = useTestApp();
  const app = () => handle.current;

  const summary = async (key = app().apiKey, query = '') => {
    const res = await as(app(), key).get(`/api/v1/notifications/summary${query}`);
    return { status: res.status, body: res.body as unknown };
  };
  const list = async (query: string, key = app().apiKey) => {
    const res = await as(app(), key).get(`/api/v1/notifications?${query}`);
    const body = res.body as { data: { id: string }[] | null; pagination?: unknown };
    return { status: res.status, ids: body.data?.map((n) => n.id) ?? null, pagination: body.pagination };
  };

  /** Deliveries written straight into the log, each with its event's body. */
  const insert = async (notificationId: string, rows: Ended[]) => {
    const now = Date.now();
    const text = (v: string | null) => (v === null ? 'NULL' : `'${v}'`);
    const events: string[] = [];
    const values: string[] = [];
    for (const row of rows) {
      for (let i = 0; i < row.n; i++) {
        const ended = new Date(now - row.agoMinutes * MINUTE);
        const created = new Date(ended.getTime() - 1000);
        const eventId = randomUUID();
        events.push(`(${[text(eventId), text('{}'), text(stored(created))].join(', ')})`);
        values.push(
          `(${[
            text(randomUUID()),
            text(notificationId),
            text(eventId),
            text('relayer_updated'),
            text(row.relayer ?? null),
            text(row.status),
            '1',
            // Pending ones are due far in the future: the dispatcher leaves them alone.
            text(stored(row.status === 'pending' ? new Date('2999-01-01T00:00:00.000Z') : created)),
            text(stored(created)),
            text(stored(ended)),
            text(row.status === 'delivered' ? null : stored(ended)),
          ].join(', ')})`,
        );
      }
    }
    if (values.length === 0) return;
    await handle.database.exec(
      `INSERT INTO webhook_events (id, body, created_at) VALUES ${events.join(', ')}`,
    );
    await handle.database.exec(
      `INSERT INTO webhook_deliveries (id, notification_id, event_id, event, relayer_id, status, attempts,
         next_attempt_at, created_at, ended_at, failed_at)
       VALUES ${values.join(', ')}`,
    );
  };

  it('with no target: zeros, and the failing filter finds none', async () => {
    expect(await summary()).toEqual({
      status: 200,
      body: successBody({ total: 0, running: 0, paused: 0, failing: 0 }),
    });
    expect(await list('failing=true')).toEqual({
      status: 200,
      ids: [],
      pagination: { current_page: 1, per_page: 10, total_items: 0 },
    });
  });

  describe('with targets running, paused, failing and not', () => {
    beforeAll(async () => {
      for (const id of IDS) await app().post('/api/v1/notifications', notificationBody({ id })).expect(201);
      for (const [id, rows] of Object.entries(TARGETS)) await insert(id, rows);
      await app().post('/api/v1/notifications/h-paused/pause').expect(200);
    });

    it('counts every target: running, paused, and failing as the filter finds them and as each one’s state and 1 h stats say', async () => {
      expect(await summary()).toEqual({
        status: 200,
        body: successBody({ total: 7, running: 6, paused: 1, failing: 3 }),
      });
      expect(await list('failing=true')).toEqual({
        status: 200,
        ids: FAILING,
        pagination: { current_page: 1, per_page: 10, total_items: 3 },
      });
      expect(await list('failing=false')).toEqual({
        status: 200,
        ids: NOT_FAILING,
        pagination: { current_page: 1, per_page: 10, total_items: 4 },
      });
      // The same rule as the stats' success_rate over 1 h, and the state: read target by target.
      const health: Record<string, { paused: boolean; rate: unknown }> = {};
      for (const id of IDS) {
        const state = (await app().get(`/api/v1/notifications/${id}/state`).expect(200)).body.data as {
          paused: boolean;
        };
        const stats = (await app().get(`/api/v1/notifications/${id}/stats?window=1h`).expect(200)).body
          .data as { success_rate: number | null };
        health[id] = { paused: state.paused, rate: stats.success_rate };
      }
      expect(health).toEqual({
        'h-idle': { paused: false, rate: null },
        'h-95': { paused: false, rate: 0.95 },
        'h-80': { paused: false, rate: 0.8 },
        'h-90': { paused: false, rate: 0.9 },
        'h-paused': { paused: true, rate: 1 },
        'h-old': { paused: false, rate: null },
        'h-zero': { paused: false, rate: 0 },
      });
      expect(
        IDS.filter((id) => {
          const { paused, rate } = health[id];
          return paused || (typeof rate === 'number' && rate < 0.9);
        }),
      ).toEqual(FAILING);
    });

    it('follows a pause and a resume at once', async () => {
      await app().post('/api/v1/notifications/h-95/pause').expect(200);
      expect((await summary()).body).toEqual(successBody({ total: 7, running: 5, paused: 2, failing: 4 }));
      expect((await list('failing=true')).ids).toEqual(['h-95', 'h-80', 'h-paused', 'h-zero']);
      await app().post('/api/v1/notifications/h-95/resume').expect(200);
      expect((await summary()).body).toEqual(successBody({ total: 7, running: 6, paused: 1, failing: 3 }));
    });

    it('ignores the query string, as every route that is not a list', async () => {
      expect(await summary(app().apiKey, '?failing=false&page=2&whatever=1')).toEqual({
        status: 200,
        body: successBody({ total: 7, running: 6, paused: 1, failing: 3 }),
      });
    });

    it('the failing filter pages the filtered list: each page complete, total_items counting the filtered list', async () => {
      const pages = [];
      for (const page of [1, 2, 3]) pages.push(await list(`failing=true&per_page=2&page=${page}`));
      expect(pages).toEqual([
        {
          status: 200,
          ids: ['h-80', 'h-paused'],
          pagination: { current_page: 1, per_page: 2, total_items: 3 },
        },
        { status: 200, ids: ['h-zero'], pagination: { current_page: 2, per_page: 2, total_items: 3 } },
        { status: 200, ids: [], pagination: { current_page: 3, per_page: 2, total_items: 3 } },
      ]);
      expect(await list('failing=false&per_page=3&page=2')).toEqual({
        status: 200,
        ids: ['h-old'],
        pagination: { current_page: 2, per_page: 3, total_items: 4 },
      });
      // Without the filter, every target, as before.
      expect(await list('per_page=100')).toEqual({
        status: 200,
        ids: IDS,
        pagination: { current_page: 1, per_page: 100, total_items: 7 },
      });
    });

    it('a scoped key counts only its targets, and in them only the deliveries about its relayers, as its stats do', async () => {
      // h-80's failure is about other-1, outside this scope: to this key its hour is 4 of 4 delivered.
      const key = await createKey(app(), {
        permissions: ['notifications:read'],
        relayer_ids: ['h-8*', 'h-p*', 'h-zero', 'team-1'],
      });
      expect(await summary(key.key)).toEqual({
        status: 200,
        body: successBody({ total: 3, running: 2, paused: 1, failing: 1 }),
      });
      expect(await list('failing=true', key.key)).toEqual({
        status: 200,
        ids: ['h-paused'],
        pagination: { current_page: 1, per_page: 10, total_items: 1 },
      });
      expect(await list('failing=false', key.key)).toEqual({
        status: 200,
        ids: ['h-80', 'h-zero'],
        pagination: { current_page: 1, per_page: 10, total_items: 2 },
      });
      const rates = [];
      for (const id of ['h-80', 'h-zero'])
        rates.push(
          (
            (await as(app(), key.key).get(`/api/v1/notifications/${id}/stats?window=1h`).expect(200)).body
              .data as { success_rate: number | null }
          ).success_rate,
        );
      expect(rates).toEqual([1, null]);

      const none = await createKey(app(), { permissions: ['notifications:read'], relayer_ids: ['x-*'] });
      expect(await summary(none.key)).toEqual({
        status: 200,
        body: successBody({ total: 0, running: 0, paused: 0, failing: 0 }),
      });
    });

    it('401 without a valid key, 403 without notifications:read', async () => {
      for (const path of ['/api/v1/notifications/summary', '/api/v1/notifications?failing=true']) {
        expectError(await as(app(), null).get(path), 401, 'Unauthorized');
        expectError(await as(app(), 'not-a-key').get(path), 401, 'Unauthorized');
      }
      const reader = await createKey(app(), { permissions: ['relayers:read', 'notifications:write'] });
      for (const path of ['/api/v1/notifications/summary', '/api/v1/notifications?failing=true'])
        expectError(await as(app(), reader.key).get(path), 403, 'Forbidden');
    });

    it.each([['failing=yes'], ['failing=TRUE'], ['failing=1'], ['failing='], ['failing=true&failing=false']])(
      '%s: 400 naming the parameter and its values',
      async (query) => {
        const res = await app().get(`/api/v1/notifications?${query}`);
        expect({ status: res.status, body: res.body as unknown }).toEqual({
          status: 400,
          body: errorBody('failing must be one of: true, false'),
        });
      },
    );

    it('a target whose id is summary: GET of the path answers the summary; the target is still reached by its id', async () => {
      await app()
        .post('/api/v1/notifications', notificationBody({ id: 'summary' }))
        .expect(201);
      expect((await summary()).body).toEqual(successBody({ total: 8, running: 7, paused: 1, failing: 3 }));
      const patched = await app()
        .patch('/api/v1/notifications/summary', { url: 'https://hooks.example.com/renamed' })
        .expect(200);
      expect((patched.body.data as { url: string }).url).toBe('https://hooks.example.com/renamed');
      const state = await app().get('/api/v1/notifications/summary/state').expect(200);
      expect((state.body.data as { paused: boolean }).paused).toBe(false);
      await app().delete('/api/v1/notifications/summary').expect(200);
      // Paths are matched as written (ids byte for byte, docs/reference/running.md): SUMMARY is an id.
      await app()
        .post('/api/v1/notifications', notificationBody({ id: 'SUMMARY' }))
        .expect(201);
      const upper = await app().get('/api/v1/notifications/SUMMARY');
      expect({ status: upper.status, id: (upper.body.data as { id?: string }).id }).toEqual({
        status: 200,
        id: 'SUMMARY',
      });
      await app().delete('/api/v1/notifications/SUMMARY').expect(200);
      expect((await summary()).body).toEqual(successBody({ total: 7, running: 6, paused: 1, failing: 3 }));
    });
  });
});
