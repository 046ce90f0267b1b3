import { as } from '../../support/as-key';
import { expectError, successBody } from '../../support/envelope';
import { useWebhookApp, type Delivery } from '../../support/webhook-app';
import { createKey, relayerBody, subscribe, uid } from '../../factories';

interface Listed {
  data: Array<Delivery & { notification_id: string }>;
  pagination: { current_page: number; per_page: number; total_items: number };
}

const page = (data: unknown[], current_page: number, per_page: number, total_items: number) => ({
  ...successBody(data),
  pagination: { current_page, per_page, total_items },
});

/** Newest first, as every delivery log: by creation, then id (byte order), both descending. */
const newestFirst = (a: Delivery, b: Delivery) =>
  a.created_at === b.created_at ? (a.id < b.id ? 1 : -1) : a.created_at < b.created_at ? 1 : -1;

/**
 * docs/reference/webhooks.md#312-the-deliveries-of-one-relayer: a relayer's events go to every
 * target that hears it, and its page lists them all, whatever the target.
 */
describe('GET /relayers/{id}/deliveries: the deliveries about one relayer, to every target', () => {
  const { app, target, settled } = useWebhookApp({ WEBHOOK_RETRY_BASE_MS: '40' });
  const list = async (relayerId: string, query = '', token = app().apiKey) => {
    const res = await as(app(), token).get(`/api/v1/relayers/${relayerId}/deliveries${query}`);
    return { status: res.status, body: res.body as Listed };
  };
  /** A target's log about one relayer, each item with its target's id, as the relayer's list answers it. */
  const aboutRelayer = async (notificationId: string, relayerId: string) =>
    (
      (
        await app()
          .get(`/api/v1/notifications/${notificationId}/deliveries?relayer_id=${relayerId}&per_page=100`)
          .expect(200)
      ).body as Listed
    ).data.map((d) => ({ ...d, notification_id: notificationId }));

  it('lists the deliveries to its own target and to the targets subscribed to it, newest first, each with its notification_id; paged and filtered by status in the query', async () => {
    // Its own target, paused: its deliveries stay pending. A target subscribed to it: delivered.
    const own = await target('/own');
    await app().post(`/api/v1/notifications/${own}/pause`).expect(200);
    const subscribed = await target('/subscribed');
    const unrelated = await target('/unrelated');
    const relayer = uid('r');
    await subscribe(app(), subscribed, { relayer_ids: [relayer] });
    await app()
      .post(
        '/api/v1/relayers',
        relayerBody('evm', { id: relayer, name: 'heard twice', notification_id: own }),
      )
      .expect(201);
    await app().patch(`/api/v1/relayers/${relayer}`, { name: 'renamed' }).expect(200);
    // Another relayer of the same own target, and one of another target: not this relayer's.
    await app()
      .post('/api/v1/relayers', relayerBody('evm', { name: 'neighbour', notification_id: own }))
      .expect(201);
    await app()
      .post('/api/v1/relayers', relayerBody('evm', { name: 'elsewhere', notification_id: unrelated }))
      .expect(201);
    await settled(subscribed, 2);

    const all = [...(await aboutRelayer(own, relayer)), ...(await aboutRelayer(subscribed, relayer))].sort(
      newestFirst,
    );
    expect(all.map((d) => [d.notification_id, d.event, d.status])).toEqual(
      expect.arrayContaining([
        [own, 'relayer_created', 'pending'],
        [own, 'relayer_updated', 'pending'],
        [subscribed, 'relayer_created', 'delivered'],
        [subscribed, 'relayer_updated', 'delivered'],
      ]),
    );
    expect(all).toHaveLength(4);
    expect(all[0]).toEqual({
      id: expect.any(String),
      event_id: expect.any(String),
      event: 'relayer_updated',
      relayer_id: relayer,
      status: expect.any(String),
      attempts: expect.any(Number),
      last_status_code: all[0].status === 'delivered' ? 200 : null,
      last_error: null,
      next_attempt_at: all[0].status === 'pending' ? expect.any(String) : null,
      created_at: expect.any(String),
      delivered_at: all[0].status === 'delivered' ? expect.any(String) : null,
      notification_id: all[0].status === 'pending' ? own : subscribed,
    });

    expect(await list(relayer)).toEqual({ status: 200, body: page(all, 1, 10, 4) });
    expect(await list(relayer, '?per_page=3&page=2')).toEqual({ status: 200, body: page([all[3]], 2, 3, 4) });
    expect(await list(relayer, '?status=delivered')).toEqual({
      status: 200,
      body: page(
        all.filter((d) => d.status === 'delivered'),
        1,
        10,
        2,
      ),
    });
    expect(await list(relayer, '?status=failed')).toEqual({ status: 200, body: page([], 1, 10, 0) });
  });

  it('an unknown relayer, or a path that cannot be a relayer id: 404 Relayer with ID <id> not found; a bad status, page or an unknown key: 400 naming it', async () => {
    const missing = uid('missing');
    expectError(
      await app().get(`/api/v1/relayers/${missing}/deliveries`),
      404,
      `Relayer with ID ${missing} not found`,
    );
    expectError(await app().get('/api/v1/relayers/a%20b/deliveries'), 404, 'Relayer with ID a b not found');
    const relayer = uid('r');
    await app()
      .post('/api/v1/relayers', relayerBody('evm', { id: relayer, name: 'refusals' }))
      .expect(201);
    expect(await list(relayer)).toEqual({ status: 200, body: page([], 1, 10, 0) });
    expectError(
      await app().get(`/api/v1/relayers/${relayer}/deliveries?status=lost`),
      400,
      'status must be one of: pending, delivered, failed',
    );
    expectError(
      await app().get(`/api/v1/relayers/${relayer}/deliveries?per_page=101`),
      400,
      'per_page must be a whole number from 1 to 100',
    );
    expectError(
      await app().get(`/api/v1/relayers/${relayer}/deliveries?relayer_id=${relayer}`),
      400,
      'relayer_id is not an allowed field',
    );
    // Deleted: its deliveries stay in the targets' logs, the relayer's list is gone with it.
    await app().delete(`/api/v1/relayers/${relayer}`).expect(200);
    expectError(
      await app().get(`/api/v1/relayers/${relayer}/deliveries`),
      404,
      `Relayer with ID ${relayer} not found`,
    );
  });

  it('a key limited to some relayers: its relayer deliveries to the targets of its scope only; a relayer outside it is missing', async () => {
    const teamHook = uid('team-a-hook');
    const shared = uid('ops-hook');
    for (const id of [teamHook, shared]) {
      await app().post('/api/v1/notifications', { id, url: 'https://hooks.example.com/scoped' }).expect(201);
      await app().post(`/api/v1/notifications/${id}/pause`).expect(200);
    }
    const mine = uid('team-a-r');
    const theirs = uid('team-b-r');
    await subscribe(app(), shared, { relayer_ids: [mine] });
    await app()
      .post('/api/v1/relayers', relayerBody('evm', { id: mine, name: 'mine', notification_id: teamHook }))
      .expect(201);
    await app()
      .post('/api/v1/relayers', relayerBody('evm', { id: theirs, name: 'theirs', notification_id: shared }))
      .expect(201);
    const { key } = await createKey(app(), {
      name: 'team a',
      permissions: ['notifications:read'],
      relayer_ids: ['team-a-*'],
    });
    const ownOnly = await aboutRelayer(teamHook, mine);
    expect(ownOnly.map((d) => [d.notification_id, d.event])).toEqual([[teamHook, 'relayer_created']]);
    // The administrator sees both: the team's target and the shared one, which the key may not read.
    expect((await list(mine)).body.pagination.total_items).toBe(2);
    expect(await list(mine, '', key)).toEqual({ status: 200, body: page(ownOnly, 1, 10, 1) });
    expectError(
      await as(app(), key).get(`/api/v1/relayers/${theirs}/deliveries`),
      404,
      `Relayer with ID ${theirs} not found`,
    );
  });

  it('notifications:read is needed, and enough', async () => {
    const relayer = uid('r');
    await app()
      .post('/api/v1/relayers', relayerBody('evm', { id: relayer, name: 'permissions' }))
      .expect(201);
    const keyWith = async (permissions: string[]) =>
      (await createKey(app(), { name: 'list', permissions })).key;
    expectError(
      await as(app(), await keyWith(['relayers:read', 'notifications:write'])).get(
        `/api/v1/relayers/${relayer}/deliveries`,
      ),
      403,
      'Forbidden',
    );
    expectError(await app().get(`/api/v1/relayers/${relayer}/deliveries`, false), 401, 'Unauthorized');
    expect(await list(relayer, '', await keyWith(['notifications:read']))).toEqual({
      status: 200,
      body: page([], 1, 10, 0),
    });
  });
});
