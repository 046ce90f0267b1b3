import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { errorBody, expectError, successBody } from '../../support/envelope';
import { secrets } from '../../support/secrets';
import { startTestApp, useTestApp, type TestApp } from '../../support/test-app';
import { waitFor } from '../../support/wait';
import { createKey, ISO, UUID, type CreatedKey } from '../../factories';

/**
 * docs/reference/keys-and-audit.md#41-where-a-key-may-be-used-from: a key bound to addresses is
 * refused from elsewhere as an unknown key is; the client address is the socket's (the tests connect
 * from 127.0.0.1), or the one TRUST_PROXY designates from X-Forwarded-For.
 */

const CIDR_RULE = 'must be an IPv4 or IPv6 CIDR (10.0.0.0/8, 2001:db8::/32) or one address';
const LIST_RULE = 'allowed_cidrs must be null or an array of 1 to 100 IPv4 or IPv6 CIDRs';

/** A key bound to `cidrs`, the whole 201 answer checked. */
async function boundKey(app: TestApp, cidrs: string[] | null, name = 'bound'): Promise<CreatedKey> {
  const res = await app.post('/api/v1/api-keys', {
    name,
    permissions: ['relayers:read'],
    allowed_cidrs: cidrs,
  });
  const created = res.body.data as CreatedKey;
  if (typeof created?.key === 'string') secrets.add(created.key);
  expect({ status: res.status, body: res.body as unknown }).toEqual({
    status: 201,
    body: successBody({
      id: UUID,
      name,
      permissions: ['relayers:read'],
      created_at: ISO,
      expires_at: null,
      last_used_at: null,
      key_prefix: created.key.slice(0, 8),
      created_by_key_id: null,
      key: expect.stringMatching(/^rk_[A-Za-z0-9_-]{43}$/) as unknown as string,
      ...(cidrs === null ? {} : { allowed_cidrs: cidrs }),
    }),
  });
  return created;
}

/** GET /relayers with `token`, from behind the proxies `forwardedFor` names (none: no header). */
function listRelayers(app: TestApp, token: string, forwardedFor?: string): request.Test {
  const test = request(app.baseUrl).get('/api/v1/relayers').set('Authorization', `Bearer ${token}`);
  return forwardedFor === undefined ? test : test.set('X-Forwarded-For', forwardedFor);
}

/** Status and body: an accepted key lists the relayers, a refused one gets exactly the 401 of an unknown key. */
async function outcome(app: TestApp, token: string, forwardedFor?: string): Promise<number> {
  const res = await listRelayers(app, token, forwardedFor);
  if (res.status === 401) expect(res.body).toEqual(errorBody('Unauthorized'));
  else
    expect({ status: res.status, success: res.body.success as unknown }).toEqual({
      status: 200,
      success: true,
    });
  return res.status;
}

const unknownKey = () => `rk_${randomBytes(32).toString('base64url')}`;

