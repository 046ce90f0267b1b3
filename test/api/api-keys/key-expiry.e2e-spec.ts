import { expectError } from '../../support/envelope';
import { useTestApp } from '../../support/test-app';
import { waitFor } from '../../support/wait';
import { createKey } from '../../factories';
import { as } from '../../support/as-key';

/** docs/reference/keys-and-audit.md#43-expiry-you-can-see-coming */

const DAY = 24 * 3600 * 1000;

const HEADER = 'x-api-key-expires-at';

describe('X-Api-Key-Expires-At on every answer to a key expiring within 7 days', () => {
  const handle = useTestApp();
  const app = () => handle.current;

  it('is on answers of every kind to a key expiring in 3 days: the key’s expires_at', async () => {
    const expires = new Date(Date.now() + 3 * DAY).toISOString();
    const soon = await createKey(app(), {
      name: 'soon',
      permissions: ['relayers:read'],
      expires_at: expires,
    });
    expect(soon.expires_at).toBe(expires);
    const answers = [
      await as(app(), soon.key).get('/api/v1/relayers'),
      await as(app(), soon.key).get('/api/v1/relayers/no-such-relayer'),
      await as(app(), soon.key).get('/api/v1/relayers?per_page=0'),
      await as(app(), soon.key).get('/api/v1/notifications'),
      await as(app(), soon.key).post('/api/v1/relayers', {}),
      await as(app(), soon.key).get('/api/v1/no-such-route'),
    ];
    expect(answers.map((res) => [res.status, res.headers[HEADER]])).toEqual([
      [200, expires],
      [404, expires],
      [400, expires],
      [403, expires],
      [403, expires],
      [404, expires],
    ]);
  });

  it('is absent for a key expiring in 8 days, one that never expires, the administrator and an unknown key', async () => {
    const later = await createKey(app(), {
      name: 'later',
      permissions: ['relayers:read'],
      expires_at: new Date(Date.now() + 8 * DAY).toISOString(),
    });
    const never = await createKey(app(), { name: 'never', permissions: ['relayers:read'], expires_at: null });
    for (const token of [later.key, never.key, app().apiKey]) {
      const res = await as(app(), token).get('/api/v1/relayers');
      expect([res.status, res.headers[HEADER]]).toEqual([200, undefined]);
    }
    const unknown = await as(app(), 'rk_' + 'x'.repeat(43)).get('/api/v1/relayers');
    expectError(unknown, 401, 'Unauthorized');
    expect(unknown.headers[HEADER]).toBeUndefined();
  });

  it('is on the answers to a key expiring a minute inside the 7 days, not to one a minute beyond', async () => {
    const inside = new Date(Date.now() + 7 * DAY - 60_000).toISOString();
    const beyond = new Date(Date.now() + 7 * DAY + 60_000).toISOString();
    const [a, b] = [
      await createKey(app(), { name: 'inside', permissions: ['relayers:read'], expires_at: inside }),
      await createKey(app(), { name: 'beyond', permissions: ['relayers:read'], expires_at: beyond }),
    ];
    const answers = [
      await as(app(), a.key).get('/api/v1/relayers'),
      await as(app(), b.key).get('/api/v1/relayers'),
    ];
    expect(answers.map((res) => [res.status, res.headers[HEADER]])).toEqual([
      [200, inside],
      [200, undefined],
    ]);
  });

  it('a key created by an expiring key carries its creator’s expiry', async () => {
    const expires = new Date(Date.now() + 2 * DAY).toISOString();
    const manager = await createKey(app(), {
      name: 'manager',
      permissions: ['api_keys:manage', 'relayers:read'],
      expires_at: expires,
    });
    const child = await createKey(
      app(),
      { name: 'child', permissions: ['relayers:read'], expires_at: null },
      manager.key,
    );
    expect(child.expires_at).toBe(expires);
    expect((await as(app(), child.key).get('/api/v1/relayers')).headers[HEADER]).toBe(expires);
  });
});

describe('X-Api-Key-Expires-At on a rate-limited answer', () => {
  const handle = useTestApp({ RATE_LIMIT_BURST_SIZE: '3', RATE_LIMIT_REQUESTS_PER_SECOND: '0.05' });
  const app = () => handle.current;

  it('the 429 of the key’s own budget carries it too', async () => {
    const expires = new Date(Date.now() + DAY).toISOString();
    const soon = await createKey(app(), {
      name: 'soon',
      permissions: ['relayers:read'],
      expires_at: expires,
    });
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await as(app(), soon.key).get('/api/v1/relayers'));
    expect(answers.map((res) => [res.status, res.headers[HEADER]])).toEqual([
      [200, expires],
      [200, expires],
      [200, expires],
      [429, expires],
    ]);
    expectError(answers[3], 429, 'Too Many Requests');
  });
});

describe('the gauge api_key_expiry_timestamp_seconds', () => {
  const handle = useTestApp();
  const app = () => handle.current;

  it('has one sample per live key with an expiry, by key_id and name; revoked and expired keys leave it', async () => {
    const path = '/metrics/api_key_expiry_timestamp_seconds';
    const header = [
      '# HELP api_key_expiry_timestamp_seconds When each live API key with an expiry expires (Unix time, seconds)',
      '# TYPE api_key_expiry_timestamp_seconds gauge',
    ];
    expect((await app().get(path).expect(200)).text).toBe(`${header.join('\n')}\n`);
    const a = await createKey(app(), {
      name: 'team-a deploy',
      permissions: ['relayers:write'],
      expires_at: '2030-01-01T00:00:00Z',
    });
    const b = await createKey(app(), {
      name: 'dashboards "grafana"',
      permissions: ['metrics:read'],
      expires_at: '2031-06-01T12:00:00.500Z',
    });
    await createKey(app(), { name: 'never', permissions: ['relayers:read'], expires_at: null });
    const revoked = await createKey(app(), {
      name: 'revoked',
      permissions: ['relayers:read'],
      expires_at: '2032-01-01T00:00:00Z',
    });
    await app().delete(`/api/v1/api-keys/${revoked.id}`).expect(200);
    const brief = await createKey(app(), {
      name: 'brief',
      permissions: ['relayers:read'],
      expires_at: new Date(Date.now() + 1500).toISOString(),
    });
    const samples = () => app().get(path).expect(200);
    expect((await samples()).text).toContain(`key_id="${brief.id}"`);
    await waitFor(
      'the brief key to expire',
      async () => (await as(app(), brief.key).get('/api/v1/relayers')).status === 401,
      {
        timeoutMs: 5000,
      },
    );
    const lines = [
      `api_key_expiry_timestamp_seconds{key_id="${a.id}",name="team-a deploy"} ${Date.parse('2030-01-01T00:00:00Z') / 1000}`,
      `api_key_expiry_timestamp_seconds{key_id="${b.id}",name="dashboards \\"grafana\\""} ${Date.parse('2031-06-01T12:00:00.500Z') / 1000}`,
    ];
    expect((await samples()).text).toBe(`${[...header, ...lines].join('\n')}\n`);
    // In the full scrape, and for a key holding metrics:read.
    expect((await as(app(), b.key).get('/debug/metrics/scrape').expect(200)).text).toContain(
      `${lines.join('\n')}\n`,
    );
    expect((await app().get('/metrics').expect(200)).body).toContain('api_key_expiry_timestamp_seconds');
  });
});
