import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { permissionsRule } from '../../support/declared';
import { errorBody, expectError, successBody } from '../../support/envelope';
import { secrets } from '../../support/secrets';
import { useTestApp } from '../../support/test-app';
import { waitFor } from '../../support/wait';
import {
  createKey,
  ISO,
  relayerBody as factoryRelayerBody,
  uid,
  UUID,
  type CreatedKey,
} from '../../factories';
import { as } from '../../support/as-key';
import { useTwoInstances } from '../../support/two-instances';
import { openApiDocument } from '../../support/routes';

const KEY_PATTERN = /^rk_[A-Za-z0-9_-]{43}$/;

const relayerBody = (id: string, signer: string) =>
  factoryRelayerBody('evm', { id, name: 'audited', signer_id: signer });

describe('API keys (docs/reference/keys-and-audit.md)', () => {
  const handle = useTestApp();
  const app = () => handle.current;

  it('creates a key: 201 with the key shown once; list, get and permissions never show it', async () => {
    const res = await app().post('/api/v1/api-keys', {
      name: 'dashboards',
      permissions: ['relayers:read', 'metrics:read'],
    });
    expect(res.status).toBe(201);
    const created = res.body.data as CreatedKey;
    secrets.add(created.key);
    expect(res.body).toEqual(
      successBody({
        id: UUID,
        name: 'dashboards',
        permissions: ['relayers:read', 'metrics:read'],
        created_at: ISO,
        expires_at: null,
        last_used_at: null,
        key_prefix: created.key.slice(0, 8),
        created_by_key_id: null,
        key: expect.stringMatching(KEY_PATTERN) as unknown as string,
      }),
    );
    const { key, ...shown } = created;
    const got = await app().get(`/api/v1/api-keys/${created.id}`).expect(200);
    expect(got.body).toEqual(successBody(shown));
    expect((await app().get(`/api/v1/api-keys/${created.id}/permissions`).expect(200)).body).toEqual(
      successBody(['relayers:read', 'metrics:read']),
    );
    const list = await app().get('/api/v1/api-keys?per_page=100').expect(200);
    expect(list.body.data).toContainEqual(shown);
    for (const text of [got.text, list.text]) expect(text).not.toContain(key);
    const dump = await handle.database.dump();
    expect(dump).toContain(created.id); // the control: the row is there
    expect(dump).not.toContain(key);
    expect(dump).not.toContain(key.slice(3));
  });

  it.each([
    [{ permissions: ['relayers:read'] }, 'name must be 1 to 255 characters, not only whitespace'],
    [{ name: '  ', permissions: ['relayers:read'] }, 'name must be 1 to 255 characters, not only whitespace'],
    [{ name: 'x', permissions: [] }, permissionsRule],
    [{ name: 'x', permissions: ['relayers:admin'] }, permissionsRule],
    [
      { name: 'x', permissions: ['*'], expires_at: '2020-01-01T00:00:00Z' },
      'expires_at must be an RFC 3339 date and time in the future',
    ],
    [
      { name: 'x', permissions: ['*'], expires_at: 'tomorrow' },
      'expires_at must be an RFC 3339 date and time in the future',
    ],
    [{ name: 'x', permissions: ['*'], key: 'rk_mine' }, 'key is not an allowed field'],
  ])('refuses bad body %# with a 400 naming the problem', async (body, message) => {
    // The grants are read when the test runs: other modules of the process may declare more (test/support/declared.ts).
    expectError(
      await app().post('/api/v1/api-keys', body),
      400,
      typeof message === 'function' ? message() : message,
    );
  });

  // docs/reference/hardening.md "Dates": RFC 3339 only; the ISO 8601 forms the validator took were 500s.
  it.each([
    '2030-W01',
    '2030-W01-1',
    '2030-123',
    '20300101',
    '20300101T000000Z',
    '2030-01-01',
    '2030-01-01T00:00Z',
    '2030-01-01T00:00:00',
    '2030-02-30T00:00:00Z',
    '2030-01-01T25:00:00Z',
    '2030-01-01T00:00:00+24:00',
    '2030-01-01 00:00:00Z',
    '',
    12345,
  ])('refuses expires_at %j with a 400 naming it, and creates nothing', async (expires) => {
    const res = await app().post('/api/v1/api-keys', {
      name: 'dated',
      permissions: ['relayers:read'],
      expires_at: expires,
    });
    expectError(res, 400, 'expires_at must be an RFC 3339 date and time in the future');
    const listed = (await app().get('/api/v1/api-keys?per_page=100').expect(200)).body.data as CreatedKey[];
    expect(listed.filter((k) => k.name === 'dated')).toEqual([]);
  });

  it.each([
    ['2030-01-01T00:00:00Z', '2030-01-01T00:00:00.000Z'],
    ['2030-01-01t00:00:00z', '2030-01-01T00:00:00.000Z'],
    ['2030-01-01T02:30:00+02:30', '2030-01-01T00:00:00.000Z'],
    ['2029-12-31T23:00:00-01:00', '2030-01-01T00:00:00.000Z'],
    ['2030-01-01T00:00:00.5Z', '2030-01-01T00:00:00.500Z'],
    ['2030-01-01T00:00:00.123456789Z', '2030-01-01T00:00:00.123Z'],
    ['2032-02-29T12:00:00Z', '2032-02-29T12:00:00.000Z'],
  ])('accepts expires_at %j (answered as %j)', async (expires, answered) => {
    const created = await createKey(app(), { expires_at: expires });
    expect((await app().get(`/api/v1/api-keys/${created.id}`).expect(200)).body.data.expires_at).toBe(
      answered,
    );
  });

  it('a key is refused (401) once revoked; a revoked key is gone from get and list', async () => {
    const created = await createKey(app());
    await as(app(), created.key).get('/api/v1/relayers').expect(200);
    expect((await app().delete(`/api/v1/api-keys/${created.id}`).expect(200)).body).toEqual(
      successBody('API key revoked successfully'),
    );
    expectError(await as(app(), created.key).get('/api/v1/relayers'), 401, 'Unauthorized');
    expectError(await app().get(`/api/v1/api-keys/${created.id}`), 404, 'API key not found');
    expectError(await app().delete(`/api/v1/api-keys/${created.id}`), 404, 'API key not found');
    expectError(await app().get('/api/v1/api-keys/nope'), 404, 'API key not found');
  });

  it('an expired key is refused (401)', async () => {
    const expires = new Date(Date.now() + 1500).toISOString();
    const created = await createKey(app(), { expires_at: expires });
    expect((await app().get(`/api/v1/api-keys/${created.id}`).expect(200)).body.data.expires_at).toBe(
      expires,
    );
    await as(app(), created.key).get('/api/v1/relayers').expect(200);
    await waitFor(
      'the key to expire',
      async () => (await as(app(), created.key).get('/api/v1/relayers')).status === 401,
      {
        timeoutMs: 5000,
      },
    );
    expectError(await as(app(), created.key).get('/api/v1/relayers'), 401, 'Unauthorized');
  });

  it('a key that looks like one but is unknown, and a key of another shape, are 401', async () => {
    expectError(
      await as(app(), `rk_${randomBytes(32).toString('base64url')}`).get('/api/v1/relayers'),
      401,
      'Unauthorized',
    );
    expectError(await as(app(), 'rk_short').get('/api/v1/relayers'), 401, 'Unauthorized');
    expectError(await as(app(), 'rk_short').get('/api/v1/no-such-route'), 401, 'Unauthorized');
  });

  it('repeats of an unknown key are answered from a short negative cache, not the database', async () => {
    const dataSource = app().app.get(DataSource);
    const lookups = jest.spyOn(dataSource.logger, 'logQuery');
    // Lookups by digest only: the last_used_at flush also writes api_keys now and then.
    const keyLookups = () => lookups.mock.calls.filter(([sql]) => /^SELECT.*key_digest/is.test(sql)).length;
    try {
      const unknown = `rk_${randomBytes(32).toString('base64url')}`;
      // Spaced out over 3 s: longer than a found key's lookup is trusted without Redis (500 ms).
      for (let i = 0; i < 6; i++) {
        if (i > 0) await new Promise((resolve) => setTimeout(resolve, 600));
        expectError(await as(app(), unknown).get('/api/v1/relayers'), 401, 'Unauthorized');
      }
      expect(keyLookups()).toBe(1);
      // A key created a moment ago works at once, and its first use is one lookup.
      const created = await createKey(app());
      lookups.mockClear();
      await as(app(), created.key).get('/api/v1/relayers').expect(200);
      expect(keyLookups()).toBe(1);
    } finally {
      lookups.mockRestore();
    }
  });

  it('a managed key on an unknown route gets 404 like the administrator', async () => {
    const created = await createKey(app());
    expectError(await as(app(), created.key).get('/api/v1/no-such-route'), 404, 'Not Found');
  });

  it('a create replayed by Idempotency-Key never shows the key again; keys are scoped per API key', async () => {
    const first = await app()
      .post('/api/v1/api-keys', { name: 'replayed', permissions: ['relayers:write'] })
      .set('Idempotency-Key', 'create-key-1');
    expect(first.status).toBe(201);
    const writer = first.body.data as CreatedKey;
    secrets.add(writer.key);
    const replay = await app()
      .post('/api/v1/api-keys', { name: 'replayed', permissions: ['relayers:write'] })
      .set('Idempotency-Key', 'create-key-1');
    const { key, ...shown } = writer;
    expect({
      status: replay.status,
      replayed: replay.headers['idempotent-replayed'],
      body: replay.body as unknown,
    }).toEqual({
      status: 201,
      replayed: 'true',
      body: successBody(shown),
    });
    expect(replay.text).not.toContain(key);
    expect(await handle.database.dump()).not.toContain(key);
    // The same Idempotency-Key from two API keys names two requests.
    const mine = await as(app(), writer.key)
      .post('/api/v1/relayers', relayerBody('idem-a', 'pool-0210'))
      .set('Idempotency-Key', 'shared-name');
    const theirs = await app()
      .post('/api/v1/relayers', relayerBody('idem-b', 'pool-0211'))
      .set('Idempotency-Key', 'shared-name');
    expect([mine.status, theirs.status, mine.body.data.id, theirs.body.data.id]).toEqual([
      201,
      201,
      'idem-a',
      'idem-b',
    ]);
  });

  it('keeps last_used_at, written within seconds of a use', async () => {
    const created = await createKey(app());
    const before = Date.now();
    await as(app(), created.key).get('/api/v1/relayers').expect(200);
    const lastUsed = await waitFor(
      'last_used_at to be written',
      async () =>
        ((await app().get(`/api/v1/api-keys/${created.id}`)).body.data.last_used_at as string | null) ??
        false,
      { timeoutMs: 15_000, intervalMs: 250 },
    );
    expect(Date.parse(lastUsed)).toBeGreaterThanOrEqual(before - 5);
    expect(Date.parse(lastUsed)).toBeLessThanOrEqual(Date.now());
  });
});