describe('allowed_cidrs without TRUST_PROXY: the socket address, X-Forwarded-For ignored', () => {
  const handle = useTestApp();
  const app = () => handle.current;

  it('answers the CIDRs with the key, in get and list; a key without them answers as before', async () => {
    const cidrs = ['127.0.0.0/8', '2001:db8::/32', '203.0.113.7'];
    const bound = await boundKey(app(), cidrs);
    const { key: _bound, ...shown } = bound;
    expect((await app().get(`/api/v1/api-keys/${bound.id}`).expect(200)).body).toEqual(successBody(shown));
    const list = (await app().get('/api/v1/api-keys?per_page=100').expect(200)).body.data as CreatedKey[];
    expect(list.filter((k) => k.id === bound.id)).toEqual([shown]);
    const free = await boundKey(app(), null, 'unbound');
    const got = (await app().get(`/api/v1/api-keys/${free.id}`).expect(200)).body.data as CreatedKey;
    expect(Object.keys(got).sort()).toEqual([
      'created_at',
      'created_by_key_id',
      'expires_at',
      'id',
      'key_prefix',
      'last_used_at',
      'name',
      'permissions',
    ]);
  });

  it.each<[string, unknown, string]>([
    [
      'two bad elements',
      ['10.0.0.0/8', 'nope', '2001:db8::/129'],
      `allowed_cidrs[1] ${CIDR_RULE}; allowed_cidrs[2] ${CIDR_RULE}`,
    ],
    ['a prefix too long', ['10.0.0.0/33'], `allowed_cidrs[0] ${CIDR_RULE}`],
    ['a zone', ['fe80::1%eth0'], `allowed_cidrs[0] ${CIDR_RULE}`],
    ['a number', ['10.0.0.0/8', 5], `allowed_cidrs[1] ${CIDR_RULE}`],
    ['a space', [' 10.0.0.0/8'], `allowed_cidrs[0] ${CIDR_RULE}`],
    ['an empty list', [], LIST_RULE],
    ['a string', '10.0.0.0/8', LIST_RULE],
    ['an object', { cidr: '10.0.0.0/8' }, LIST_RULE],
    ['101 CIDRs', Array.from({ length: 101 }, (_, i) => `10.0.${i}.0/24`), LIST_RULE],
  ])(
    'refuses allowed_cidrs with %s: a 400 naming the element, and creates nothing',
    async (_what, cidrs, message) => {
      const name = `refused-${randomBytes(4).toString('hex')}`;
      const res = await app().post('/api/v1/api-keys', {
        name,
        permissions: ['relayers:read'],
        allowed_cidrs: cidrs,
      });
      expectError(res, 400, message);
      const listed = (await app().get('/api/v1/api-keys?per_page=100').expect(200)).body.data as CreatedKey[];
      expect(listed.filter((k) => k.name === name)).toEqual([]);
    },
  );

  it('names a bad CIDR beside the other problems of the body', async () => {
    const res = await app().post('/api/v1/api-keys', {
      permissions: ['relayers:read'],
      allowed_cidrs: ['x'],
    });
    expectError(
      res,
      400,
      `allowed_cidrs[0] ${CIDR_RULE}; name must be 1 to 255 characters, not only whitespace`,
    );
  });

  it('accepts 100 CIDRs', async () => {
    await boundKey(
      app(),
      Array.from({ length: 100 }, (_, i) => `10.0.${i}.0/24`),
      'a hundred',
    );
  });

  it('a key bound to the socket address works; bound elsewhere it is refused as an unknown key, whatever X-Forwarded-For says', async () => {
    const here = await boundKey(app(), ['127.0.0.0/8']);
    const elsewhere = await boundKey(app(), ['203.0.113.0/24', '2001:db8::/32']);
    expect(await outcome(app(), here.key)).toBe(200);
    expect(await outcome(app(), here.key, '203.0.113.7')).toBe(200);
    expect(await outcome(app(), elsewhere.key)).toBe(401);
    expect(await outcome(app(), elsewhere.key, '203.0.113.7')).toBe(401);
    expect(await outcome(app(), elsewhere.key, '2001:db8::5')).toBe(401);
    // The same answer as an unknown key's, on a route as on an unknown path.
    expect(await outcome(app(), unknownKey())).toBe(401);
    for (const token of [elsewhere.key, unknownKey()]) {
      const res = await request(app().baseUrl)
        .get('/api/v1/no-such-route')
        .set('Authorization', `Bearer ${token}`)
        .set('X-Forwarded-For', '203.0.113.7');
      expectError(res, 401, 'Unauthorized');
    }
    expectError(
      await request(app().baseUrl).get('/api/v1/no-such-route').set('Authorization', `Bearer ${here.key}`),
      404,
      'Not Found',
    );
  });

  it('an IPv6 CIDR admits an IPv4 client only inside ::ffff:0:0/96: ::/0 does not, ::ffff:127.0.0.0/104 does', async () => {
    const everyV6 = await boundKey(app(), ['::/0']);
    const mappedLoopback = await boundKey(app(), ['::ffff:127.0.0.0/104']);
    const mapped = await boundKey(app(), ['::ffff:0:0/96']);
    const otherMapped = await boundKey(app(), ['::ffff:10.0.0.0/104']);
    const both = await boundKey(app(), ['::/0', '0.0.0.0/0']);
    expect([
      await outcome(app(), everyV6.key),
      await outcome(app(), mappedLoopback.key),
      await outcome(app(), mapped.key),
      await outcome(app(), otherMapped.key),
      await outcome(app(), both.key),
    ]).toEqual([401, 200, 200, 401, 200]);
  });

  it('a refused use is no use: last_used_at stays null', async () => {
    const elsewhere = await boundKey(app(), ['203.0.113.0/24']);
    expect(await outcome(app(), elsewhere.key)).toBe(401);
    // last_used_at is written within 5 s of a use (keys-and-audit 1.5): wait past a flush.
    await new Promise((resolve) => setTimeout(resolve, 5500));
    expect(
      (await app().get(`/api/v1/api-keys/${elsewhere.id}`).expect(200)).body.data.last_used_at,
    ).toBeNull();
  });
});

