import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { resourceTypeRule } from '../../support/declared';
import { expectError } from '../../support/envelope';
import { secrets } from '../../support/secrets';
import { useTestApp } from '../../support/test-app';
import { RPC_SECRET } from '../../support/test-catalogue';
import { createKey, ISO, relayerBody, signerBody, uid, UUID } from '../../factories';

const ADMIN = { type: 'admin', id: 'admin', name: 'API_KEY' };

interface AuditRecord {
  id: string;
  at: string;
  actor: { type: string; id: string; name: string };
  action: string;
  resource_type: string;
  resource_id: string;
  request_id: string;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
}

describe('the audit trail (docs/reference/keys-and-audit.md)', () => {
  const handle = useTestApp();
  const app = () => handle.current;
  let writer: { id: string; key: string };

  const audit = async (
    query: string,
  ): Promise<{ data: AuditRecord[]; pagination: Record<string, number> }> => {
    const res = await app().get(`/api/v1/audit?${query}`).expect(200);
    expect(secrets.foundIn(res.text)).toEqual([]);
    return res.body as { data: AuditRecord[]; pagination: Record<string, number> };
  };
  const asWriter = (method: 'post' | 'patch' | 'delete', path: string, body?: object) => {
    const req = request(app().baseUrl)[method](path).set('Authorization', `Bearer ${writer.key}`);
    return body ? req.send(body) : req;
  };

  beforeAll(async () => {
    writer = await createKey(app(), {
      name: 'deploy pipeline',
      permissions: ['relayers:write', 'notifications:write'],
    });
  });

  it('records a relayer create, update and delete with the actor, the request id and the response-shaped sides', async () => {
    const id = uid('aud');
    const created = await app()
      .post('/api/v1/relayers', {
        ...relayerBody('evm', { id, name: 'audited', signer_id: 'pool-0100' }),
        custom_rpc_urls: [{ url: `https://rpc.example.org/v2/${RPC_SECRET}`, weight: 50 }],
      })
      .expect(201);
    const updated = await asWriter('patch', `/api/v1/relayers/${id}`, { name: 'renamed' }).expect(200);
    const deleted = await asWriter('delete', `/api/v1/relayers/${id}`).expect(200);
    const { data, pagination } = await audit(`resource_type=relayer&resource_id=${id}`);
    expect(pagination).toEqual({ current_page: 1, per_page: 10, total_items: 3 });
    const writerActor = { type: 'api_key', id: writer.id, name: 'deploy pipeline' };
    expect(data).toEqual([
      {
        id: UUID,
        at: ISO,
        actor: writerActor,
        action: 'relayer.delete',
        resource_type: 'relayer',
        resource_id: id,
        request_id: deleted.headers['x-request-id'],
        before: updated.body.data,
        after: null,
      },
      {
        id: UUID,
        at: ISO,
        actor: writerActor,
        action: 'relayer.update',
        resource_type: 'relayer',
        resource_id: id,
        request_id: updated.headers['x-request-id'],
        before: created.body.data,
        after: updated.body.data,
      },
      {
        id: UUID,
        at: ISO,
        actor: ADMIN,
        action: 'relayer.create',
        resource_type: 'relayer',
        resource_id: id,
        request_id: created.headers['x-request-id'],
        before: null,
        after: created.body.data,
      },
    ]);
    // Newest first; the RPC URL only masked.
    expect(Date.parse(data[0].at)).toBeGreaterThanOrEqual(Date.parse(data[2].at));
    expect(JSON.stringify(data)).toContain('https://rpc.example.org/v2/***');
  });

  it('keeps every digit of an amount beyond 2^53 in the records it serves', async () => {
    const id = uid('aud');
    await app()
      .post('/api/v1/relayers', relayerBody('evm', { id, name: 'wei', signer_id: 'pool-0100' }))
      .expect(201);
    const patched = await app()
      .patch(`/api/v1/relayers/${id}`, { policies: { min_balance: '1000000000000000000001' } })
      .expect(200);
    expect(patched.text).toContain('"min_balance":1000000000000000000001');
    const res = await app().get(
      `/api/v1/audit?resource_type=relayer&resource_id=${id}&action=relayer.update`,
    );
    expect(res.status).toBe(200);
    expect(res.text).toContain('"min_balance":1000000000000000000001');
    const [record] = (res.body as { data: AuditRecord[] }).data;
    expect(record.after).toEqual(patched.body.data);
  });

  it('keeps secrets out: a signing key, a signer key, an RPC URL, an API key', async () => {
    const signingKey = secrets.add(`sk-${randomBytes(16).toString('hex')}`);
    await asWriter('post', '/api/v1/notifications', {
      id: 'aud-hook',
      url: 'https://hooks.example.org/audit',
      signing_key: signingKey,
    }).expect(201);
    await app()
      .post('/api/v1/signers', signerBody({ id: 'aud-signer' }))
      .expect(201);
    const rpcKey = secrets.add(`k${randomBytes(10).toString('hex')}`);
    await app()
      .patch('/api/v1/networks/evm:mainnet', { rpc_urls: [`https://eth.example.org/v1/${rpcKey}`] })
      .expect(200);
    const key = await createKey(app(), { name: 'reader', permissions: ['audit:read'] });

    const hook = (await audit('resource_id=aud-hook')).data;
    expect(hook.map((r) => [r.action, r.actor.id, r.after])).toEqual([
      [
        'notification.create',
        writer.id,
        { id: 'aud-hook', type: 'webhook', url: 'https://hooks.example.org/***', has_signing_key: true },
      ],
    ]);
    const signer = (await audit('resource_type=signer&resource_id=aud-signer')).data;
    expect(signer.map((r) => [r.action, r.before, Object.keys(r.after ?? {})])).toEqual([
      ['signer.create', null, ['id', 'type', 'config', 'addresses']],
    ]);
    const network = (await audit('action=network.update')).data;
    expect(network.map((r) => [r.resource_id, r.before?.rpc_urls, r.after?.rpc_urls])).toEqual([
      [
        'evm:mainnet',
        [{ url: 'https://rpc.example.com/***', weight: 100 }],
        [{ url: 'https://eth.example.org/v1/***', weight: 100 }],
      ],
    ]);
    const created = (await audit(`resource_type=api_key&resource_id=${key.id}`)).data;
    expect(created.map((r) => [r.action, r.after])).toEqual([
      [
        'api_key.create',
        {
          id: key.id,
          name: 'reader',
          permissions: ['audit:read'],
          created_at: ISO,
          expires_at: null,
          last_used_at: null,
          key_prefix: key.key_prefix,
          created_by_key_id: null,
        },
      ],
    ]);
    const everything = await app().get('/api/v1/audit?per_page=100').expect(200);
    expect(secrets.foundIn(everything.text)).toEqual([]);
  });

  it('masks a notification URL as RPC URLs are masked: a Slack token in the path never reaches the trail', async () => {
    const token = secrets.add(`XXXX${randomBytes(12).toString('hex')}`);
    const rotated = secrets.add(`YYYY${randomBytes(12).toString('hex')}`);
    const id = uid('aud-slack');
    const created = await asWriter('post', '/api/v1/notifications', {
      id,
      url: `https://hooks.slack.com/services/T000/B000/${token}`,
    }).expect(201);
    const updated = await asWriter('patch', `/api/v1/notifications/${id}`, {
      url: `https://hooks.slack.com/services/T000/B000/${rotated}?channel=ops`,
    }).expect(200);
    const deleted = await asWriter('delete', `/api/v1/notifications/${id}`).expect(200);
    const masked = {
      id,
      type: 'webhook',
      url: 'https://hooks.slack.com/services/T000/B000/***',
      has_signing_key: false,
    };
    const maskedAfterUpdate = {
      ...masked,
      url: 'https://hooks.slack.com/services/T000/B000/***?channel=***',
    };
    const writerActor = { type: 'api_key', id: writer.id, name: 'deploy pipeline' };
    const record = (action: string, response: { headers: Record<string, string> }) => ({
      id: UUID,
      at: ISO,
      actor: writerActor,
      action: `notification.${action}`,
      resource_type: 'notification',
      resource_id: id,
      request_id: response.headers['x-request-id'],
    });
    // audit() also asserts that neither token is anywhere in the answer.
    expect(await audit(`resource_type=notification&resource_id=${id}`)).toEqual({
      success: true,
      error: null,
      pagination: { current_page: 1, per_page: 10, total_items: 3 },
      data: [
        { ...record('delete', deleted), before: maskedAfterUpdate, after: null },
        { ...record('update', updated), before: masked, after: maskedAfterUpdate },
        { ...record('create', created), before: null, after: masked },
      ],
    });
    const everything = await app().get('/api/v1/audit?per_page=100').expect(200);
    expect(secrets.foundIn(everything.text)).toEqual([]);
  });

  it('a change that fails leaves no record', async () => {
    const before = (await audit('per_page=1')).pagination.total_items;
    await app().post('/api/v1/relayers', { name: 'x' }).expect(400);
    await app()
      .post('/api/v1/relayers', relayerBody('evm', { id: 'pool-dup', name: 'a', signer_id: 'pool-0101' }))
      .expect(201);
    expectError(
      await app().post(
        '/api/v1/relayers',
        relayerBody('evm', { id: 'pool-dup', name: 'a', signer_id: 'pool-0102' }),
      ),
      409,
      'Relayer with this ID already exists',
    );
    expectError(
      await app().delete('/api/v1/signers/pool-0001'),
      409,
      'Signer pool-0001 is defined in the configuration file',
    );
    await app().patch('/api/v1/networks/evm:mainnet', { rpc_urls: [] }).expect(400);
    expect((await audit('per_page=1')).pagination.total_items).toBe(before + 1);
  });

  it('filters by actor, action and time, and pages newest first', async () => {
    const since = new Date().toISOString();
    for (let i = 0; i < 3; i++) {
      await asWriter('post', '/api/v1/notifications', {
        id: `aud-page-${i}`,
        url: 'https://hooks.example.org/p',
      }).expect(201);
    }
    const until = new Date(Date.now() + 1).toISOString();
    const page1 = await audit(`actor_id=${writer.id}&action=notification.create&since=${since}&per_page=2`);
    expect(page1.pagination).toEqual({ current_page: 1, per_page: 2, total_items: 3 });
    expect(page1.data.map((r) => r.resource_id)).toEqual(['aud-page-2', 'aud-page-1']);
    const page2 = await audit(
      `actor_id=${writer.id}&action=notification.create&since=${since}&until=${until}&per_page=2&page=2`,
    );
    expect(page2.data.map((r) => r.resource_id)).toEqual(['aud-page-0']);
    expect((await audit(`since=${until}`)).data).toEqual([]);
    expect((await audit('actor_id=nobody')).pagination.total_items).toBe(0);
  });

  it('refuses bad filters with a 400 naming them', async () => {
    expectError(await app().get('/api/v1/audit?resource_type=planet'), 400, resourceTypeRule());
    expectError(
      await app().get('/api/v1/audit?action=relayer.explode'),
      400,
      'action must be <resource_type>.<create|update|delete>',
    );
    expectError(
      await app().get('/api/v1/audit?since=yesterday'),
      400,
      'since must be an RFC 3339 date and time',
    );
  });

  // docs/reference/hardening.md "Dates": never a 500, never a filter silently ignored.
  it.each([
    '2030-W01',
    '2030-123',
    '20300101',
    '2030-01-01',
    '2030-01-01T00:00:00',
    '2030-02-30T00:00:00Z',
    '2030-01-01T25:00:00Z',
    '2030-01-01T00:00:00 02:00', // a + not percent-encoded arrives as a space
    '',
  ])('refuses since and until of %j with a 400 naming each', async (value) => {
    const q = encodeURIComponent(value);
    expectError(await app().get(`/api/v1/audit?since=${q}`), 400, 'since must be an RFC 3339 date and time');
    expectError(await app().get(`/api/v1/audit?until=${q}`), 400, 'until must be an RFC 3339 date and time');
    expectError(
      await app().get(`/api/v1/audit?since=${q}&until=${q}`),
      400,
      'since must be an RFC 3339 date and time; until must be an RFC 3339 date and time',
    );
  });

  it('reads since and until with offsets and fractions', async () => {
    await asWriter('post', '/api/v1/notifications', {
      id: 'aud-offset',
      url: 'https://hooks.example.org/o',
    }).expect(201);
    const [record] = (await audit('resource_id=aud-offset')).data;
    const at = Date.parse(record.at);
    // The same instant written with an offset of +05:30, and with microseconds.
    const shifted = (ms: number) =>
      encodeURIComponent(`${new Date(ms + 5.5 * 3600_000).toISOString().slice(0, 23)}000+05:30`);
    expect((await audit(`resource_id=aud-offset&since=${shifted(at)}`)).data).toHaveLength(1);
    expect((await audit(`resource_id=aud-offset&since=${shifted(at + 1)}`)).data).toHaveLength(0);
    expect((await audit(`resource_id=aud-offset&until=${shifted(at + 1)}`)).data).toHaveLength(1);
    expect((await audit(`resource_id=aud-offset&until=${shifted(at)}`)).data).toHaveLength(0);
  });

  it('needs audit:read', async () => {
    const res = await request(app().baseUrl)
      .get('/api/v1/audit')
      .set('Authorization', `Bearer ${writer.key}`);
    expectError(res, 403, 'Forbidden');
  });
});
