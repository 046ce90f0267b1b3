import { EventEmitter2 } from '@nestjs/event-emitter';
import fs from 'node:fs';
import path from 'node:path';
import type { Response } from 'supertest';
import { DataSource } from 'typeorm';
import { entityTag } from '../../src/common/http/tagged';
import { RELAYER_EVENTS } from '../../src/relayers/relayer-events';
import { parseDatabaseUrl } from '../../src/config/database-url';
import { buildDataSourceOptions } from '../../src/database/data-source-options';
import { errorBody, expectError, successBody } from '../support/envelope';
import { startTestApp, type TestApp } from '../support/test-app';
import { useWebhookApp } from '../support/webhook-app';
import { createTestDatabase, TEST_DB, type TestDatabase } from '../support/test-database';
import { notificationBody, relayerBody as factoryRelayerBody, uid } from '../factories';

const STRONG_TAG = /^"[\x21\x23-\x7e]+"$/;
/** A list's tag: the SHA-256 of its body, base64url (docs/reference/pagination.md#16-etag-and-304). */
const BODY_TAG = /^"[A-Za-z0-9_-]{43}"$/;
// Several instances share a MySQL database. Two in this one process on one SQLite file would block
// each other: better-sqlite3 waits for a lock synchronously, on the thread the other needs to commit.
const describeMysql = TEST_DB === 'mysql' ? describe : describe.skip;

/** Status, body and ETag: everything a client reads of an answer. */
const answer = (res: Response) => ({
  status: res.status,
  body: res.body as unknown,
  etag: res.headers.etag as string | undefined,
});

/**
 * Runs the requests with the clock stopped (timers still run), so that a dry run and the real
 * request after it stamp the same created_at/updated_at and their answers can be compared whole.
 */
async function withStoppedClock<T>(work: () => Promise<T>): Promise<T> {
  jest.useFakeTimers({
    now: Date.now(),
    doNotFake: [
      'hrtime',
      'nextTick',
      'performance',
      'queueMicrotask',
      'setImmediate',
      'clearImmediate',
      'setInterval',
      'clearInterval',
      'setTimeout',
      'clearTimeout',
    ],
  });
  try {
    return await work();
  } finally {
    jest.useRealTimers();
  }
}