describe('a key grants only what it holds (docs/reference/hardening.md)', () => {
  const handle = useTestApp();
  const app = () => handle.current;

  const keyIds = async () =>
    ((await app().get('/api/v1/api-keys?per_page=100').expect(200)).body.data as CreatedKey[]).map(
      (k) => k.id,
    );
  const auditIds = async () =>
    (
      (await app().get('/api/v1/audit?resource_type=api_key&per_page=100').expect(200)).body.data as Array<{
        id: string;
      }>
    ).map((r) => r.id);

  it('a manager creates keys only with permissions it holds itself; a refusal creates nothing', async () => {
    const manager = await createKey(app(), { permissions: ['api_keys:manage', 'relayers:read'] });
    const [keysBefore, auditBefore] = [await keyIds(), await auditIds()];
    for (const permissions of [['*'], ['relayers:write'], ['relayers:read', 'audit:read']]) {
      const res = await as(app(), manager.key).post('/api/v1/api-keys', { name: 'wider', permissions });
      expect({ permissions, status: res.status, body: res.body as unknown }).toEqual({
        permissions,
        status: 403,
        body: errorBody('Forbidden'),
      });
    }
    expect([await keyIds(), await auditIds()]).toEqual([keysBefore, auditBefore]);
    const subset = await as(app(), manager.key).post('/api/v1/api-keys', {
      name: 'subset',
      permissions: ['relayers:read', 'api_keys:manage'],
    });
    expect({ status: subset.status, permissions: subset.body.data?.permissions as unknown }).toEqual({
      status: 201,
      permissions: ['relayers:read', 'api_keys:manage'],
    });
    secrets.add((subset.body.data as CreatedKey).key);
    expect(await keyIds()).toEqual([...keysBefore, (subset.body.data as CreatedKey).id]);
  });

  it('only a principal holding * grants *: a key holding * may, the administrator may', async () => {
    const root = await createKey(app(), { permissions: ['*'] });
    const res = await as(app(), root.key).post('/api/v1/api-keys', { name: 'all', permissions: ['*'] });
    expect({ status: res.status, permissions: res.body.data?.permissions as unknown }).toEqual({
      status: 201,
      permissions: ['*'],
    });
    secrets.add((res.body.data as CreatedKey).key);
  });

  // Was: 403 for a key whose permissions the manager lacks, 200 for one the administrator made that it
  // holds. Now a key revokes only itself and the keys it created, any other is 404
  // (docs/reference/keys-and-audit.md#44-authority-over-keys-comes-from-creating-them).
  it('a manager revokes only itself and the keys it created; any other key is 404 and stays', async () => {
    const manager = await createKey(app(), { permissions: ['api_keys:manage', 'relayers:read'] });
    const wider = await createKey(app(), { permissions: ['relayers:read', 'relayers:write'] });
    const root = await createKey(app(), { permissions: ['*'] });
    const narrow = await createKey(app());
    const own = (
      await as(app(), manager.key).post('/api/v1/api-keys', { name: 'own', permissions: ['relayers:read'] })
    ).body.data as CreatedKey;
    secrets.add(own.key);
    const [keysBefore, auditBefore] = [await keyIds(), await auditIds()];
    for (const target of [wider, root, narrow]) {
      expectError(
        await as(app(), manager.key).delete(`/api/v1/api-keys/${target.id}`),
        404,
        'API key not found',
      );
    }
    expect([await keyIds(), await auditIds()]).toEqual([keysBefore, auditBefore]);
    for (const target of [wider, root, narrow])
      await as(app(), target.key).get('/api/v1/relayers').expect(200);
    expect((await as(app(), manager.key).delete(`/api/v1/api-keys/${own.id}`)).body).toEqual(
      successBody('API key revoked successfully'),
    );
    expect(await keyIds()).toEqual(keysBefore.filter((id) => id !== own.id));
    // The manager may revoke itself.
    await as(app(), manager.key).delete(`/api/v1/api-keys/${manager.id}`).expect(200);
    // A key holding * is no administrator: it revokes only what it created. The administrator revokes anything.
    expectError(await as(app(), root.key).delete(`/api/v1/api-keys/${narrow.id}`), 404, 'API key not found');
    await app().delete(`/api/v1/api-keys/${narrow.id}`).expect(200);
    await app().delete(`/api/v1/api-keys/${root.id}`).expect(200);
  });

  it('a 1-hour manager bound to one address may not revoke a key the administrator made: 404 as an unknown id', async () => {
    const lasting = await createKey(app(), { permissions: ['relayers:read', 'relayers:write'] });
    const manager = await createKey(app(), {
      permissions: ['api_keys:manage', 'relayers:read', 'relayers:write'],
      expires_at: new Date(Date.now() + 3600_000).toISOString(),
      allowed_cidrs: ['127.0.0.1'],
    });
    const unknown = await as(app(), manager.key).delete(
      '/api/v1/api-keys/00000000-0000-4000-8000-000000000000',
    );
    const res = await as(app(), manager.key).delete(`/api/v1/api-keys/${lasting.id}`);
    expect({ status: res.status, body: res.body as unknown }).toEqual({
      status: unknown.status,
      body: unknown.body as unknown,
    });
    expectError(res, 404, 'API key not found');
    await app().delete(`/api/v1/api-keys/${manager.id}`).expect(200);
    await as(app(), lasting.key).get('/api/v1/relayers').expect(200);
  });

  it('the OpenAPI document says so on create and revoke', async () => {
    const doc = await openApiDocument<{
      paths: Record<
        string,
        Record<string, { description?: string; responses: Record<string, { description: string }> }>
      >;
    }>(app());
    const create = doc.paths['/api/v1/api-keys'].post;
    const revoke = doc.paths['/api/v1/api-keys/{api_key_id}'].delete;
    // Revoke's said "or one of the permissions of the key to revoke": a key now revokes only what it
    // created, any other being 404 (docs/reference/keys-and-audit.md#44-authority-over-keys-comes-from-creating-them).
    expect([create.responses['403'].description, revoke.responses['403'].description]).toEqual([
      'Forbidden: the API key lacks api_keys:manage, or one of the permissions asked for (* only by a key holding *), a relayer scope or allowed_cidrs beyond its own',
      'Forbidden: the API key lacks api_keys:manage',
    ]);
    expect([create.description, revoke.description]).toEqual([
      'A key grants only what it holds: the new key may hold only permissions the caller holds, and * only a caller holding *.',
      'Revokes the key and the keys it created, theirs and so on. A key may revoke only itself and the keys it created, directly or through keys it created: any other key is 404, as an unknown one.',
    ]);
  });
});