describe('allowed_cidrs with TRUST_PROXY=1: the client is the last X-Forwarded-For entry', () => {
  const handle = useTestApp({ TRUST_PROXY: '1' });
  const app = () => handle.current;

  it('IPv4: allowed from the forwarded address only', async () => {
    const key = (await boundKey(app(), ['203.0.113.0/24'])).key;
    expect(await outcome(app(), key, '203.0.113.7')).toBe(200);
    expect(await outcome(app(), key, '198.51.100.1, 203.0.113.7')).toBe(200);
    // One proxy: whatever a client wrote before the last entry is not believed.
    expect(await outcome(app(), key, '203.0.113.7, 198.51.100.1')).toBe(401);
    // Without the header the client is the proxy (the socket).
    expect(await outcome(app(), key)).toBe(401);
    const proxyOnly = (await boundKey(app(), ['127.0.0.0/8'])).key;
    expect(await outcome(app(), proxyOnly, '203.0.113.7')).toBe(401);
    expect(await outcome(app(), proxyOnly)).toBe(200);
  });

  it('IPv6: allowed from the forwarded address only', async () => {
    const key = (await boundKey(app(), ['2001:db8::/32'])).key;
    expect(await outcome(app(), key, '2001:db8:0:1::5')).toBe(200);
    expect(await outcome(app(), key, '2001:db9::5')).toBe(401);
    expect(await outcome(app(), key, '203.0.113.7')).toBe(401);
  });
});

/** docs/reference/keys-and-audit.md#110-a-keys-children: a child is bound inside its creator's addresses. */
describe('a key created by a bound key inherits its allowed_cidrs (TRUST_PROXY=1)', () => {
  const handle = useTestApp({ TRUST_PROXY: '1' });
  const app = () => handle.current;
  const CREATOR = ['203.0.113.0/24'];
  const HOME = '203.0.113.7';

  /** POST /api-keys with `token`, from `address` (behind the one trusted proxy). */
  const createAs = (token: string, body: object, address = HOME) =>
    request(app().baseUrl)
      .post('/api/v1/api-keys')
      .set('Authorization', `Bearer ${token}`)
      .set('X-Forwarded-For', address)
      .send({ name: 'child', permissions: ['relayers:read'], ...body });

  const creator = () =>
    createKey(app(), {
      name: 'bound manager',
      permissions: ['api_keys:manage', 'relayers:read'],
      allowed_cidrs: CREATOR,
    });
  const keyCount = async () =>
    ((await app().get('/api/v1/api-keys?per_page=1').expect(200)).body.pagination as { total_items: number })
      .total_items;

  it.each<[string, object]>([
    ['absent', {}],
    ['null', { allowed_cidrs: null }],
  ])(
    'allowed_cidrs %s: the creator’s, answered and enforced (the child works from no other address)',
    async (_what, body) => {
      const manager = await creator();
      const res = await createAs(manager.key, body);
      const child = res.body.data as CreatedKey;
      if (typeof child?.key === 'string') secrets.add(child.key);
      expect({ status: res.status, allowed: child?.allowed_cidrs }).toEqual({
        status: 201,
        allowed: CREATOR,
      });
      expect(await outcome(app(), child.key, '203.0.113.99')).toBe(200);
      expect(await outcome(app(), child.key, '198.51.100.1')).toBe(401);
      expect(await outcome(app(), child.key)).toBe(401);
      expect(
        (await app().get(`/api/v1/api-keys/${child.id}`).expect(200)).body.data.allowed_cidrs as unknown,
      ).toEqual(CREATOR);
    },
  );

  it('narrower CIDRs, IPv4 or IPv4-mapped IPv6, are kept as given', async () => {
    const manager = await creator();
    const cidrs = ['203.0.113.128/25', '203.0.113.7', '::ffff:203.0.113.0/120'];
    const res = await createAs(manager.key, { allowed_cidrs: cidrs });
    const child = res.body.data as CreatedKey;
    if (typeof child?.key === 'string') secrets.add(child.key);
    expect({ status: res.status, allowed: child?.allowed_cidrs }).toEqual({ status: 201, allowed: cidrs });
    expect(await outcome(app(), child.key, '203.0.113.200')).toBe(200);
  });

  it.each<[string[], string]>([
    [['198.51.100.0/24'], 'allowed_cidrs[0]'],
    [['203.0.113.0/23'], 'allowed_cidrs[0]'],
    [['0.0.0.0/0'], 'allowed_cidrs[0]'],
    [['203.0.113.0/24', '::/0'], 'allowed_cidrs[1]'],
    [['2001:db8::/32', '203.0.113.1', '10.0.0.1'], 'allowed_cidrs[0], allowed_cidrs[2]'],
  ])('wider %j: 403 naming %s, nothing created', async (cidrs, named) => {
    const manager = await creator();
    const before = await keyCount();
    const res = await createAs(manager.key, { allowed_cidrs: cidrs });
    expect({ status: res.status, body: res.body as unknown }).toEqual({
      status: 403,
      body: errorBody(`Forbidden: ${named} must be inside the allowed_cidrs of the key creating it`),
    });
    expect(await keyCount()).toBe(before);
  });
});

