import { expectError } from '../../support/envelope';
import { as } from '../../support/as-key';
import type { TestApp } from '../../support/test-app';
import { useWebhookApp } from '../../support/webhook-app';
import { createKey, relayerBody, uid } from '../../factories';

/** docs/reference/pagination.md#17-cursors: the audit trail and the delivery logs by keyset. */
describe('cursors for the audit trail and the delivery logs', () => {
  const { app, target } = useWebhookApp({ WEBHOOK_RETRY_BASE_MS: '40', WEBHOOK_MAX_ATTEMPTS: '1' });

  interface Listed {
    data: Array<{ id: string }>;
    pagination: Record<string, unknown>;
  }

  const read = async (client: TestApp | ReturnType<typeof as>, path: string): Promise<Listed> => {
    const res = await client.get(path);
    expect(res.status).toBe(200);
    return res.body as Listed;
  };

  /** Every id of a list by number, newest first: what a traversal started now must answer. */
  const allByNumber = async (path: string, client: TestApp | ReturnType<typeof as> = app()) => {
    const ids: string[] = [];
    for (let page = 1; ; page++) {
      const { data } = await read(
        client,
        `${path}${path.includes('?') ? '&' : '?'}per_page=100&page=${page}`,
      );
      ids.push(...data.map((item) => item.id));
      if (data.length < 100) return ids;
    }
  };

  /**
   * Every id of a list by cursor, `limit` a page, calling `between` after each page (writes that add
   * newer items): checks each page's pagination object and returns the ids in order.
   */
  const traverse = async (
    path: string,
    limit: number,
    between: () => Promise<void> = () => Promise.resolve(),
    client: TestApp | ReturnType<typeof as> = app(),
  ) => {
    const ids: string[] = [];
    const joiner = path.includes('?') ? '&' : '?';
    let cursor: string | null = null;
    let pages = 0;
    do {
      const query: string = cursor === null ? `limit=${limit}` : `limit=${limit}&cursor=${cursor}`;
      const { data, pagination } = await read(client, `${path}${joiner}${query}`);
      expect(Object.keys(pagination).sort()).toEqual(['next_cursor', 'per_page']);
      expect(pagination.per_page).toBe(limit);
      ids.push(...data.map((item) => item.id));
      cursor = pagination.next_cursor as string | null;
      if (cursor !== null) {
        expect(data).toHaveLength(limit);
        expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
      }
      pages++;
      await between();
    } while (cursor !== null);
    return { ids, pages };
  };

  it('traverses the whole audit trail once, newest first, while records are written during it', async () => {
    for (let i = 0; i < 12; i++) {
      await app()
        .post('/api/v1/relayers', relayerBody('evm', { id: uid('cur'), name: `audited ${i}` }))
        .expect(201);
    }
    const before = await allByNumber('/api/v1/audit');
    expect(before.length).toBeGreaterThanOrEqual(12);
    let written = 0;
    const { ids, pages } = await traverse('/api/v1/audit', 5, async () => {
      // Two newer records between pages: never in a traversal started before them.
      await app()
        .post('/api/v1/relayers', relayerBody('evm', { id: uid('cur'), name: 'during' }))
        .expect(201);
      written++;
    });
    expect(ids).toEqual(before);
    expect(new Set(ids).size).toBe(ids.length);
    expect(pages).toBe(Math.ceil(before.length / 5) + (before.length % 5 === 0 ? 1 : 0));
    // Those written during it are at the head now.
    expect((await allByNumber('/api/v1/audit')).slice(written)).toEqual(before);
  });

  it('traverses a target’s and a relayer’s delivery logs once while deliveries are added during it', async () => {
    const hook = await target('/cursor-log');
    const relayer = uid('cur');
    await app()
      .post('/api/v1/relayers', relayerBody('evm', { id: relayer, name: 'd0', notification_id: hook }))
      .expect(201);
    for (let i = 1; i <= 11; i++) {
      await app()
        .patch(`/api/v1/relayers/${relayer}`, { name: `d${i}` })
        .expect(200);
    }
    let turn = 12;
    const addOne = async () => {
      await app()
        .patch(`/api/v1/relayers/${relayer}`, { name: `d${turn++}` })
        .expect(200);
    };
    for (const path of [
      `/api/v1/notifications/${hook}/deliveries`,
      `/api/v1/relayers/${relayer}/deliveries`,
    ]) {
      const before = await allByNumber(path);
      expect(before.length).toBeGreaterThanOrEqual(12);
      const { ids } = await traverse(path, 4, addOne);
      expect(ids).toEqual(before);
      expect(new Set(ids).size).toBe(ids.length);
    }
    // The filters still apply by cursor: one status, then one relayer of the target.
    const filtered = `/api/v1/notifications/${hook}/deliveries?relayer_id=${relayer}`;
    expect((await traverse(filtered, 100)).ids).toEqual(await allByNumber(filtered));
  });

  it('reads only a scoped key’s records by cursor, whatever the cursor', async () => {
    const prefix = uid('cs');
    const mine = [`${prefix}-a`, `${prefix}-b`];
    const others = [uid('other'), uid('other')];
    for (const id of [...mine, ...others]) {
      await app()
        .post('/api/v1/relayers', relayerBody('evm', { id, name: 'scoped' }))
        .expect(201);
      await app().patch(`/api/v1/relayers/${id}`, { name: 'renamed' }).expect(200);
    }
    const scoped = await createKey(app(), { permissions: ['audit:read'], relayer_ids: [`${prefix}-*`] });
    const client = as(app(), scoped.key);
    const { ids } = await traverse('/api/v1/audit', 1, undefined, client);
    expect(ids).toEqual(await allByNumber('/api/v1/audit', client));
    expect(ids).toHaveLength(4);
    const everything = await read(app(), '/api/v1/audit?resource_type=relayer&per_page=100');
    const mineIds = everything.data
      .filter((record) => mine.includes((record as unknown as { resource_id: string }).resource_id))
      .map((record) => record.id);
    expect(ids).toEqual(mineIds);
    // A cursor taken from the whole trail, at its newest record: the key still reads only its own.
    const { pagination } = await read(app(), '/api/v1/audit?limit=1');
    const { data } = await read(client, `/api/v1/audit?limit=100&cursor=${pagination.next_cursor as string}`);
    expect(data.map((record) => record.id)).toEqual(mineIds);
  });

  it('answers a bad cursor or limit with a 400 naming it, and a mix with page or per_page naming both', async () => {
    const hook = await target('/cursor-bad');
    const relayer = uid('cur');
    await app()
      .post('/api/v1/relayers', relayerBody('evm', { id: relayer, name: 'bad' }))
      .expect(201);
    const cursorRule = 'cursor must be a pagination.next_cursor of this list';
    const limitRule = 'limit must be a whole number from 1 to 100';
    const forged = Buffer.from(JSON.stringify(['2030-01-01T00:00:00Z', 'x'])).toString('base64url');
    for (const path of [
      '/api/v1/audit',
      `/api/v1/notifications/${hook}/deliveries`,
      `/api/v1/relayers/${relayer}/deliveries`,
    ]) {
      for (const bad of ['nope', '', 'W10', forged, `${'A'.repeat(201)}`]) {
        expectError(await app().get(`${path}?cursor=${bad}`), 400, cursorRule);
      }
      for (const bad of ['0', '101', '1.5', 'ten', '-1', '']) {
        expectError(await app().get(`${path}?limit=${bad}`), 400, limitRule);
      }
      expectError(await app().get(`${path}?limit=5&page=2`), 400, 'limit cannot be given with page');
      expectError(
        await app().get(`${path}?cursor=x&per_page=5&page=1`),
        400,
        'cursor cannot be given with page or per_page',
      );
      // page and per_page as before.
      const byNumber = await read(app(), `${path}?page=1&per_page=2`);
      expect(Object.keys(byNumber.pagination).sort()).toEqual(['current_page', 'per_page', 'total_items']);
    }
  });
});
