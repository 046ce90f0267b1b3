import { randomBytes } from 'node:crypto';
import type { Response } from 'supertest';
import { DataSource } from 'typeorm';
import { expectError, successBody } from '../../support/envelope';
import { createTestDatabase, TEST_DB, type TestDatabase } from '../../support/test-database';
import { startTestApp, type TestApp } from '../../support/test-app';
import { useWebhookApp } from '../../support/webhook-app';
import { waitFor } from '../../support/wait';
import { WebhookReceiver, type ReceivedWebhook } from '../../support/webhook-receiver';
import { createNotification, relayerBody, subscribe as subscribeTarget, uid } from '../../factories';

/** The default of WEBHOOK_MAX_TARGETS_PER_RELAYER (docs/reference/webhooks.md#65-how-many-targets-may-hear-a-relayer). */
const MAX_TARGETS = 50;
const tooMany = (...relayers: string[]) =>
  `More than ${MAX_TARGETS} targets would hear relayers: ${relayers.join(', ')}`;

/** 500 receivers, the most an EVM policy lists: a relayer of about 23 KB, as a team's real ones. */
const receivers = () => Array.from({ length: 500 }, () => `0x${randomBytes(20).toString('hex')}`);

/**
 * Every copy of `value` stored in any document column (TEXT, MEDIUMTEXT) of any table, and their
 * bytes: what an event's body costs the database, whatever the schema keeps it in.
 */
async function storedCopies(
  dataSource: DataSource,
  value: string,
): Promise<{ copies: number; bytes: number }> {
  const columns = await dataSource.query<Array<{ t: string; c: string }>>(
    TEST_DB === 'mysql'
      ? "SELECT TABLE_NAME AS t, COLUMN_NAME AS c FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() AND DATA_TYPE IN ('text', 'mediumtext', 'longtext')"
      : "SELECT m.name AS t, p.name AS c FROM sqlite_master m, pragma_table_info(m.name) p WHERE m.type = 'table' AND lower(p.type) = 'text'",
  );
  const bytes =
    TEST_DB === 'mysql' ? (c: string) => `LENGTH(${c})` : (c: string) => `LENGTH(CAST(${c} AS BLOB))`;
  let copies = 0;
  let total = 0;
  for (const { t, c } of columns) {
    const column = TEST_DB === 'mysql' ? `\`${c}\`` : `"${c}"`;
    const table = TEST_DB === 'mysql' ? `\`${t}\`` : `"${t}"`;
    const [row] = await dataSource.query<Array<{ n: number | string; b: number | string | null }>>(
      `SELECT COUNT(*) AS n, SUM(${bytes(column)}) AS b FROM ${table} WHERE ${column} = ?`,
      [value],
    );
    copies += Number(row.n);
    total += Number(row.b ?? 0);
  }
  return { copies, bytes: total };
}

/**
 * `targets(count, prefix)`: that many targets of the receiver (`/<id>`), their ids; `put`: the
 * subscription PUT, its answer as it is; `subscribe(ids, relayerIds)`: each of the targets hears
 * these relayers (null: every relayer).
 */
function subscriptions(app: () => TestApp, receiver: WebhookReceiver) {
  const targets = async (count: number, prefix: string): Promise<string[]> => {
    const ids: string[] = [];
    for (let i = 0; i < count; i++) {
      const id = uid(prefix);
      await createNotification(app(), { id, url: receiver.url(`/${id}`) });
      ids.push(id);
    }
    return ids;
  };
  const put = (notificationId: string, body: object): Promise<Response> =>
    app()
      .put(`/api/v1/notifications/${notificationId}/subscription`, body)
      .then((r) => r);
  const subscribe = async (notificationIds: readonly string[], relayerIds: string[] | null) => {
    for (const id of notificationIds) await subscribeTarget(app(), id, { relayer_ids: relayerIds });
  };
  return { targets, put, subscribe };
}