describe('safe writes (docs/reference/safe-writes.md): ETag, If-Match and dry runs', () => {
  const { receiver, handle, app } = useWebhookApp({
    WEBHOOK_RETRY_BASE_MS: '40',
    WEBHOOK_TIMEOUT_MS: '1000',
  });

  const relayerBody = (extra: object = {}) => factoryRelayerBody('evm', { name: 'safe', ...extra });
  const createRelayer = async (extra: object = {}) => {
    const res = await app().post('/api/v1/relayers', relayerBody(extra)).expect(201);
    return { id: (res.body.data as { id: string }).id, etag: res.headers.etag, res };
  };
  const createNotification = async (extra: object = {}) => {
    const res = await app()
      .post('/api/v1/notifications', notificationBody({ url: 'https://hooks.example.com/safe', ...extra }))
      .expect(201);
    return { id: (res.body.data as { id: string }).id, etag: res.headers.etag, res };
  };
  /** A notification target on the receiver, at a path of its own. */
  const hook = async (): Promise<{ id: string; path: string }> => {
    const at = `/${uid('hook')}`;
    const { id } = await createNotification({ url: receiver.url(at) });
    return { id, path: at };
  };
  /** Every event the app publishes (in the transaction and after commit) while `work` runs. */
  const eventsDuring = async <T>(work: () => Promise<T>): Promise<{ result: T; events: string[] }> => {
    const emitter = app().app.get(EventEmitter2, { strict: false });
    const events: string[] = [];
    const listener = (name: string | string[]) => events.push(String(name));
    emitter.onAny(listener);
    try {
      return { result: await work(), events };
    } finally {
      emitter.offAny(listener);
    }
  };
  const deliveryCount = async (notificationId: string): Promise<number> => {
    const res = await app().get(`/api/v1/notifications/${notificationId}/deliveries`).expect(200);
    return (res.body as { pagination: { total_items: number } }).pagination.total_items;
  };

  describe('ETag', () => {
    it('relayer: on POST, GET and PATCH, a strong tag that changes with every change and only then', async () => {
      const { id: notificationId } = await createNotification();
      const { id, etag: created, res } = await createRelayer();
      expect(created).toMatch(STRONG_TAG);
      const got = await app().get(`/api/v1/relayers/${id}`).expect(200);
      expect(answer(got)).toEqual({ status: 200, body: res.body as unknown, etag: created });

      const tags = [created];
      for (const change of [
        { name: 'renamed' },
        { paused: true },
        { policies: { min_balance: '1000000000000000000000' } },
        { custom_rpc_urls: [{ url: 'https://rpc.example.com/a', weight: 50 }] },
        { notification_id: notificationId },
        { notification_id: null },
      ]) {
        const patched = await app().patch(`/api/v1/relayers/${id}`, change).expect(200);
        expect(patched.headers.etag).toMatch(STRONG_TAG);
        const now = await app().get(`/api/v1/relayers/${id}`).expect(200);
        expect(answer(now)).toEqual(answer(patched));
        tags.push(patched.headers.etag);
      }
      expect(new Set(tags).size).toBe(tags.length);

      // A PATCH that changes nothing keeps the tag.
      const unchanged = await app().patch(`/api/v1/relayers/${id}`, { name: 'renamed' }).expect(200);
      expect(unchanged.headers.etag).toBe(tags.at(-1));
      // A list's tag is its body's, never a resource's (test/http/list-etag.e2e-spec.ts); a DELETE has none.
      const list = await app().get('/api/v1/relayers').expect(200);
      expect(list.headers.etag).toMatch(BODY_TAG);
      const deleted = await app().delete(`/api/v1/relayers/${id}`).expect(200);
      expect(deleted.headers.etag).toBeUndefined();
    });

    it('relayer: one deleted and created again under the same id never gets a tag of the one before', async () => {
      const body = relayerBody();
      const first = await app().post('/api/v1/relayers', body).expect(201);
      await app().delete(`/api/v1/relayers/${body.id}`).expect(200);
      const second = await app().post('/api/v1/relayers', body).expect(201);
      expect(second.headers.etag).not.toBe(first.headers.etag);
      expectError(
        await app()
          .patch(`/api/v1/relayers/${body.id}`, { name: 'meant for the first' })
          .set('If-Match', first.headers.etag),
        412,
        'Precondition Failed',
      );
    });

    it('notification: on POST, GET and PATCH, changing with the URL and with each signing key change', async () => {
      const { id, etag: created, res } = await createNotification();
      expect(created).toMatch(STRONG_TAG);
      const got = await app().get(`/api/v1/notifications/${id}`).expect(200);
      expect(answer(got)).toEqual({ status: 200, body: res.body as unknown, etag: created });

      const tags = [created];
      for (const change of [
        { url: 'https://hooks.example.com/moved' },
        { signing_key: 'a'.repeat(32) },
        // The answer still says has_signing_key: true, but the resource changed.
        { signing_key: 'b'.repeat(32) },
        { signing_key: '' },
      ]) {
        const patched = await app().patch(`/api/v1/notifications/${id}`, change).expect(200);
        expect(patched.headers.etag).toMatch(STRONG_TAG);
        const now = await app().get(`/api/v1/notifications/${id}`).expect(200);
        expect(answer(now)).toEqual(answer(patched));
        tags.push(patched.headers.etag);
      }
      expect(new Set(tags).size).toBe(tags.length);
      const unchanged = await app().patch(`/api/v1/notifications/${id}`, {}).expect(200);
      expect(unchanged.headers.etag).toBe(tags.at(-1));
      expect((await app().get('/api/v1/notifications').expect(200)).headers.etag).toMatch(BODY_TAG);
    });
  });

  describe('If-Match on PATCH and DELETE', () => {
    it('relayer PATCH: a stale tag is a 412 that changes nothing; the current one, *, or a list holding it apply', async () => {
      const { id, etag: stale } = await createRelayer();
      const current = await app().patch(`/api/v1/relayers/${id}`, { name: 'second' }).expect(200);
      const before = answer(await app().get(`/api/v1/relayers/${id}`).expect(200));

      for (const header of [stale, `W/${current.headers.etag}`, `"nope", ${stale}`, '']) {
        const res = await app().patch(`/api/v1/relayers/${id}`, { name: 'lost' }).set('If-Match', header);
        expectError(res, 412, 'Precondition Failed');
        expect(answer(await app().get(`/api/v1/relayers/${id}`).expect(200))).toEqual(before);
      }

      let etag = current.headers.etag;
      const conditions: Array<[string, string]> = [
        ['CURRENT', 'third'],
        ['*', 'fourth'],
        [`${stale}, "other", CURRENT`, 'fifth'],
      ];
      for (const [header, name] of conditions) {
        const res = await app()
          .patch(`/api/v1/relayers/${id}`, { name })
          .set('If-Match', header.replace('CURRENT', etag));
        expect({ status: res.status, name: (res.body.data as { name: string }).name }).toEqual({
          status: 200,
          name,
        });
        expect(res.headers.etag).not.toBe(etag);
        etag = res.headers.etag;
      }
      // Without If-Match, as before.
      await app().patch(`/api/v1/relayers/${id}`, { name: 'sixth' }).expect(200);
    });

    it('relayer PATCH: existence and the body shape are answered before the precondition', async () => {
      const { etag } = await createRelayer();
      const missing = uid('missing');
      expectError(
        await app().patch(`/api/v1/relayers/${missing}`, { name: 'x' }).set('If-Match', etag),
        404,
        `Relayer with ID ${missing} not found`,
      );
      expectError(
        await app().patch(`/api/v1/relayers/${missing}`, { name: 7 }).set('If-Match', etag),
        400,
        'name must be 1 to 255 characters, not only whitespace',
      );
    });

    it('relayer DELETE: a stale tag is a 412 and the relayer stays; the current one deletes it', async () => {
      const { id, etag: stale } = await createRelayer();
      const current = await app().patch(`/api/v1/relayers/${id}`, { paused: true }).expect(200);
      expectError(
        await app().delete(`/api/v1/relayers/${id}`).set('If-Match', stale),
        412,
        'Precondition Failed',
      );
      expect(answer(await app().get(`/api/v1/relayers/${id}`).expect(200))).toEqual(answer(current));
      const res = await app().delete(`/api/v1/relayers/${id}`).set('If-Match', current.headers.etag);
      expect({ status: res.status, body: res.body as unknown }).toEqual({
        status: 200,
        body: successBody('Relayer deleted successfully'),
      });
      expectError(await app().get(`/api/v1/relayers/${id}`), 404, `Relayer with ID ${id} not found`);
    });

    it('notification PATCH and DELETE: stale → 412 with nothing changed; current → applied', async () => {
      const { id, etag: stale } = await createNotification();
      const current = await app()
        .patch(`/api/v1/notifications/${id}`, { url: 'https://hooks.example.com/v2' })
        .expect(200);
      const before = answer(await app().get(`/api/v1/notifications/${id}`).expect(200));
      expectError(
        await app()
          .patch(`/api/v1/notifications/${id}`, { url: 'https://hooks.example.com/lost' })
          .set('If-Match', stale),
        412,
        'Precondition Failed',
      );
      expectError(
        await app().delete(`/api/v1/notifications/${id}`).set('If-Match', stale),
        412,
        'Precondition Failed',
      );
      expect(answer(await app().get(`/api/v1/notifications/${id}`).expect(200))).toEqual(before);

      const patched = await app()
        .patch(`/api/v1/notifications/${id}`, { url: 'https://hooks.example.com/v3' })
        .set('If-Match', current.headers.etag);
      expect(answer(patched)).toEqual({
        status: 200,
        body: successBody({
          id,
          type: 'webhook',
          url: 'https://hooks.example.com/v3',
          has_signing_key: false,
        }),
        etag: expect.stringMatching(STRONG_TAG),
      });
      const deleted = await app().delete(`/api/v1/notifications/${id}`).set('If-Match', patched.headers.etag);
      expect({ status: deleted.status, body: deleted.body as unknown }).toEqual({
        status: 200,
        body: successBody('Notification deleted successfully'),
      });
      expectError(await app().get(`/api/v1/notifications/${id}`), 404, 'Notification not found');
    });

    it('two PATCHes of a relayer with the same If-Match at once: one 200, one 412, and the 200 is what is stored', async () => {
      for (let round = 0; round < 5; round++) {
        const { id, etag } = await createRelayer();
        const results = await Promise.all(
          ['left', 'right'].map((name) =>
            app().patch(`/api/v1/relayers/${id}`, { name }).set('If-Match', etag),
          ),
        );
        expect(results.map((r) => r.status).sort()).toEqual([200, 412]);
        const won = results.find((r) => r.status === 200) as Response;
        expectError(results.find((r) => r.status === 412) as Response, 412, 'Precondition Failed');
        expect(answer(await app().get(`/api/v1/relayers/${id}`).expect(200))).toEqual(answer(won));
      }
    });

    it('two PATCHes of a notification with the same If-Match at once: one 200, one 412', async () => {
      const { id, etag } = await createNotification();
      const results = await Promise.all(
        ['left', 'right'].map((to) =>
          app()
            .patch(`/api/v1/notifications/${id}`, { url: `https://hooks.example.com/${to}` })
            .set('If-Match', etag),
        ),
      );
      expect(results.map((r) => r.status).sort()).toEqual([200, 412]);
      const won = results.find((r) => r.status === 200) as Response;
      expect(answer(await app().get(`/api/v1/notifications/${id}`).expect(200))).toEqual(answer(won));
    });

    describeMysql('across two instances on one MySQL database', () => {
      let second: TestApp | undefined;
      beforeAll(async () => {
        second = await startTestApp({ DATABASE_URL: handle.database.url, API_KEY: handle.current.apiKey });
      });
      afterAll(() => second?.close());

      it('the same If-Match sent to each: one 200, one 412, the stored relayer is the 200, seen alike by both', async () => {
        const other = second as TestApp;
        for (let round = 0; round < 5; round++) {
          const { id, etag } = await createRelayer();
          const results = await Promise.all(
            [app(), other].map((instance, i) =>
              instance.patch(`/api/v1/relayers/${id}`, { name: `instance-${i}` }).set('If-Match', etag),
            ),
          );
          expect(results.map((r) => r.status).sort()).toEqual([200, 412]);
          const won = results.find((r) => r.status === 200) as Response;
          expectError(results.find((r) => r.status === 412) as Response, 412, 'Precondition Failed');
          for (const instance of [app(), other]) {
            expect(answer(await instance.get(`/api/v1/relayers/${id}`).expect(200))).toEqual(answer(won));
          }
        }
      });
    });
  });

  describe('dry_run on relayer create and PATCH', () => {
    it('POST ?dry_run=true: the very answer of the real create (status, body, ETag), nothing stored, no event', async () => {
      const target = await hook();
      const body = relayerBody({
        notification_id: target.id,
        policies: { min_balance: '123456789012345678901234567890' },
        custom_rpc_urls: [{ url: 'https://user:pw@rpc.example.com/v2/secret-part', weight: 30 }],
      });
      const { dry, dryEvents, real, realEvents } = await withStoppedClock(async () => {
        const dryRun = await eventsDuring(() => app().post('/api/v1/relayers?dry_run=true', body));
        expectError(
          await app().get(`/api/v1/relayers/${body.id}`),
          404,
          `Relayer with ID ${body.id} not found`,
        );
        expect(await handle.database.dump()).not.toContain(body.id);
        const realRun = await eventsDuring(() => app().post('/api/v1/relayers', body));
        return {
          dry: dryRun.result,
          dryEvents: dryRun.events,
          real: realRun.result,
          realEvents: realRun.events,
        };
      });
      expect(answer(dry)).toEqual(answer(real));
      expect(answer(real)).toEqual({
        status: 201,
        body: successBody(expect.objectContaining({ id: body.id, notification_id: target.id })),
        etag: expect.stringMatching(STRONG_TAG),
      });
      expect(dryEvents).toEqual([]);
      expect(realEvents).toEqual(expect.arrayContaining(['relayer.created.committing', 'relayer.created']));
      // The receiver gets the real create, and nothing before it from the dry run.
      const got = await receiver.waitFor(target.path, 1);
      expect(got.map((r) => [r.json.event, (r.json.payload.relayer as { id: string }).id])).toEqual([
        ['relayer_created', body.id],
      ]);
      expect(await deliveryCount(target.id)).toBe(1);
    });

    it('PATCH ?dry_run=true: the very answer of the real PATCH, the relayer unchanged until then, no event', async () => {
      const target = await hook();
      const { id } = await createRelayer({ notification_id: target.id });
      await receiver.waitFor(target.path, 1);
      const before = answer(await app().get(`/api/v1/relayers/${id}`).expect(200));
      const name = uid('dry-name');
      const change = { name, paused: true, policies: { gas_price_cap: 7 } };
      const ifMatch = before.etag as string;

      const { dry, dryEvents, real, realEvents } = await withStoppedClock(async () => {
        const dryRun = await eventsDuring(() =>
          app().patch(`/api/v1/relayers/${id}?dry_run=true`, change).set('If-Match', ifMatch),
        );
        expect(answer(await app().get(`/api/v1/relayers/${id}`).expect(200))).toEqual(before);
        expect(await handle.database.dump()).not.toContain(name);
        const realRun = await eventsDuring(() =>
          app().patch(`/api/v1/relayers/${id}`, change).set('If-Match', ifMatch),
        );
        return {
          dry: dryRun.result,
          dryEvents: dryRun.events,
          real: realRun.result,
          realEvents: realRun.events,
        };
      });
      expect(answer(dry)).toEqual(answer(real));
      expect(answer(real)).toEqual({
        status: 200,
        body: successBody(expect.objectContaining({ id, name, paused: true })),
        etag: expect.stringMatching(STRONG_TAG),
      });
      expect(real.headers.etag).not.toBe(ifMatch);
      expect(dryEvents).toEqual([]);
      expect(realEvents).toEqual(expect.arrayContaining(['relayer.updated.committing', 'relayer.updated']));
      const got = await receiver.waitFor(target.path, 2);
      expect(got.map((r) => r.json.event)).toEqual(['relayer_created', 'relayer_updated']);
      expect(await deliveryCount(target.id)).toBe(2);
    });

    it('every check runs: a dry run answers the same error as the real request, and changes nothing', async () => {
      const taken = await createRelayer();
      const signerInUse = (taken.res.body as { data: { signer_id: string } }).data.signer_id;
      const { id, etag: stale } = await createRelayer();
      await app().patch(`/api/v1/relayers/${id}`, { name: 'moved on' }).expect(200);
      const unknownNotification = uid('n');
      const gone = uid('gone');
      const cases: Array<[string, (dryRun: boolean) => Promise<Response>, number, string]> = [
        [
          'POST with a taken id',
          (d) => app().post(`/api/v1/relayers?dry_run=${d}`, relayerBody({ id: taken.id })),
          409,
          'Relayer with this ID already exists',
        ],
        [
          'POST with a signer in use on the network',
          (d) => app().post(`/api/v1/relayers?dry_run=${d}`, relayerBody({ signer_id: signerInUse })),
          400,
          `Signer with ID ${signerInUse} is already used by relayer ${taken.id} on evm network 'sepolia'`,
        ],
        [
          'POST with an unknown notification',
          (d) =>
            app().post(
              `/api/v1/relayers?dry_run=${d}`,
              relayerBody({ notification_id: unknownNotification }),
            ),
          400,
          `Notification with ID ${unknownNotification} not found`,
        ],
        [
          'POST with a bad body',
          (d) => app().post(`/api/v1/relayers?dry_run=${d}`, relayerBody({ name: ' ' })),
          400,
          'name must be 1 to 255 characters, not only whitespace',
        ],
        [
          'PATCH with a stale If-Match',
          (d) => app().patch(`/api/v1/relayers/${id}?dry_run=${d}`, { name: 'lost' }).set('If-Match', stale),
          412,
          'Precondition Failed',
        ],
        [
          'PATCH with an unknown notification',
          (d) => app().patch(`/api/v1/relayers/${id}?dry_run=${d}`, { notification_id: unknownNotification }),
          400,
          `Notification with ID ${unknownNotification} not found`,
        ],
        [
          'PATCH of an unknown relayer',
          (d) => app().patch(`/api/v1/relayers/${gone}?dry_run=${d}`, { name: 'x' }),
          404,
          `Relayer with ID ${gone} not found`,
        ],
      ];
      const stored = async () => answer(await app().get('/api/v1/relayers?per_page=100').expect(200));
      const before = await stored();
      for (const [what, send, status, message] of cases) {
        const dry = await send(true);
        const real = await send(false);
        expect({ what, dry: answer(dry), real: answer(real) }).toEqual({
          what,
          dry: { status, body: errorBody(message), etag: undefined },
          real: { status, body: errorBody(message), etag: undefined },
        });
      }
      expect(await stored()).toEqual(before);
    });

    it('dry_run=false is the real request; any other value is a 400 naming dry_run and changes nothing', async () => {
      const body = relayerBody();
      await app().post('/api/v1/relayers?dry_run=false', body).expect(201);
      await app().get(`/api/v1/relayers/${body.id}`).expect(200);
      await app().patch(`/api/v1/relayers/${body.id}?dry_run=false`, { name: 'really' }).expect(200);
      expect((await app().get(`/api/v1/relayers/${body.id}`).expect(200)).body.data).toMatchObject({
        name: 'really',
      });
      for (const value of ['TRUE', '1', 'yes', '', 'true&dry_run=true']) {
        const other = relayerBody();
        expectError(
          await app().post(`/api/v1/relayers?dry_run=${value}`, other),
          400,
          'dry_run must be true or false',
        );
        expectError(
          await app().get(`/api/v1/relayers/${other.id}`),
          404,
          `Relayer with ID ${other.id} not found`,
        );
        expectError(
          await app().patch(`/api/v1/relayers/${body.id}?dry_run=${value}`, { name: 'not this' }),
          400,
          'dry_run must be true or false',
        );
      }
      expect((await app().get(`/api/v1/relayers/${body.id}`).expect(200)).body.data).toMatchObject({
        name: 'really',
      });
    });
  });

  describe('reads while a write is under way', () => {
    /**
     * Holds the next transaction that publishes `event` open (its `.committing` subscribers run in
     * it), until `release`; then it fails, so the transaction rolls back.
     */
    const holdThenFail = (event: string) => {
      const emitter = app().app.get(EventEmitter2, { strict: false });
      let release!: () => void;
      let entered!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      const open = new Promise<void>((resolve) => (entered = resolve));
      const name = `${event}.committing`;
      // emitAsync (Tx.publish) awaits the promise a listener returns: that holds the transaction.
      const listener = async (): Promise<void> => {
        // eslint-disable-next-line @typescript-eslint/no-misused-promises -- see above
        emitter.off(name, listener);
        entered();
        await released;
        throw new Error('the test failed this transaction');
      };
      // eslint-disable-next-line @typescript-eslint/no-misused-promises -- see above
      emitter.on(name, listener);
      return { open, release };
    };
    /** Sends the reads while the transaction is open: each has answered, or waits, after 300 ms. */
    const readWhileOpen = async <T>(
      hold: { open: Promise<void>; release: () => void },
      reads: () => Promise<T>,
    ) => {
      await hold.open;
      const answered = reads();
      await Promise.race([answered, new Promise((resolve) => setTimeout(resolve, 300))]);
      hold.release();
      return answered;
    };

    it('a create rolled back was never visible: GET and the list answered without it, even while it was open', async () => {
      const hold = holdThenFail(RELAYER_EVENTS.created);
      const body = relayerBody();
      const created = app()
        .post('/api/v1/relayers', body)
        .then((res) => res);
      const [byId, list] = await readWhileOpen(hold, () =>
        Promise.all([
          app()
            .get(`/api/v1/relayers/${body.id}`)
            .then((res) => res),
          app()
            .get('/api/v1/relayers?per_page=100')
            .then((res) => res),
        ]),
      );
      expectError(await created, 500, 'Internal Server Error');
      expectError(byId, 404, `Relayer with ID ${body.id} not found`);
      expect(list.status).toBe(200);
      expect((list.body.data as Array<{ id: string }>).map((r) => r.id)).not.toContain(body.id);
      expectError(
        await app().get(`/api/v1/relayers/${body.id}`),
        404,
        `Relayer with ID ${body.id} not found`,
      );
    });

    it('a PATCH rolled back was never visible: a GET while it was open answered the relayer as stored', async () => {
      const { id } = await createRelayer();
      const stored = answer(await app().get(`/api/v1/relayers/${id}`).expect(200));
      const hold = holdThenFail(RELAYER_EVENTS.updated);
      const patched = app()
        .patch(`/api/v1/relayers/${id}`, { name: 'never' })
        .then((r) => r);
      const got = await readWhileOpen(hold, () =>
        app()
          .get(`/api/v1/relayers/${id}`)
          .then((r) => r),
      );
      expectError(await patched, 500, 'Internal Server Error');
      expect(answer(got)).toEqual(stored);
      expect(answer(await app().get(`/api/v1/relayers/${id}`))).toEqual(stored);
    });
  });
});

