import { expectError, successBody } from '../../support/envelope';
import { secrets } from '../../support/secrets';
import { useTestApp, type TestApp } from '../../support/test-app';
import { waitFor } from '../../support/wait';
import { ISO, ISO_PATTERN, UUID, type CreatedKey } from '../../factories';
import { as } from '../../support/as-key';
import { useTwoInstances } from '../../support/two-instances';

/**
 * docs/reference/keys-and-audit.md#110-a-keys-children: a key's children do not outlive it, and are
 * used from nowhere it may not be.
 */

interface AuditRecord {
  actor: { type: string; id: string; name: string };
  action: string;
  resource_id: string;
  request_id: string;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
}

const ADMIN = { type: 'admin', id: 'admin', name: 'API_KEY' };
/** Written every few seconds after a use (keys-and-audit 1.5): either is right at any moment. */
const LAST_USED = {
  asymmetricMatch: (value: unknown) =>
    value === null || (typeof value === 'string' && ISO_PATTERN.test(value)),
  toString: () => 'null or an ISO date',
};

/**
 * Creates a key as `by` (the administrator when absent) and checks the whole 201 answer, its creator
 * among it: `by`'s id, or null for the administrator.
 */
async function createKey(
  app: TestApp,
  name: string,
  permissions: string[],
  options: { by?: CreatedKey; expiresAt?: string | null; answeredExpiry?: string | null } = {},
): Promise<CreatedKey> {
  const body = {
    name,
    permissions,
    ...(options.expiresAt === undefined ? {} : { expires_at: options.expiresAt }),
  };
  const res = await as(app, options.by?.key ?? app.apiKey).post('/api/v1/api-keys', body);
  const created = res.body.data as CreatedKey;
  const key = typeof created?.key === 'string' ? secrets.add(created.key) : '';
  expect({ status: res.status, body: res.body as unknown }).toEqual({
    status: 201,
    body: successBody({
      id: UUID,
      name,
      permissions,
      created_at: ISO,
      expires_at: options.answeredExpiry ?? null,
      last_used_at: null,
      key_prefix: key.slice(0, 8),
      created_by_key_id: options.by?.id ?? null,
      key: expect.stringMatching(/^rk_[A-Za-z0-9_-]{43}$/) as unknown as string,
    }),
  });
  return created;
}

const shown = ({ key: _key, ...rest }: CreatedKey) => rest;