describe('fan-out is bounded and cheap: one stored body per event, at most WEBHOOK_MAX_TARGETS_PER_RELAYER targets per relayer', () => {
  const { receiver, app } = useWebhookApp({
    WEBHOOK_RETRY_BASE_MS: '40',
    WEBHOOK_TIMEOUT_MS: '30000',
  });

  const { targets, put, subscribe } = subscriptions(app, receiver);
  const subscriptionOf = async (notificationId: string) =>
    (await app().get(`/api/v1/notifications/${notificationId}/subscription`).expect(200)).body as unknown;
  const relayerOf = async (id: string) => {
    const res = await app().get(`/api/v1/relayers/${id}`);
    return {
      status: res.status,
      notification_id: (res.body.data as { notification_id?: unknown } | null)?.notification_id,
    };
  };

  it('a relayer PATCH heard by 50 targets (its own, 48 by id, one "*") writes 50 deliveries of one event whose body is stored once', async () => {
    const [own, everything, ...byId] = await targets(MAX_TARGETS, 'fan');
    const relayer = uid('r-fan');
    await subscribe(byId, [relayer]);
    await subscribe([everything], ['*']);
    await app()
      .post(
        '/api/v1/relayers',
        relayerBody('evm', {
          id: relayer,
          name: 'before',
          notification_id: own,
          policies: { whitelist_receivers: receivers() },
        }),
      )
      .expect(201);
    const all = [own, everything, ...byId];
    await Promise.all(all.map((id) => receiver.waitFor(`/${id}`, 1)));

    const name = uid('renamed');
    await app().patch(`/api/v1/relayers/${relayer}`, { name }).expect(200);
    const heard = await Promise.all(
      all.map(async (id) =>
        (await receiver.waitFor(`/${id}`, 2)).find((r) => r.json.event === 'relayer_updated'),
      ),
    );
    const updates = heard.filter((r): r is ReceivedWebhook => r !== undefined);
    const bodies = [...new Set(updates.map((r) => r.body))];
    const stored = { copies: 0, bytes: 0 };
    for (const body of bodies) {
      const found = await storedCopies(app().app.get(DataSource), body);
      stored.copies += found.copies;
      stored.bytes += found.bytes;
    }
    const [body] = bodies;
    expect(Buffer.byteLength(body)).toBeGreaterThan(20_000);
    expect({
      received: updates.length,
      distinctBodies: bodies.length,
      eventIds: new Set(updates.map((r) => r.json.id)).size,
      idInHeader: updates.every((r) => r.headers['x-event-id'] === r.json.id),
      name: (JSON.parse(body) as { payload: { relayer: { name: string } } }).payload.relayer.name,
      stored,
    }).toEqual({
      received: MAX_TARGETS,
      distinctBodies: 1,
      eventIds: 1,
      idInHeader: true,
      name,
      stored: { copies: 1, bytes: Buffer.byteLength(body) },
    });
    // Each target's log has the event once, under the same event_id.
    const logged = await Promise.all(
      all.map(async (id) =>
        (
          (await app().get(`/api/v1/notifications/${id}/deliveries?per_page=10`).expect(200)).body
            .data as Array<{
            event: string;
            event_id: string;
          }>
        ).filter((d) => d.event === 'relayer_updated'),
      ),
    );
    expect(new Set(logged.map((d) => JSON.stringify(d.map((x) => x.event_id))))).toEqual(
      new Set([JSON.stringify([updates[0].json.id])]),
    );
    // The next test counts the hearers of its own relayers: no "*" left.
    await subscribe([everything], null);
  });

  it('the 51st target is refused with a 409 naming the relayers: a subscription by id or "*", a relayer create or PATCH that names it as its own; nothing is written', async () => {
    // Y: its own target and 49 by id (50). W: 50 by id, no relayer yet.
    const [ownY, ...byIdY] = await targets(MAX_TARGETS, 'y');
    const y = uid('r-y');
    await subscribe(byIdY, [y]);
    await app()
      .post('/api/v1/relayers', relayerBody('evm', { id: y, name: 'y', notification_id: ownY }))
      .expect(201);
    const w = uid('r-w');
    const byIdW = await targets(MAX_TARGETS, 'w');
    await subscribe(byIdW, [w]);
    const [extra] = await targets(1, 'extra');
    const z = uid('r-z');

    expectError(await put(extra, { relayer_ids: [z, y] }), 409, tooMany(y));
    expectError(await put(extra, { relayer_ids: [w, y, z] }), 409, tooMany(...[w, y].sort()));
    expectError(
      await put(extra, { events: ['relayer_deleted'], relayer_ids: ['*'] }),
      409,
      tooMany(...[w, y].sort()),
    );
    expect(await subscriptionOf(extra)).toEqual(successBody({ events: null, relayer_ids: null }));
    // A target that hears the relayer already may change its subscription; the others of the list are free.
    expect(
      (await put(byIdY[0], { events: ['relayer_updated'], relayer_ids: [y, z] })).body as unknown,
    ).toEqual(successBody({ events: ['relayer_updated'], relayer_ids: [y, z].sort() }));
    expect((await put(extra, { relayer_ids: [z] })).body as unknown).toEqual(
      successBody({ events: null, relayer_ids: [z] }),
    );

    // The relayer's own target counts: W is heard by 50 already.
    expectError(
      await app().post('/api/v1/relayers', relayerBody('evm', { id: w, name: 'w', notification_id: extra })),
      409,
      tooMany(w),
    );
    expect(await relayerOf(w)).toEqual({ status: 404, notification_id: undefined });
    await app()
      .post('/api/v1/relayers', relayerBody('evm', { id: w, name: 'w' }))
      .expect(201);
    expectError(await app().patch(`/api/v1/relayers/${w}`, { notification_id: extra }), 409, tooMany(w));
    expect(await relayerOf(w)).toEqual({ status: 200, notification_id: null });
    // A target among its 50 may be its own; a PATCH that leaves notification_id alone is never refused.
    await app().patch(`/api/v1/relayers/${w}`, { notification_id: byIdW[0] }).expect(200);
    await app().patch(`/api/v1/relayers/${w}`, { name: 'w again' }).expect(200);
    expect(await relayerOf(w)).toEqual({ status: 200, notification_id: byIdW[0] });
    // Y's own target moving from ownY to the 51st keeps 50 hearers: allowed.
    await app().patch(`/api/v1/relayers/${y}`, { notification_id: extra }).expect(200);
    expectError(await put(ownY, { relayer_ids: [y] }), 409, tooMany(y));
    // A place freed is taken.
    await subscribe([byIdY[1]], null);
    expect((await put(ownY, { relayer_ids: [y] })).body as unknown).toEqual(
      successBody({ events: null, relayer_ids: [y] }),
    );
  });
});

