import { expectError, successBody } from '../../support/envelope';
import { useWebhookApp } from '../../support/webhook-app';
import { type ReceivedWebhook } from '../../support/webhook-receiver';
import { createKey, relayerBody, uid } from '../../factories';

const ALL_EVENTS =
  'relayer_created, relayer_updated, relayer_deleted, relayer_state_update, notification_test, relayer_low_balance, relayer_balance_restored';

describe('webhook subscriptions: a target chooses the events and the relayers it hears of (docs/reference/webhooks.md#6-subscriptions)', () => {
  const {
    receiver,
    app,
    target,
    settled: settledOne,
  } = useWebhookApp({ WEBHOOK_RETRY_BASE_MS: '40', WEBHOOK_TIMEOUT_MS: '30000' });

  const put = (notificationId: string, body: unknown, key = app().apiKey) =>
    app()
      .raw()
      .put(`/api/v1/notifications/${notificationId}/subscription`)
      .set('Authorization', `Bearer ${key}`)
      .send(body as object);
  const subscribe = async (notificationId: string, body: object) =>
    (await put(notificationId, body).expect(200)).body as unknown;
  const createRelayer = async (notificationId: string | null, id = uid('r')) => {
    await app()
      .post('/api/v1/relayers', relayerBody('evm', { id, name: 'n0', notification_id: notificationId }))
      .expect(201);
    return id;
  };
  const rename = (id: string, name: string) => app().patch(`/api/v1/relayers/${id}`, { name }).expect(200);
  /** Polls until no delivery of these targets is pending (deadline 15 s). */
  const settled = (...ids: string[]) => Promise.all(ids.map((id) => settledOne(id, 0)));
  /** What a path received: the event and the relayer's id and name, in arrival order. */
  const heard = (path: string) =>
    receiver.to(path).map((r: ReceivedWebhook) => {
      const relayer = r.json.payload.relayer as { id: string; name: string };
      return [r.json.event, relayer.id, relayer.name];
    });

  it('GET answers the default; PUT answers what GET then reads (no repeats, ids sorted); each change is audited as notification.update', async () => {
    const hook = await target('/unused');
    expect(
      (await app().get(`/api/v1/notifications/${hook}/subscription`).expect(200)).body as unknown,
    ).toEqual(successBody({ events: null, relayer_ids: null }));
    const subscription = {
      events: ['relayer_deleted', 'relayer_created', 'relayer_deleted'],
      relayer_ids: ['r-b', 'r-a', 'r-b'],
    };
    const expected = { events: ['relayer_created', 'relayer_deleted'], relayer_ids: ['r-a', 'r-b'] };
    expect(await subscribe(hook, subscription)).toEqual(successBody(expected));
    expect(
      (await app().get(`/api/v1/notifications/${hook}/subscription`).expect(200)).body as unknown,
    ).toEqual(successBody(expected));
    // The same again changes nothing and records nothing.
    expect(await subscribe(hook, subscription)).toEqual(successBody(expected));
    expect(await subscribe(hook, { relayer_ids: ['*'] })).toEqual(
      successBody({ events: null, relayer_ids: ['*'] }),
    );
    // The notification itself keeps its shape.
    expect((await app().get(`/api/v1/notifications/${hook}`).expect(200)).body as unknown).toEqual(
      successBody({ id: hook, type: 'webhook', url: receiver.url('/unused'), has_signing_key: false }),
    );

    const audit = (
      await app().get(`/api/v1/audit?resource_type=notification&resource_id=${hook}`).expect(200)
    ).body as { data: Array<{ action: string; before: unknown; after: unknown }> };
    expect(audit.data.map(({ action, before, after }) => ({ action, before, after }))).toEqual([
      {
        action: 'notification.update',
        before: { subscription: expected },
        after: { subscription: { events: null, relayer_ids: ['*'] } },
      },
      {
        action: 'notification.update',
        before: { subscription: { events: null, relayer_ids: null } },
        after: { subscription: expected },
      },
      {
        action: 'notification.create',
        before: null,
        after: expect.objectContaining({ id: hook }) as unknown,
      },
    ]);
  });

  it('a target subscribed to some relayers and events hears exactly those, a relayer that does not exist yet included; its own relayers are unaffected', async () => {
    const own = await target('/own');
    const subscriber = await target('/subscriber');
    const later = uid('later');
    const first = uid('r');
    await subscribe(subscriber, {
      events: ['relayer_updated', 'relayer_deleted'],
      relayer_ids: [first, later],
    });

    await createRelayer(own, first);
    const other = await createRelayer(own);
    await rename(first, 'n1');
    await rename(other, 'n1');
    await app().delete(`/api/v1/relayers/${first}`).expect(200);
    // Named by the subscription before it existed; it has no target of its own.
    await createRelayer(null, later);
    await rename(later, 'n1');

    await receiver.waitFor('/subscriber', 3);
    await receiver.waitFor('/own', 5);
    await settled(own, subscriber);
    expect(heard('/subscriber')).toEqual([
      ['relayer_updated', first, 'n1'],
      ['relayer_deleted', first, 'n1'],
      ['relayer_updated', later, 'n1'],
    ]);
    expect(heard('/own')).toEqual([
      ['relayer_created', first, 'n0'],
      ['relayer_created', other, 'n0'],
      ['relayer_updated', first, 'n1'],
      ['relayer_updated', other, 'n1'],
      ['relayer_deleted', first, 'n1'],
    ]);
  });

  it('"*": every relayer, whatever its target; its own relayer and "*" give one delivery; its events filter its own relayers too; null relayer_ids: its own only', async () => {
    const all = await target('/all');
    const elsewhere = await target('/elsewhere');
    await subscribe(all, { events: null, relayer_ids: ['*'] });
    const mine = await createRelayer(all);
    const theirs = await createRelayer(elsewhere);
    const none = await createRelayer(null);
    await receiver.waitFor('/all', 3);
    await settled(all, elsewhere);
    expect(heard('/all')).toEqual([
      ['relayer_created', mine, 'n0'],
      ['relayer_created', theirs, 'n0'],
      ['relayer_created', none, 'n0'],
    ]);
    expect(heard('/elsewhere')).toEqual([['relayer_created', theirs, 'n0']]);

    // Its own relayer's events are filtered by its events as well.
    await subscribe(all, { events: ['relayer_deleted'], relayer_ids: ['*'] });
    await rename(mine, 'n1');
    await rename(theirs, 'n1');
    await app().delete(`/api/v1/relayers/${none}`).expect(200);
    await receiver.waitFor('/all', 4);
    await receiver.waitFor('/elsewhere', 2);
    // Back to its own relayers, every event.
    await subscribe(all, { events: null, relayer_ids: null });
    await rename(mine, 'n2');
    await rename(theirs, 'n2');
    await receiver.waitFor('/all', 5);
    await receiver.waitFor('/elsewhere', 3);
    await settled(all, elsewhere);
    expect(heard('/all')).toEqual([
      ['relayer_created', mine, 'n0'],
      ['relayer_created', theirs, 'n0'],
      ['relayer_created', none, 'n0'],
      ['relayer_deleted', none, 'n0'],
      ['relayer_updated', mine, 'n2'],
    ]);
    expect(heard('/elsewhere')).toEqual([
      ['relayer_created', theirs, 'n0'],
      ['relayer_updated', theirs, 'n1'],
      ['relayer_updated', theirs, 'n2'],
    ]);
  });

  it('relayer ids are compared exactly: a subscription to R-X does not hear of r-x', async () => {
    const hook = await target('/exact');
    const lower = uid('r');
    const exact = uid('r');
    await subscribe(hook, { relayer_ids: [lower.toUpperCase(), exact] });
    await createRelayer(null, lower);
    await createRelayer(null, exact);
    await receiver.waitFor('/exact', 1);
    await settled(hook);
    expect(heard('/exact')).toEqual([['relayer_created', exact, 'n0']]);
  });

  it('notification_test is sent whatever the events say', async () => {
    const hook = await target('/tested');
    await subscribe(hook, { events: ['relayer_deleted'], relayer_ids: null });
    const tried = await app().post(`/api/v1/notifications/${hook}/test`).expect(200);
    expect(tried.body).toEqual(
      successBody({
        delivered: true,
        status_code: 200,
        error: null,
        duration_ms: expect.any(Number) as unknown,
      }),
    );
    expect(receiver.to('/tested').map((r) => r.json.event)).toEqual(['notification_test']);
  });

  it('400 names the field: events empty or not a list, an unknown event name, relayer_ids empty, too long, "*" with ids, a bad id, an unknown key', async () => {
    const hook = await target('/refused');
    const cases: Array<[unknown, string]> = [
      [{ events: [] }, 'events must be a non-empty array of event names, or null'],
      [{ events: 'relayer_created' }, 'events must be a non-empty array of event names, or null'],
      [{ events: ['relayer_created', 'relayer_exploded'] }, `events[1] must be one of: ${ALL_EVENTS}`],
      [{ events: [7] }, `events[0] must be one of: ${ALL_EVENTS}`],
      [{ relayer_ids: [] }, 'relayer_ids must be ["*"], an array of 1 to 1000 relayer ids, or null'],
      [
        { relayer_ids: Array.from({ length: 1001 }, (_, i) => `r-${i}`) },
        'relayer_ids must be ["*"], an array of 1 to 1000 relayer ids, or null',
      ],
      [{ relayer_ids: ['r-a', '*'] }, 'relayer_ids[1]: "*" must be the only item'],
      [
        { relayer_ids: ['r-a', 'no spaces'] },
        "relayer_ids[1] must be 1 to 36 characters of letters, digits, '-' or '_', or \"*\"",
      ],
      [{ events: null, relayer_ids: null, relayers: ['*'] }, 'relayers is not an allowed field'],
    ];
    for (const [body, message] of cases) expectError(await put(hook, body), 400, message);
    // Nothing was written.
    expect(
      (await app().get(`/api/v1/notifications/${hook}/subscription`).expect(200)).body as unknown,
    ).toEqual(successBody({ events: null, relayer_ids: null }));
    // 1000 ids are accepted.
    const many = Array.from({ length: 1000 }, (_, i) => `r-${String(i).padStart(4, '0')}`);
    expect(await subscribe(hook, { relayer_ids: many })).toEqual(
      successBody({ events: null, relayer_ids: many }),
    );
  });

  it('404 for an unknown target; read with notifications:read, written with notifications:write; deleting the target removes its subscription', async () => {
    for (const res of [
      await app().get(`/api/v1/notifications/${uid('none')}/subscription`),
      await put(uid('none'), { relayer_ids: ['*'] }),
      await put('not an id', { relayer_ids: ['*'] }),
    ]) {
      expectError(res, 404, 'Notification not found');
    }
    const hook = await target('/keys');
    const keyWith = async (permissions: string[]) =>
      (await createKey(app(), { name: 'subscriber', permissions })).key;
    const reader = await keyWith(['notifications:read']);
    const writer = await keyWith(['notifications:write']);
    expectError(await put(hook, { relayer_ids: ['*'] }, reader), 403, 'Forbidden');
    expect((await put(hook, { relayer_ids: ['*'] }, writer)).body as unknown).toEqual(
      successBody({ events: null, relayer_ids: ['*'] }),
    );
    const read = await app()
      .raw()
      .get(`/api/v1/notifications/${hook}/subscription`)
      .set('Authorization', `Bearer ${reader}`);
    expect({ status: read.status, body: read.body as unknown }).toEqual({
      status: 200,
      body: successBody({ events: null, relayer_ids: ['*'] }),
    });

    await app().delete(`/api/v1/notifications/${hook}`).expect(200);
    expectError(await app().get(`/api/v1/notifications/${hook}/subscription`), 404, 'Notification not found');
    await app()
      .post('/api/v1/notifications', { id: hook, url: receiver.url('/keys') })
      .expect(201);
    expect(
      (await app().get(`/api/v1/notifications/${hook}/subscription`).expect(200)).body as unknown,
    ).toEqual(successBody({ events: null, relayer_ids: null }));
  });
});