describe("a key's children do not outlive it (docs/reference/keys-and-audit.md#110-a-keys-children)", () => {
  const handle = useTestApp();
  const app = () => handle.current;

  it('answers its creator: created_by_key_id the id of the key that made it, null for the administrator', async () => {
    const perms = ['api_keys:manage', 'relayers:read'];
    // createKey checks each 201: null for the administrator's, the creator's id for the others.
    const manager = await createKey(app(), 'creator manager', perms);
    const child = await createKey(app(), 'creator child', perms, { by: manager });
    const grandchild = await createKey(app(), 'creator grandchild', ['relayers:read'], { by: child });
    const creators = { [manager.id]: null, [child.id]: manager.id, [grandchild.id]: child.id };
    for (const [id, creator] of Object.entries(creators)) {
      const got = (await app().get(`/api/v1/api-keys/${id}`).expect(200)).body.data as CreatedKey;
      expect(got.created_by_key_id).toBe(creator);
    }
    const listed = (await app().get('/api/v1/api-keys?per_page=100').expect(200)).body.data as CreatedKey[];
    expect(listed.filter((k) => k.id in creators).map((k) => [k.id, k.created_by_key_id])).toEqual(
      Object.entries(creators),
    );
    // A key that rotates another is not its creator: the answer still names the key that made it.
    const rotated = await as(app(), manager.key)
      .post(`/api/v1/api-keys/${grandchild.id}/rotate`, {})
      .expect(201);
    secrets.add((rotated.body.data as CreatedKey).key);
    expect((rotated.body.data as CreatedKey).created_by_key_id).toBe(child.id);
  });

  it('a child of an expiring key asked with no expiry or a later one expires with its creator; an earlier one is kept', async () => {
    const managerExpiry = new Date(Date.now() + 4000).toISOString();
    const manager = await createKey(app(), 'expiring manager', ['api_keys:manage', 'relayers:read'], {
      expiresAt: managerExpiry,
      answeredExpiry: managerExpiry,
    });
    const forever = await createKey(app(), 'asked never', ['relayers:read'], {
      by: manager,
      answeredExpiry: managerExpiry,
    });
    const explicitNull = await createKey(app(), 'asked null', ['relayers:read'], {
      by: manager,
      expiresAt: null,
      answeredExpiry: managerExpiry,
    });
    const later = await createKey(app(), 'asked later', ['relayers:read'], {
      by: manager,
      expiresAt: '2030-01-01T00:00:00Z',
      answeredExpiry: managerExpiry,
    });
    const earlierExpiry = new Date(Date.parse(managerExpiry) - 1000).toISOString();
    const earlier = await createKey(app(), 'asked earlier', ['relayers:read'], {
      by: manager,
      expiresAt: earlierExpiry,
      answeredExpiry: earlierExpiry,
    });
    // What is read back is what was answered.
    for (const child of [forever, explicitNull, later, earlier]) {
      expect((await app().get(`/api/v1/api-keys/${child.id}`).expect(200)).body).toEqual(
        successBody(shown(child)),
      );
    }
    const children = [forever, explicitNull, later];
    for (const child of children) await as(app(), child.key).get('/api/v1/relayers').expect(200);
    await waitFor(
      'the manager to expire',
      async () => (await as(app(), manager.key).get('/api/v1/relayers')).status === 401,
      { timeoutMs: 8000 },
    );
    for (const child of [...children, earlier]) {
      expectError(await as(app(), child.key).get('/api/v1/relayers'), 401, 'Unauthorized');
    }
  });

  it('a child of a key without expiry keeps what it asked for', async () => {
    const manager = await createKey(app(), 'lasting manager', ['api_keys:manage', 'relayers:read']);
    await createKey(app(), 'asked never', ['relayers:read'], { by: manager });
    await createKey(app(), 'asked 2031', ['relayers:read'], {
      by: manager,
      expiresAt: '2031-01-01T00:00:00Z',
      answeredExpiry: '2031-01-01T00:00:00.000Z',
    });
  });

  it('a child and its own child are bound inside the first key’s addresses: given them when they ask none, 403 naming allowed_cidrs when they ask wider', async () => {
    const perms = ['api_keys:manage', 'relayers:read'];
    const bound = (
      await app().post('/api/v1/api-keys', {
        name: 'bound',
        permissions: perms,
        allowed_cidrs: ['127.0.0.0/8'],
      })
    ).body.data as CreatedKey;
    secrets.add(bound.key);
    const create = (token: string, body: object) =>
      as(app(), token).post('/api/v1/api-keys', { name: 'child', permissions: ['relayers:read'], ...body });
    const childRes = await as(app(), bound.key).post('/api/v1/api-keys', {
      name: 'child',
      permissions: perms,
    });
    const child = childRes.body.data as CreatedKey & { allowed_cidrs?: string[] };
    secrets.add(child.key);
    const grandRes = await create(child.key, {});
    const grandchild = grandRes.body.data as CreatedKey & { allowed_cidrs?: string[] };
    secrets.add(grandchild.key);
    expect([childRes.status, child.allowed_cidrs, grandRes.status, grandchild.allowed_cidrs]).toEqual([
      201,
      ['127.0.0.0/8'],
      201,
      ['127.0.0.0/8'],
    ]);
    await as(app(), grandchild.key).get('/api/v1/relayers').expect(200);
    const narrower = await create(child.key, { allowed_cidrs: ['127.0.0.1'] });
    secrets.add((narrower.body.data as CreatedKey).key);
    expect([narrower.status, (narrower.body.data as { allowed_cidrs: unknown }).allowed_cidrs]).toEqual([
      201,
      ['127.0.0.1'],
    ]);
    const before = (await app().get('/api/v1/api-keys?per_page=1').expect(200)).body.pagination as object;
    for (const [cidrs, named] of [
      [['10.0.0.0/8'], 'allowed_cidrs[0]'],
      [['127.0.0.1', '::/0'], 'allowed_cidrs[1]'],
    ] as const) {
      expectError(
        await create(child.key, { allowed_cidrs: cidrs }),
        403,
        `Forbidden: ${named} must be inside the allowed_cidrs of the key creating it`,
      );
    }
    expect((await app().get('/api/v1/api-keys?per_page=1').expect(200)).body.pagination).toEqual(before);
  });

  it('revoking a key revokes the keys it created and theirs, each with its own audit record; nothing else', async () => {
    const perms = ['api_keys:manage', 'relayers:read'];
    const parent = await createKey(app(), 'parent', perms);
    const child = await createKey(app(), 'child', perms, { by: parent });
    const grandchild = await createKey(app(), 'grandchild', perms, { by: child });
    const greatGrandchild = await createKey(app(), 'great-grandchild', ['relayers:read'], {
      by: grandchild,
    });
    const sibling = await createKey(app(), 'sibling', ['relayers:read'], { by: parent });
    const unrelated = await createKey(app(), 'unrelated', perms);
    const all = [parent, child, grandchild, greatGrandchild, sibling, unrelated];
    for (const key of all) await as(app(), key.key).get('/api/v1/relayers').expect(200);

    const refused = async (keys: CreatedKey[]) => {
      for (const key of keys) {
        expectError(await as(app(), key.key).get('/api/v1/relayers'), 401, 'Unauthorized');
        expectError(await app().get(`/api/v1/api-keys/${key.id}`), 404, 'API key not found');
      }
    };
    const working = async (keys: CreatedKey[]) => {
      for (const key of keys) await as(app(), key.key).get('/api/v1/relayers').expect(200);
    };
    const deletions = async (requestId: string): Promise<AuditRecord[]> => {
      const res = await app()
        .get('/api/v1/audit?resource_type=api_key&action=api_key.delete&per_page=100')
        .expect(200);
      return (res.body.data as AuditRecord[])
        .filter((record) => record.request_id === requestId)
        .sort((a, b) => a.resource_id.localeCompare(b.resource_id));
    };
    const expectedRecords = (requestId: string, actor: object, keys: CreatedKey[]) =>
      keys
        .map((key) => ({
          id: UUID,
          at: ISO,
          actor,
          action: 'api_key.delete',
          resource_type: 'api_key',
          resource_id: key.id,
          request_id: requestId,
          before: { ...shown(key), last_used_at: LAST_USED },
          after: null,
        }))
        .sort((a, b) => a.resource_id.localeCompare(b.resource_id));

    // The middle of the tree, by the key that created it: its creator and its sibling stay.
    const mid = await as(app(), parent.key).delete(`/api/v1/api-keys/${child.id}`);
    expect({ status: mid.status, body: mid.body as unknown }).toEqual({
      status: 200,
      body: successBody('API key revoked successfully'),
    });
    await refused([child, grandchild, greatGrandchild]);
    await working([parent, sibling, unrelated]);
    const midId = mid.headers['x-request-id'];
    expect(await deletions(midId)).toEqual(
      expectedRecords(midId, { type: 'api_key', id: parent.id, name: 'parent' }, [
        child,
        grandchild,
        greatGrandchild,
      ]),
    );

    // The root, by the administrator: what is left of its tree goes with it.
    const root = await app().delete(`/api/v1/api-keys/${parent.id}`);
    expect({ status: root.status, body: root.body as unknown }).toEqual({
      status: 200,
      body: successBody('API key revoked successfully'),
    });
    await refused([parent, sibling]);
    await working([unrelated]);
    const rootId = root.headers['x-request-id'];
    expect(await deletions(rootId)).toEqual(expectedRecords(rootId, ADMIN, [parent, sibling]));
  });
});