describe('at most WEBHOOK_MAX_TARGETS_PER_RELAYER under concurrency: two changes at once never both pass', () => {
  const { receiver, app } = useWebhookApp({
    WEBHOOK_RETRY_BASE_MS: '40',
    WEBHOOK_TIMEOUT_MS: '30000',
  });

  const { targets, put, subscribe } = subscriptions(app, receiver);
  const oneRefused = (answers: Response[], relayer: string) => {
    expect(answers.map((r) => r.status).sort()).toEqual([200, 409]);
    expectError(answers.find((r) => r.status === 409) as Response, 409, tooMany(relayer));
  };

  it('two changes at once that would each make the 51st hearer: one passes, the other is a 409 (subscriptions, "*", and a relayer PATCH)', async () => {
    for (let round = 0; round < 3; round++) {
      // C: 49 by id, no own target.
      const c = uid('r-c');
      const byIdC = await targets(MAX_TARGETS - 1, `c${round}`);
      await subscribe(byIdC, [c]);
      await app()
        .post('/api/v1/relayers', relayerBody('evm', { id: c, name: 'c' }))
        .expect(201);
      const [a, b, d, e] = await targets(4, `race${round}`);

      const twoSubscriptions = await Promise.all([
        put(a, { relayer_ids: [c] }),
        put(b, { relayer_ids: [c] }),
      ]);
      oneRefused(twoSubscriptions, c);
      const winner = twoSubscriptions[0].status === 200 ? a : b;
      await subscribe([winner], null);

      const subscriptionAndPatch = await Promise.all([
        put(d, { relayer_ids: [c] }),
        app()
          .patch(`/api/v1/relayers/${c}`, { notification_id: e })
          .then((r) => r),
      ]);
      oneRefused(subscriptionAndPatch, c);
      if (subscriptionAndPatch[0].status === 200) await subscribe([d], null);
      else await app().patch(`/api/v1/relayers/${c}`, { notification_id: null }).expect(200);

      const everythingAndOne = await Promise.all([
        put(a, { relayer_ids: ['*'] }),
        put(b, { relayer_ids: [c] }),
      ]);
      oneRefused(everythingAndOne, c);
      await subscribe([a, b], null);
    }
    // About 300 requests; 60 s was not enough in a loaded CI run's group 10 (2e72a86, MySQL, 809 s).
  }, 180_000);
});