/** docs/reference/keys-and-audit.md#45-which-keys-a-key-sees */
describe('which keys a scoped key sees', () => {
  const handle = useTestApp();
  const app = () => handle.current;

  interface ShownKey {
    id: string;
    name: string;
  }

  it('lists and reads only itself and the keys whose scope is inside its own; any other id is 404', async () => {
    const team = uid('ta');
    const other = uid('tb');
    const scoped = await createKey(app(), {
      permissions: ['api_keys:manage', 'relayers:read'],
      name: 'scoped',
      relayer_ids: [`${team}-*`],
    });
    const inside = await createKey(app(), { name: 'inside', relayer_ids: [`${team}-1`] });
    const outside = await createKey(app(), {
      name: 'outside',
      relayer_ids: [`${other}-*`],
    });
    const wider = await createKey(app(), {
      name: 'wider',
      relayer_ids: [`${team}-*`, `${other}-1`],
    });
    const unscoped = await createKey(app(), { name: 'unscoped' });
    const child = await createKey(app(), { name: 'child', relayer_ids: [`${team}-2*`] }, scoped.key);
    const same = await createKey(app(), { name: 'same', relayer_ids: [`${team}-*`] });

    const asScoped = as(app(), scoped.key);
    const list = await asScoped.get('/api/v1/api-keys?per_page=100');
    expect({
      status: list.status,
      names: (list.body.data as ShownKey[]).map((k) => k.name),
      pagination: list.body.pagination as unknown,
    }).toEqual({
      status: 200,
      names: ['scoped', 'inside', 'child', 'same'],
      pagination: { current_page: 1, per_page: 100, total_items: 4 },
    });
    // Paged within what it sees: every page full, the true total.
    const second = await asScoped.get('/api/v1/api-keys?page=2&per_page=2').expect(200);
    expect({
      names: (second.body.data as ShownKey[]).map((k) => k.name),
      pagination: second.body.pagination as unknown,
    }).toEqual({ names: ['child', 'same'], pagination: { current_page: 2, per_page: 2, total_items: 4 } });
    expect((await asScoped.get('/api/v1/api-keys?page=3&per_page=2').expect(200)).body.data).toEqual([]);
    for (const seen of [scoped, inside, child, same]) {
      expect((await asScoped.get(`/api/v1/api-keys/${seen.id}`).expect(200)).body.data.id).toBe(seen.id);
      await asScoped.get(`/api/v1/api-keys/${seen.id}/permissions`).expect(200);
    }
    const missing = '00000000-0000-4000-8000-000000000000';
    for (const hidden of [outside, wider, unscoped]) {
      for (const suffix of ['', '/permissions']) {
        const res = await asScoped.get(`/api/v1/api-keys/${hidden.id}${suffix}`);
        const unknown = await asScoped.get(`/api/v1/api-keys/${missing}${suffix}`);
        expectError(res, 404, 'API key not found');
        expect(res.body).toEqual(unknown.body);
      }
    }
    // An unscoped manager sees every key, as before; so does the administrator.
    const manager = await createKey(app(), { permissions: ['api_keys:manage'], name: 'unscoped manager' });
    const all = (await as(app(), manager.key).get('/api/v1/api-keys?per_page=100').expect(200)).body
      .data as ShownKey[];
    expect(all.map((k) => k.name)).toEqual([
      'scoped',
      'inside',
      'outside',
      'wider',
      'unscoped',
      'child',
      'same',
      'unscoped manager',
    ]);
    await as(app(), manager.key).get(`/api/v1/api-keys/${outside.id}`).expect(200);
  });
});

