import { createHmac, randomBytes } from 'node:crypto';
import request from 'supertest';
import { expectError, successBody } from '../../support/envelope';
import { secrets } from '../../support/secrets';
import { useWebhookApp } from '../../support/webhook-app';
import { type ReceivedWebhook } from '../../support/webhook-receiver';
import { createKey, ISO, relayerBody } from '../../factories';

const ADMIN = { type: 'admin', id: 'admin', name: 'API_KEY' };
const SYSTEM = { type: 'system', id: 'system', name: 'service' };
const RUNNING = { paused: false, paused_reason: null, paused_at: null, signing_key_overlap_until: null };
const PAUSE_AFTER = 3;

interface AuditRecord {
  actor: object;
  action: string;
  resource_id: string;
  before: object | null;
  after: object | null;
}

/** What a receiver checks during a rotation: each signature header against each key. */
function signatures(received: ReceivedWebhook, keys: { current: string; previous: string }) {
  const base64 = (key: string) => createHmac('sha256', key).update(received.body).digest('base64');
  const [tPart, ...v1Parts] = String(received.headers['x-signature-256']).split(',');
  const t = Number(tPart.slice(2));
  const hex = (key: string) =>
    `v1=${createHmac('sha256', key).update(`${t}.${received.body}`).digest('hex')}`;
  return {
    signature: received.headers['x-signature'] === base64(keys.current) ? 'current' : 'other',
    previous:
      received.headers['x-signature-previous'] === undefined
        ? 'absent'
        : received.headers['x-signature-previous'] === base64(keys.previous)
          ? 'previous'
          : 'other',
    v1: v1Parts.map((part) =>
      part === hex(keys.current) ? 'current' : part === hex(keys.previous) ? 'previous' : 'other',
    ),
  };
}