describe('children revoked with their creator on two instances', () => {
  const { variants, start } = useTwoInstances();

  it.each(variants)('a grandchild is refused by the other instance within 1 s (%s)', async (_name, redis) => {
    const [one, two] = await start(redis);
    const perms = ['api_keys:manage', 'relayers:read'];
    const parent = await createKey(one, 'parent', perms);
    const child = await createKey(one, 'child', perms, { by: parent });
    const grandchild = await createKey(two, 'grandchild', ['relayers:read'], { by: child });
    // The second instance has them in its cache when the revocation happens.
    for (const key of [child, grandchild]) await as(two, key.key).get('/api/v1/relayers').expect(200);
    await one.delete(`/api/v1/api-keys/${parent.id}`).expect(200);
    const revokedAt = Date.now();
    await waitFor(
      'the second instance to refuse the child and the grandchild',
      async () =>
        (await as(two, child.key).get('/api/v1/relayers')).status === 401 &&
        (await as(two, grandchild.key).get('/api/v1/relayers')).status === 401,
      { timeoutMs: 1000, intervalMs: 20 },
    );
    expect(Date.now() - revokedAt).toBeLessThan(1000);
    expectError(await as(two, grandchild.key).get('/api/v1/relayers'), 401, 'Unauthorized');
  });
});