/** docs/reference/keys-and-audit.md#46-ids-compare-exactly */
describe('key ids compare exactly', () => {
  const handle = useTestApp();
  const app = () => handle.current;

  it('a key id in upper case is an unknown key on every route (404), for the administrator and for the key itself', async () => {
    const manager = await createKey(app(), { permissions: ['api_keys:manage', 'relayers:read'] });
    const upper = manager.id.toUpperCase();
    expect(upper).not.toBe(manager.id);
    for (const token of [app().apiKey, manager.key]) {
      const client = as(app(), token);
      for (const res of [
        await client.get(`/api/v1/api-keys/${upper}`),
        await client.get(`/api/v1/api-keys/${upper}/permissions`),
        await client.post(`/api/v1/api-keys/${upper}/rotate`, {}),
        await client.delete(`/api/v1/api-keys/${upper}`),
      ]) {
        expectError(res, 404, 'API key not found');
      }
    }
    // Nothing changed: the same secret, one audit record.
    await as(app(), manager.key).get('/api/v1/relayers').expect(200);
    const records = await app().get(`/api/v1/audit?resource_type=api_key&per_page=100`).expect(200);
    expect((records.body.data as Array<{ action: string }>).map((r) => r.action)).toEqual(['api_key.create']);
  });
});

describe('permissions', () => {
  const handle = useTestApp();
  const app = () => handle.current;

  it('read does not include write, nor write read', async () => {
    const reader = await createKey(app());
    const writer = await createKey(app(), { permissions: ['relayers:write'] });
    expectError(
      await as(app(), reader.key).post('/api/v1/relayers', relayerBody('rw-1', 'pool-0201')),
      403,
      'Forbidden',
    );
    expectError(await as(app(), writer.key).get('/api/v1/relayers'), 403, 'Forbidden');
    expectError(await app().get('/api/v1/relayers/rw-1'), 404, 'Relayer with ID rw-1 not found');
    await as(app(), writer.key).post('/api/v1/relayers', relayerBody('rw-1', 'pool-0201')).expect(201);
  });
});