describe('a target paused by hand or by itself, and its signing key rotated with an overlap (docs/reference/webhooks.md)', () => {
  const { receiver, app, target } = useWebhookApp({
    WEBHOOK_RETRY_BASE_MS: '40',
    WEBHOOK_TIMEOUT_MS: '400',
    WEBHOOK_MAX_ATTEMPTS: '2',
    WEBHOOK_PAUSE_AFTER_FAILURES: String(PAUSE_AFTER),
  });

  const state = async (id: string) =>
    (await app().get(`/api/v1/notifications/${id}/state`).expect(200)).body as object;
  /** A relayer on the target and `renames` PATCHes: 1 + renames events, in that commit order. */
  const events = async (hook: string, renames: number): Promise<string> => {
    const created = await app()
      .post('/api/v1/relayers', relayerBody('evm', { name: 'r0', notification_id: hook }))
      .expect(201);
    const id = created.body.data.id as string;
    for (let i = 1; i <= renames; i++)
      await app()
        .patch(`/api/v1/relayers/${id}`, { name: `r${i}` })
        .expect(200);
    return id;
  };
  const names = (got: ReceivedWebhook[]) =>
    got.map((r) => `${r.json.event}:${(r.json.payload.relayer as { name: string }).name}`);
  const statuses = async (hook: string) =>
    (
      (await app().get(`/api/v1/notifications/${hook}/deliveries?per_page=100`).expect(200)).body
        .data as Array<{
        status: string;
        event: string;
      }>
    )
      .map((d) => d.status)
      .reverse();
  const audit = async (id: string): Promise<AuditRecord[]> => {
    const res = await app().get(`/api/v1/audit?resource_type=notification&resource_id=${id}`).expect(200);
    expect(secrets.foundIn(res.text)).toEqual([]);
    // Newest first; what each record says, exactly.
    return (res.body.data as AuditRecord[])
      .filter((r) => r.action !== 'notification.create')
      .map(({ actor, action, resource_id, before, after }) => ({
        actor,
        action,
        resource_id,
        before,
        after,
      }));
  };
  const pausedGauge = async () =>
    Number(
      /^webhook_targets_paused (\d+)$/m.exec(
        (await app().get('/debug/metrics/scrape').expect(200)).text,
      )?.[1],
    );
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  it('GET state of a new target → 200, running, no overlap; the notification keeps exactly its shape', async () => {
    const hook = await target('/fresh');
    const res = await app().get(`/api/v1/notifications/${hook}/state`);
    expect({ status: res.status, body: res.body }).toEqual({ status: 200, body: successBody(RUNNING) });
    const notification = await app().get(`/api/v1/notifications/${hook}`);
    expect(notification.body).toEqual(
      successBody({ id: hook, type: 'webhook', url: receiver.url('/fresh'), has_signing_key: false }),
    );
  });

  it('an unknown target → 404 Notification not found for state, pause, resume and signing-key', async () => {
    const key = 'k'.repeat(40);
    expectError(await app().get('/api/v1/notifications/nope/state'), 404, 'Notification not found');
    expectError(
      await app().post('/api/v1/notifications/nope/pause', undefined),
      404,
      'Notification not found',
    );
    expectError(
      await app().post('/api/v1/notifications/nope/resume', undefined),
      404,
      'Notification not found',
    );
    expectError(
      await app().post('/api/v1/notifications/nope/signing-key', { signing_key: key, overlap_seconds: 0 }),
      404,
      'Notification not found',
    );
  });

  it('notifications:read reads the state; pause, resume and signing-key need notifications:write', async () => {
    const hook = await target('/permissions');
    const reader = (await createKey(app(), { name: 'reader', permissions: ['notifications:read'] })).key;
    const as = (method: 'get' | 'post', path: string, body?: object) => {
      const req = request(app().baseUrl)[method](path).set('Authorization', `Bearer ${reader}`);
      return body ? req.send(body) : req;
    };
    const read = await as('get', `/api/v1/notifications/${hook}/state`);
    expect({ status: read.status, body: read.body as object }).toEqual({
      status: 200,
      body: successBody(RUNNING),
    });
    expectError(await as('post', `/api/v1/notifications/${hook}/pause`), 403, 'Forbidden');
    expectError(await as('post', `/api/v1/notifications/${hook}/resume`), 403, 'Forbidden');
    expectError(
      await as('post', `/api/v1/notifications/${hook}/signing-key`, {
        signing_key: 'k'.repeat(40),
        overlap_seconds: 0,
      }),
      403,
      'Forbidden',
    );
    expect(await state(hook)).toEqual(successBody(RUNNING));
  });

  it('paused by hand: nothing attempted, events kept pending; resumed: the backlog arrives in commit order; both audited', async () => {
    const hook = await target('/by-hand');
    const paused = await app().post(`/api/v1/notifications/${hook}/pause`, undefined);
    const pausedState = {
      paused: true,
      paused_reason: 'paused by hand',
      paused_at: ISO,
      signing_key_overlap_until: null,
    };
    expect({ status: paused.status, body: paused.body }).toEqual({
      status: 200,
      body: successBody(pausedState),
    });
    // Pausing again changes nothing: the same state, the same time, no second record.
    const again = await app().post(`/api/v1/notifications/${hook}/pause`, undefined).expect(200);
    expect(again.body).toEqual(paused.body);
    expect(await state(hook)).toEqual(paused.body);
    expect(await pausedGauge()).toBe(1);

    await events(hook, 3);
    await sleep(800);
    expect(receiver.to('/by-hand')).toEqual([]);
    expect(await statuses(hook)).toEqual(['pending', 'pending', 'pending', 'pending']);

    const resumed = await app().post(`/api/v1/notifications/${hook}/resume`, undefined);
    expect({ status: resumed.status, body: resumed.body }).toEqual({
      status: 200,
      body: successBody(RUNNING),
    });
    expect(await pausedGauge()).toBe(0);
    const got = await receiver.waitFor('/by-hand', 4);
    expect(names(got)).toEqual([
      'relayer_created:r0',
      'relayer_updated:r1',
      'relayer_updated:r2',
      'relayer_updated:r3',
    ]);
    // Resuming a running target changes nothing.
    expect((await app().post(`/api/v1/notifications/${hook}/resume`, undefined).expect(200)).body).toEqual(
      successBody(RUNNING),
    );

    const records = await audit(hook);
    expect(records).toEqual([
      { actor: ADMIN, action: 'notification.update', resource_id: hook, before: pausedState, after: RUNNING },
      { actor: ADMIN, action: 'notification.update', resource_id: hook, before: RUNNING, after: pausedState },
    ]);
    expect(records[1].after).toEqual((paused.body as { data: object }).data);
  });

  it(`pauses itself after ${PAUSE_AFTER} deliveries in a row end failed: the system's change, nothing more attempted until resumed`, async () => {
    const hook = await target('/failing');
    receiver.script('/failing', [{ status: 410 }, { status: 410 }, { status: 410 }]);
    await events(hook, 5);
    await receiver.waitFor('/failing', PAUSE_AFTER);
    const deadline = Date.now() + 10_000;
    while (!((await state(hook)) as { data: { paused: boolean } }).data.paused && Date.now() < deadline)
      await sleep(25);
    const pausedState = {
      paused: true,
      paused_reason: `${PAUSE_AFTER} deliveries in a row failed; the last: HTTP 410`,
      paused_at: ISO,
      signing_key_overlap_until: null,
    };
    expect(await state(hook)).toEqual(successBody(pausedState));
    await sleep(800);
    // Three attempts, then none: the other three events wait, pending.
    expect(receiver.to('/failing').length).toBe(PAUSE_AFTER);
    expect(await statuses(hook)).toEqual(['failed', 'failed', 'failed', 'pending', 'pending', 'pending']);
    expect(await audit(hook)).toEqual([
      {
        actor: SYSTEM,
        action: 'notification.update',
        resource_id: hook,
        before: RUNNING,
        after: pausedState,
      },
    ]);

    await app().post(`/api/v1/notifications/${hook}/resume`, undefined).expect(200);
    const got = await receiver.waitFor('/failing', PAUSE_AFTER + 3);
    expect(names(got)).toEqual([
      'relayer_created:r0',
      'relayer_updated:r1',
      'relayer_updated:r2',
      'relayer_updated:r3',
      'relayer_updated:r4',
      'relayer_updated:r5',
    ]);
    expect(await audit(hook)).toEqual([
      { actor: ADMIN, action: 'notification.update', resource_id: hook, before: pausedState, after: RUNNING },
      {
        actor: SYSTEM,
        action: 'notification.update',
        resource_id: hook,
        before: RUNNING,
        after: pausedState,
      },
    ]);
  });

  it('counts only failures in a row: a delivery in between starts the count again', async () => {
    const hook = await target('/flaky');
    receiver.script('/flaky', [
      { status: 410 },
      { status: 410 },
      { status: 200 },
      { status: 410 },
      { status: 410 },
    ]);
    await events(hook, 5);
    await receiver.waitFor('/flaky', 6);
    const deadline = Date.now() + 10_000;
    while ((await statuses(hook)).includes('pending') && Date.now() < deadline) await sleep(25);
    expect(await statuses(hook)).toEqual(['failed', 'failed', 'delivered', 'failed', 'failed', 'delivered']);
    expect(await state(hook)).toEqual(successBody(RUNNING));
    expect(await audit(hook)).toEqual([]);
  });

  it('a target made again with the id of a deleted one starts its count afresh', async () => {
    const hook = await target('/reborn');
    receiver.script('/reborn', [{ status: 410 }, { status: 410 }, { status: 410 }]);
    const relayer = await events(hook, 1);
    await receiver.waitFor('/reborn', 2);
    const deadline = Date.now() + 10_000;
    while ((await statuses(hook)).includes('pending') && Date.now() < deadline) await sleep(25);
    expect(await statuses(hook)).toEqual(['failed', 'failed']);
    await app().patch(`/api/v1/relayers/${relayer}`, { notification_id: null }).expect(200);
    await app().delete(`/api/v1/notifications/${hook}`).expect(200);
    await app()
      .post('/api/v1/notifications', { id: hook, url: receiver.url('/reborn') })
      .expect(201);
    await app().patch(`/api/v1/relayers/${relayer}`, { notification_id: hook }).expect(200);
    await receiver.waitFor('/reborn', 3);
    while ((await statuses(hook)).includes('pending') && Date.now() < deadline) await sleep(25);
    expect(await statuses(hook)).toEqual(['failed']);
    expect(await state(hook)).toEqual(successBody(RUNNING));
  });

  it('rotation with an overlap: both signatures verify during it, only the new one after; no key in any answer', async () => {
    const old = secrets.add(`whsec-old-${randomBytes(20).toString('hex')}`);
    const current = secrets.add(`whsec-new-${randomBytes(20).toString('hex')}`);
    const keys = { current, previous: old };
    const hook = await target('/rotated', old);
    const before = Date.now();
    const rotated = await app().post(`/api/v1/notifications/${hook}/signing-key`, {
      signing_key: current,
      // 10 s: on a loaded CI machine the first delivery arrived after an overlap of 2 s (b42f252, MySQL).
      overlap_seconds: 10,
    });
    expect({ status: rotated.status, body: rotated.body }).toEqual({
      status: 200,
      body: successBody({ ...RUNNING, signing_key_overlap_until: ISO }),
    });
    const until = Date.parse(
      (rotated.body.data as { signing_key_overlap_until: string }).signing_key_overlap_until,
    );
    expect(until - before).toBeGreaterThanOrEqual(9900);
    expect(until - Date.now()).toBeLessThanOrEqual(10000);
    expect(await state(hook)).toEqual(rotated.body);

    const relayer = await events(hook, 0);
    const [during] = await receiver.waitFor('/rotated', 1);
    expect(signatures(during, keys)).toEqual({
      signature: 'current',
      previous: 'previous',
      v1: ['current', 'previous'],
    });

    await sleep(Math.max(0, until - Date.now()) + 100);
    expect(await state(hook)).toEqual(successBody(RUNNING));
    await app().patch(`/api/v1/relayers/${relayer}`, { name: 'after' }).expect(200);
    const [, after] = await receiver.waitFor('/rotated', 2);
    expect(signatures(after, keys)).toEqual({ signature: 'current', previous: 'absent', v1: ['current'] });

    const notification = await app().get(`/api/v1/notifications/${hook}`).expect(200);
    expect(notification.body.data).toEqual({
      id: hook,
      type: 'webhook',
      url: receiver.url('/rotated'),
      has_signing_key: true,
    });
    for (const text of [rotated.text, notification.text]) expect(secrets.foundIn(text)).toEqual([]);
    // Audited as the notification's change, the key never in it.
    const audited = { ...(notification.body.data as object), url: receiver.url('/***') };
    expect(await audit(hook)).toEqual([
      { actor: ADMIN, action: 'notification.update', resource_id: hook, before: audited, after: audited },
    ]);
  });

  it('rotation without overlap, or of a target without a key, signs with the new key alone; PATCH replaces at once', async () => {
    const first = secrets.add(`whsec-1-${randomBytes(20).toString('hex')}`);
    const second = secrets.add(`whsec-2-${randomBytes(20).toString('hex')}`);
    const third = secrets.add(`whsec-3-${randomBytes(20).toString('hex')}`);
    const hook = await target('/replaced');
    const keyless = await app().post(`/api/v1/notifications/${hook}/signing-key`, {
      signing_key: first,
      overlap_seconds: 600,
    });
    expect(keyless.body).toEqual(successBody(RUNNING));
    const none = await app().post(`/api/v1/notifications/${hook}/signing-key`, {
      signing_key: second,
      overlap_seconds: 0,
    });
    expect(none.body).toEqual(successBody(RUNNING));
    const relayer = await events(hook, 0);
    const [one] = await receiver.waitFor('/replaced', 1);
    expect(signatures(one, { current: second, previous: first })).toEqual({
      signature: 'current',
      previous: 'absent',
      v1: ['current'],
    });

    // An overlap under way ends with a PATCH of the key.
    await app()
      .post(`/api/v1/notifications/${hook}/signing-key`, { signing_key: first, overlap_seconds: 600 })
      .expect(200);
    expect(
      ((await state(hook)) as { data: { signing_key_overlap_until: string | null } }).data
        .signing_key_overlap_until,
    ).toEqual(ISO);
    await app().patch(`/api/v1/notifications/${hook}`, { signing_key: third }).expect(200);
    expect(await state(hook)).toEqual(successBody(RUNNING));
    await app().patch(`/api/v1/relayers/${relayer}`, { name: 'patched' }).expect(200);
    const [, two] = await receiver.waitFor('/replaced', 2);
    expect(signatures(two, { current: third, previous: first })).toEqual({
      signature: 'current',
      previous: 'absent',
      v1: ['current'],
    });
  });

  it('signing-key bodies are validated: 400 naming the field, nothing changed', async () => {
    const hook = await target('/invalid', secrets.add(`whsec-${randomBytes(20).toString('hex')}`));
    const key = secrets.add(`whsec-${randomBytes(20).toString('hex')}`);
    const keyRule = 'signing_key must be a string of 32 to 1024 characters';
    const overlapRule = 'overlap_seconds must be a whole number from 0 to 604800';
    const cases: Array<[object, string]> = [
      [{ overlap_seconds: 10 }, keyRule],
      [{ signing_key: 'short', overlap_seconds: 10 }, keyRule],
      [{ signing_key: 42, overlap_seconds: 10 }, keyRule],
      [{ signing_key: key }, overlapRule],
      [{ signing_key: key, overlap_seconds: -1 }, overlapRule],
      [{ signing_key: key, overlap_seconds: 604_801 }, overlapRule],
      [{ signing_key: key, overlap_seconds: 1.5 }, overlapRule],
      [{ signing_key: key, overlap_seconds: '60' }, overlapRule],
      [{ signing_key: key, overlap_seconds: 60, extra: 1 }, 'extra is not an allowed field'],
    ];
    for (const [body, message] of cases) {
      const res = await app().post(`/api/v1/notifications/${hook}/signing-key`, body);
      expectError(res, 400, message);
      expect(secrets.foundIn(res.text)).toEqual([]);
    }
    expect(await state(hook)).toEqual(successBody(RUNNING));
    expect(await audit(hook)).toEqual([]);
    const max = await app().post(`/api/v1/notifications/${hook}/signing-key`, {
      signing_key: key,
      overlap_seconds: 604_800,
    });
    expect(max.status).toBe(200);
    expect(
      Date.parse((max.body.data as { signing_key_overlap_until: string }).signing_key_overlap_until) -
        Date.now(),
    ).toBeGreaterThan(604_790_000);
    expect((await audit(hook)).map((r) => r.resource_id)).toEqual([hook]);
  });
});