describe('the notification version migration', () => {
  let database: TestDatabase;
  let app: TestApp | undefined;
  beforeAll(async () => {
    database = await createTestDatabase({ empty: true });
  });
  afterAll(async () => {
    await app?.close();
    await database?.drop();
  });

  it('gives notifications stored before it version 1, which their ETag and If-Match then use', async () => {
    const dir = path.join(__dirname, '..', '..', 'src', 'database', 'migrations');
    const earlier = fs
      .readdirSync(dir)
      .filter((file) => file.endsWith('.ts') && file < '1795700000000')
      .map((file) => path.join(dir, file));
    const source = new DataSource({
      ...buildDataSourceOptions(parseDatabaseUrl(database.url)),
      migrations: earlier,
    });
    await source.initialize();
    try {
      await source.runMigrations({ transaction: 'all' });
      await source.query(
        "INSERT INTO notifications (id, type, url, signing_key, created_at, updated_at) VALUES ('old-one', 'webhook', 'https://hooks.example.com/old', NULL, '2026-01-02 03:04:05.678', '2026-01-02 03:04:05.678')",
      );
    } finally {
      await source.destroy();
    }

    app = await startTestApp({ DATABASE_URL: database.url });
    const got = await app.get('/api/v1/notifications/old-one').expect(200);
    expect(answer(got)).toEqual({
      status: 200,
      body: successBody({
        id: 'old-one',
        type: 'webhook',
        url: 'https://hooks.example.com/old',
        has_signing_key: false,
      }),
      etag: entityTag(1, new Date('2026-01-02T03:04:05.678Z')),
    });
    const patched = await app
      .patch('/api/v1/notifications/old-one', { url: 'https://hooks.example.com/new' })
      .set('If-Match', got.headers.etag)
      .expect(200);
    expect(patched.headers.etag).toBe(entityTag(2, new Date('2026-01-02T03:04:05.678Z')));
  });
});