describe('each key has its own rate-limit budget', () => {
  const handle = useTestApp({ RATE_LIMIT_BURST_SIZE: '3', RATE_LIMIT_REQUESTS_PER_SECOND: '0.05' });
  const app = () => handle.current;

  it('one key spending its budget leaves the others theirs', async () => {
    // The administrator creates the keys (3 requests: its whole budget).
    const one = await createKey(app());
    const two = await createKey(app());
    for (let i = 0; i < 3; i++) await as(app(), one.key).get('/api/v1/relayers').expect(200);
    expectError(await as(app(), one.key).get('/api/v1/relayers'), 429, 'Too Many Requests');
    await as(app(), two.key).get('/api/v1/relayers').expect(200);
  });
});

describe('revocation on two instances', () => {
  const { variants, start } = useTwoInstances();

  it.each(variants)('a key revoked on one is refused by the other within 1 s (%s)', async (_name, redis) => {
    const [one, two] = await start(redis);
    const created = await createKey(one);
    // The second instance has the key in its cache when the revocation happens.
    await as(two, created.key).get('/api/v1/relayers').expect(200);
    await one.delete(`/api/v1/api-keys/${created.id}`).expect(200);
    const revokedAt = Date.now();
    await waitFor(
      'the second instance to refuse the key',
      async () => (await as(two, created.key).get('/api/v1/relayers')).status === 401,
      {
        timeoutMs: 1000,
        intervalMs: 20,
      },
    );
    expect(Date.now() - revokedAt).toBeLessThan(1000);
  });
});