describe('allowed_cidrs with TRUST_PROXY a list of subnets: the first address from the right outside them', () => {
  const handle = useTestApp({ TRUST_PROXY: '127.0.0.0/8, 198.51.100.0/24' });
  const app = () => handle.current;

  it('skips the trusted proxies, believes nothing beyond the first untrusted one', async () => {
    const key = (await boundKey(app(), ['203.0.113.0/24'])).key;
    expect(await outcome(app(), key, '203.0.113.7')).toBe(200);
    expect(await outcome(app(), key, '203.0.113.7, 198.51.100.1')).toBe(200);
    expect(await outcome(app(), key, '203.0.113.7, 198.51.100.1, 198.51.100.2')).toBe(200);
    // 192.0.2.1 is no trusted proxy: it is the client, whatever it forwarded.
    expect(await outcome(app(), key, '203.0.113.7, 192.0.2.1')).toBe(401);
    expect(await outcome(app(), key)).toBe(401);
    const other = (await boundKey(app(), ['192.0.2.0/24'])).key;
    expect(await outcome(app(), other, '203.0.113.7, 192.0.2.1')).toBe(200);
  });
});

describe('the failure budget and the log see the address the key is checked against', () => {
  // A budget of 3 failed authentications per client address (docs/reference/rate-limits.md).
  const handle = useTestApp({
    TRUST_PROXY: '1',
    RATE_LIMIT_BURST_SIZE: '3',
    RATE_LIMIT_REQUESTS_PER_SECOND: '0.05',
  });
  const app = () => handle.current;

  it('refusals from one forwarded address spend its budget only; the log names it', async () => {
    const key = (await boundKey(app(), ['203.0.113.0/24'])).key;
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await listRelayers(app(), key, '198.51.100.77')).status);
    expect(statuses).toEqual([401, 401, 401, 429]);
    // Another address has its own budget, and the key works from where it may be used.
    expect(await outcome(app(), unknownKey(), '198.51.100.2')).toBe(401);
    expect(await outcome(app(), key, '203.0.113.7')).toBe(200);
    // The log is written asynchronously: wait for the four requests' lines.
    const refusals = () =>
      app()
        .logText()
        .split('\n')
        .filter((line) => line.includes('"client":"198.51.100.77"') && line.includes('request completed'));
    await waitFor('the four refusals in the log', () => refusals().length >= 4, { timeoutMs: 5000 });
    expect(
      refusals().map((line) => (JSON.parse(line) as { res: { statusCode: number } }).res.statusCode),
    ).toEqual([401, 401, 401, 429]);
  });
});

describe('TRUST_PROXY=true at start', () => {
  it('is refused, naming the variable and asking for a hop count or the proxies’ CIDRs', async () => {
    const started = startTestApp({ DATABASE_URL: 'sqlite::memory:', TRUST_PROXY: 'true' });
    await expect(started.then((app) => app.close())).rejects.toThrow(
      "TRUST_PROXY must be a hop count or the proxies' addresses/CIDRs, not true: trusting every hop lets any client claim any address",
    );
  });
});
