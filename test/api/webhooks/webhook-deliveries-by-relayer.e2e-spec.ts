import { expectError, successBody } from '../../support/envelope';
import { as } from '../../support/as-key';
import { useTestApp } from '../../support/test-app';
import { createKey, relayerBody, uid } from '../../factories';

/**
 * docs/reference/webhooks.md#311-the-deliveries-about-one-relayer: `relayer_id` narrows a target's delivery log to the
 * deliveries about one relayer, its id compared exactly, counted and paged in the query; a scoped key's
 * rules are unchanged (docs/reference/keys-and-audit.md#3-relayer-scope).
 */
describe('GET /notifications/{id}/deliveries?relayer_id=: the deliveries about one relayer', () => {
  const handle = useTestApp();
  const app = () => handle.current;
  type Delivery = { id: string; event: string; relayer_id: string | null; status: string };
  const hook = uid('hook');
  const other = uid('hook');
  // Mixed case: MySQL's collation would match the id in another case; the filter must not.
  const first = `Dl-${uid('A')}`;
  const second = `Dl-${uid('B')}`;
  const elsewhere = `Dl-${uid('C')}`;
  const list = async (query: string, token = app().apiKey) =>
    (await as(app(), token).get(`/api/v1/notifications/${hook}/deliveries${query}`).expect(200)).body as {
      data: Delivery[];
      pagination: { current_page: number; per_page: number; total_items: number };
    };
  const page = (data: unknown[], current_page: number, per_page: number, total_items: number) => ({
    ...successBody(data),
    pagination: { current_page, per_page, total_items },
  });

  beforeAll(async () => {
    // Paused targets: every delivery stays pending, so the log holds still while it is read.
    for (const id of [hook, other]) {
      await app().post('/api/v1/notifications', { id, url: 'https://hooks.example.com/hook' }).expect(201);
      await app().post(`/api/v1/notifications/${id}/pause`).expect(200);
    }
    await app()
      .post('/api/v1/relayers', relayerBody('evm', { id: first, notification_id: hook }))
      .expect(201);
    await app()
      .post('/api/v1/relayers', relayerBody('evm', { id: second, notification_id: hook }))
      .expect(201);
    await app().patch(`/api/v1/relayers/${first}`, { name: 'renamed' }).expect(200);
    await app()
      .post('/api/v1/relayers', relayerBody('evm', { id: elsewhere, notification_id: other }))
      .expect(201);
  });

  it('answers only the deliveries about that relayer, newest first, with their count', async () => {
    const all = await list('?per_page=100');
    expect(all.data.map((d) => [d.event, d.relayer_id])).toEqual([
      ['relayer_updated', first],
      ['relayer_created', second],
      ['relayer_created', first],
    ]);
    expect(await list(`?relayer_id=${first}`)).toEqual(
      page(
        all.data.filter((d) => d.relayer_id === first),
        1,
        10,
        2,
      ),
    );
    expect(await list(`?relayer_id=${second}`)).toEqual(page([all.data[1]], 1, 10, 1));
  });

  it('pages and filters by status within the relayer, in the query', async () => {
    const all = await list('?per_page=100');
    expect(await list(`?relayer_id=${first}&per_page=1&page=2`)).toEqual(page([all.data[2]], 2, 1, 2));
    expect(await list(`?relayer_id=${first}&status=pending`)).toEqual(
      page([all.data[0], all.data[2]], 1, 10, 2),
    );
    expect(await list(`?relayer_id=${first}&status=delivered`)).toEqual(page([], 1, 10, 0));
  });

  it('compares the id exactly: another case, another target’s relayer or an unknown id finds nothing', async () => {
    for (const id of [first.toLowerCase(), first.toUpperCase(), elsewhere, 'no-such-relayer']) {
      expect(await list(`?relayer_id=${id}`)).toEqual(page([], 1, 10, 0));
    }
  });

  it('refuses a relayer_id that is not a relayer id (400 naming it); an unknown target is still a 404', async () => {
    const rule = "relayer_id must be 1 to 36 characters of letters, digits, '-' or '_'";
    for (const query of ['relayer_id=', 'relayer_id=a%20b', `relayer_id=${'x'.repeat(37)}`]) {
      expectError(await app().get(`/api/v1/notifications/${hook}/deliveries?${query}`), 400, rule);
    }
    expectError(
      await app().get(`/api/v1/notifications/${uid('none')}/deliveries?relayer_id=${first}`),
      404,
      'Notification not found',
    );
  });

  it('keeps a scoped key within its scope: a relayer outside it finds nothing', async () => {
    const { key } = await createKey(app(), {
      name: 'deliveries-scope',
      permissions: ['notifications:read'],
      // The target too: a key's relayer_ids cover targets (docs/reference/keys-and-audit.md#36-signers-and-notification-targets).
      relayer_ids: [first, hook],
    });
    const all = await list('?per_page=100');
    expect(await list(`?relayer_id=${first}`, key)).toEqual(page([all.data[0], all.data[2]], 1, 10, 2));
    expect(await list(`?relayer_id=${second}`, key)).toEqual(page([], 1, 10, 0));
  });
});