describe('an event body is removed with the last delivery that references it (docs/reference/webhooks.md#33-retention)', () => {
  const receiver = new WebhookReceiver();
  let database: TestDatabase;
  let app: TestApp | undefined;
  beforeAll(async () => {
    database = await createTestDatabase();
    await receiver.start();
    app = await startTestApp({ DATABASE_URL: database.url, WEBHOOK_RETRY_BASE_MS: '40' });
  });
  afterAll(async () => {
    await app?.close();
    await receiver.close();
    await database?.drop();
  });
  const running = () => {
    if (!app) throw new Error('the app has not started');
    return app;
  };
  const log = async (hook: string) =>
    (
      (await running().get(`/api/v1/notifications/${hook}/deliveries?per_page=100`).expect(200)).body
        .data as Array<{ event_id: string }>
    ).map((d) => d.event_id);
  const statusesOf = async (hook: string) =>
    (
      (await running().get(`/api/v1/notifications/${hook}/deliveries?per_page=100`).expect(200)).body
        .data as Array<{ status: string }>
    ).map((d) => d.status);
  const bodies = async () =>
    (
      await running()
        .app.get(DataSource)
        .query<Array<{ id: string }>>('SELECT id FROM webhook_events ORDER BY id')
    ).map((row) => row.id);
  const daysAgo = (days: number) =>
    new Date(Date.now() - days * 24 * 3600_000).toISOString().replace('T', ' ').replace('Z', '');

  it('kept while a delivery references it; removed after retention took its deliveries, or its target was deleted with them', async () => {
    const [own, subscriber] = [uid('own'), uid('sub')];
    for (const id of [own, subscriber]) {
      await running()
        .post('/api/v1/notifications', { id, url: receiver.url(`/${id}`) })
        .expect(201);
    }
    const relayer = uid('r-kept');
    await subscribeTarget(running(), subscriber, { relayer_ids: [relayer] });
    // 1 and 2 to both targets; 3 to its own target only.
    await running()
      .post('/api/v1/relayers', relayerBody('evm', { id: relayer, name: 'n0', notification_id: own }))
      .expect(201);
    await running().patch(`/api/v1/relayers/${relayer}`, { name: 'n1' }).expect(200);
    await subscribeTarget(running(), subscriber, { relayer_ids: null });
    await running().patch(`/api/v1/relayers/${relayer}`, { name: 'n2' }).expect(200);
    await running().patch(`/api/v1/relayers/${relayer}`, { notification_id: null }).expect(200);
    await waitFor('every delivery delivered', async () => {
      const statuses = [...(await statusesOf(own)), ...(await statusesOf(subscriber))];
      return statuses.length === 5 && statuses.every((status) => status === 'delivered');
    });
    const [third, second, first] = await log(own);
    expect(await log(subscriber)).toEqual([second, first]);
    expect(await bodies()).toEqual([first, second, third].sort());

    // The first ended 8 days ago on both targets; the own target is deleted with its deliveries.
    await database.exec(
      `UPDATE webhook_deliveries SET ended_at = '${daysAgo(8)}' WHERE event_id = '${first}'`,
    );
    await database.exec(`UPDATE webhook_events SET created_at = '${daysAgo(8)}' WHERE id = '${first}'`);
    await running().delete(`/api/v1/notifications/${own}`).expect(200);
    expect(await bodies()).toEqual([first, second, third].sort());

    // The next sweep (the first of an instance, here) removes the first's last delivery, then the
    // bodies none references: the first's and the third's.
    await running().close();
    app = undefined;
    app = await startTestApp({ DATABASE_URL: database.url });
    await waitFor('the bodies no delivery references removed', async () => (await bodies()).length === 1, {
      detail: () => 'bodies left',
    });
    expect({ bodies: await bodies(), log: await log(subscriber) }).toEqual({
      bodies: [second],
      log: [second],
    });
  });
});
