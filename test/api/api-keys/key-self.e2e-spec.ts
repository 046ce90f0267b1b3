import { errorBody, expectError, successBody } from '../../support/envelope';
import { secrets } from '../../support/secrets';
import { useTestApp } from '../../support/test-app';
import { createKey, ISO, type CreatedKey } from '../../factories';
import { as } from '../../support/as-key';
import { openApiDocument } from '../../support/routes';

/**
 * docs/reference/keys-and-audit.md#111-who-am-i: GET /api/v1/api-keys/self answers the caller, for any
 * valid key whatever it holds, so that a client (the operator console) offers only what the key may use.
 */

const SELF = '/api/v1/api-keys/self';
const DAY = 24 * 3600 * 1000;

describe('GET /api/v1/api-keys/self: who am I', () => {
  const handle = useTestApp();
  const app = () => handle.current;

  it('the administrator: admin, API_KEY, every permission, never expires', async () => {
    const res = await app().get(SELF);
    expect({ status: res.status, body: res.body as unknown }).toEqual({
      status: 200,
      body: successBody({
        type: 'admin',
        id: 'admin',
        name: 'API_KEY',
        permissions: ['*'],
        expires_at: null,
      }),
    });
  });

  it('a key holding one permission, unrelated to keys: itself, without relayer_ids, the secret nowhere', async () => {
    const reader = await createKey(app(), {
      name: 'dashboards',
      permissions: ['metrics:read', 'relayers:read'],
    });
    const res = await as(app(), reader.key).get(SELF);
    expect({ status: res.status, body: res.body as unknown }).toEqual({
      status: 200,
      body: successBody({
        type: 'api_key',
        id: reader.id,
        name: 'dashboards',
        permissions: ['metrics:read', 'relayers:read'],
        expires_at: null,
      }),
    });
    expect(res.text).not.toContain(reader.key);
  });

  it('a key holding *: its permissions as given', async () => {
    const all = await createKey(app(), { name: 'all', permissions: ['*'] });
    const res = await as(app(), all.key).get(SELF).expect(200);
    expect(res.body).toEqual(
      successBody({ type: 'api_key', id: all.id, name: 'all', permissions: ['*'], expires_at: null }),
    );
  });

  it('a scoped key: its relayer_ids, as given', async () => {
    const scoped = await createKey(app(), {
      name: 'team a',
      permissions: ['relayers:read', 'relayers:write'],
      relayer_ids: ['team-a-*', 'shared-1'],
    });
    const res = await as(app(), scoped.key).get(SELF).expect(200);
    expect(res.body).toEqual(
      successBody({
        type: 'api_key',
        id: scoped.id,
        name: 'team a',
        permissions: ['relayers:read', 'relayers:write'],
        relayer_ids: ['team-a-*', 'shared-1'],
        expires_at: null,
      }),
    );
  });

  it('an expiring key: expires_at is its expiry', async () => {
    const expires = new Date(Date.now() + 3 * DAY).toISOString();
    const soon = await createKey(app(), { name: 'soon', permissions: ['audit:read'], expires_at: expires });
    const res = await as(app(), soon.key).get(SELF).expect(200);
    expect(res.body).toEqual(
      successBody({
        type: 'api_key',
        id: soon.id,
        name: 'soon',
        permissions: ['audit:read'],
        expires_at: expires,
      }),
    );
    expect(res.headers['x-api-key-expires-at']).toBe(expires);
  });

  it('after a rotation with overlap: the replaced secret says when it stops, the new one the key’s expiry', async () => {
    const rotating = await createKey(app(), { name: 'rotating', permissions: ['signers:read'] });
    const before = Date.now();
    const rotated = await as(app(), rotating.key)
      .post(`/api/v1/api-keys/${rotating.id}/rotate`, { overlap_seconds: 3600 })
      .expect(201);
    const newKey = (rotated.body.data as CreatedKey).key;
    secrets.add(newKey);
    const old = await as(app(), rotating.key).get(SELF).expect(200);
    const self = old.body.data as { expires_at: string };
    expect(old.body).toEqual(
      successBody({
        type: 'api_key',
        id: rotating.id,
        name: 'rotating',
        permissions: ['signers:read'],
        expires_at: ISO,
      }),
    );
    const ends = Date.parse(self.expires_at);
    expect(ends).toBeGreaterThanOrEqual(before + 3600_000 - 1000);
    expect(ends).toBeLessThanOrEqual(Date.now() + 3600_000 + 1000);
    expect((await as(app(), newKey).get(SELF).expect(200)).body).toEqual(
      successBody({
        type: 'api_key',
        id: rotating.id,
        name: 'rotating',
        permissions: ['signers:read'],
        expires_at: null,
      }),
    );
  });

  it('without a key, with an unknown key or a revoked one: 401', async () => {
    expectError(await app().get(SELF, false), 401, 'Unauthorized');
    expectError(await as(app(), 'rk_not-a-key').get(SELF), 401, 'Unauthorized');
    const gone = await createKey(app(), { name: 'gone', permissions: ['relayers:read'] });
    await app().delete(`/api/v1/api-keys/${gone.id}`).expect(200);
    expectError(await as(app(), gone.key).get(SELF), 401, 'Unauthorized');
  });

  it('is a read: nothing in the audit trail', async () => {
    const total = async () =>
      ((await app().get('/api/v1/audit?per_page=1').expect(200)).body.pagination as { total_items: number })
        .total_items;
    const reader = await createKey(app(), { name: 'quiet', permissions: ['relayers:read'] });
    const before = await total();
    await as(app(), reader.key).get(SELF).expect(200);
    await app().get(SELF).expect(200);
    expect(await total()).toBe(before);
  });

  it('the other routes of a key still need api_keys:manage; a path id `self` elsewhere is no key', async () => {
    const reader = await createKey(app(), { name: 'reader', permissions: ['relayers:read'] });
    expectError(await as(app(), reader.key).get(`/api/v1/api-keys/${reader.id}`), 403, 'Forbidden');
    expectError(await as(app(), reader.key).get('/api/v1/api-keys/self/permissions'), 403, 'Forbidden');
    expect((await app().get('/api/v1/api-keys/self/permissions')).body).toEqual(
      errorBody('API key not found'),
    );
    expectError(await app().delete('/api/v1/api-keys/self'), 404, 'API key not found');
  });

  it('in the OpenAPI document: any authenticated key, typed answer, no 403', async () => {
    const doc = await openApiDocument<{
      paths: Record<string, Record<string, Record<string, unknown>>>;
      components: { schemas: Record<string, unknown> };
    }>(app());
    const op = doc.paths['/api/v1/api-keys/self'].get;
    const responses = op.responses as Record<string, { content?: Record<string, { schema: unknown }> }>;
    expect({
      permission: op['x-required-permission'],
      statuses: Object.keys(responses).sort(),
      data: (
        responses['200'].content?.['application/json'].schema as {
          properties: { data: unknown };
        }
      ).properties.data,
      schema: doc.components.schemas.CallerResponse,
    }).toEqual({
      permission: 'none',
      statuses: ['200', '401', '429', '500', '503'],
      data: { $ref: '#/components/schemas/CallerResponse' },
      schema: {
        type: 'object',
        properties: {
          type: {
            type: 'string',
            enum: ['admin', 'api_key', 'user'],
            description: '`admin` for the API_KEY, `user` for a person signed in with a session',
          },
          id: { type: 'string', example: 'admin', description: '`admin` for the API_KEY, else the key id' },
          name: { type: 'string', example: 'API_KEY' },
          permissions: {
            type: 'array',
            items: { type: 'string' },
            example: ['relayers:read'],
            description: '`["*"]` for every permission',
          },
          relayer_ids: {
            type: 'array',
            items: { type: 'string' },
            description: 'The relayers the key may see; present only for a key limited to some relayers',
          },
          expires_at: {
            type: ['string', 'null'],
            format: 'date-time',
            description:
              'When the secret used for this request stops working: the key’s expiry, or the end of a rotation’s overlap; null: never',
          },
        },
        required: ['type', 'id', 'name', 'permissions', 'expires_at'],
      },
    });
  });
});
