import { randomBytes } from 'node:crypto';
import { ConfigError, loadConfig } from '../../src/config/app-config';
import { errorBody, expectError, successBody } from '../support/envelope';
import { rawRequest } from '../support/raw-http';
import { useTestApp } from '../support/test-app';
import { uid } from '../factories';

describe('bearer authentication (docs/reference/auth.md)', () => {
  const handle = useTestApp();
  const app = () => handle.current;
  let notificationId: string;

  beforeAll(async () => {
    notificationId = (
      await app().post('/api/v1/notifications', { url: 'https://hooks.example.com/auth' }).expect(201)
    ).body.data.id as string;
  });

  const protectedRoutes = (): Array<[string, string, object?]> => [
    ['GET', '/api/v1/notifications'],
    ['POST', '/api/v1/notifications', { id: uid('anon'), url: 'https://x.example.com' }],
    ['GET', `/api/v1/notifications/${notificationId}`],
    ['PATCH', `/api/v1/notifications/${notificationId}`, { url: 'https://changed.example.com' }],
    ['DELETE', `/api/v1/notifications/${notificationId}`],
  ];

  const send = (method: string, path: string, authorization: string[] = [], body?: object) =>
    rawRequest(app().port, {
      method,
      path,
      headers: [
        ...authorization.map((v): [string, string] => ['Authorization', v]),
        ['Content-Type', 'application/json'],
      ],
      body: body ? JSON.stringify(body) : undefined,
    });

  it('no header, a wrong token, the Basic scheme or two headers → 401 on every protected route, with no effect', async () => {
    const k = app().apiKey;
    const wrong = randomBytes(36).toString('base64url');
    const variants = [
      [],
      [`Bearer ${wrong}`],
      [`Basic ${Buffer.from(`${k}:`).toString('base64')}`],
      [`Bearer ${k}`, `Bearer ${k}`],
    ];
    for (const [method, path, body] of protectedRoutes()) {
      for (const authorization of variants) {
        const res = await send(method, path, authorization, body);
        expect({ method, path, authorization, status: res.status, body: res.body }).toEqual({
          method,
          path,
          authorization,
          status: 401,
          body: errorBody('Unauthorized'),
        });
      }
    }
    const still = await app().get(`/api/v1/notifications/${notificationId}`).expect(200);
    expect(still.body).toEqual(
      successBody({
        id: notificationId,
        type: 'webhook',
        url: 'https://hooks.example.com/auth',
        has_signing_key: false,
      }),
    );
  });

  it.each([
    (k: string) => `Basic ${k}`,
    () => 'Bearer',
    () => 'Bearer ',
    (k: string) => `Bearer ${k}x`,
    (k: string) => `Bearer ${k.slice(0, -1)}`,
    (k: string) => `Bearer ${k} ${k}`,
    (k: string) => `Bearer Bearer ${k}`,
    (k: string) => `Token ${k}`,
    (k: string) => k,
    (k: string) => `Bearer${k}`,
    (k: string) => `Bearer ${k},x`,
  ])('malformed credentials (%#) → 401', async (make) => {
    expect((await send('GET', '/api/v1/notifications', [make(app().apiKey)])).body).toEqual(
      errorBody('Unauthorized'),
    );
  });

  it('non-ASCII bytes in the header → 401, not 500', async () => {
    const res = await rawRequest(app().port, {
      method: 'GET',
      path: '/api/v1/notifications',
      headers: [
        ['Authorization', Buffer.concat([Buffer.from('Bearer '), Buffer.from([0xff, 0xfe, 0xc3, 0x28])])],
      ],
    });
    expect({ status: res.status, body: res.body }).toEqual({ status: 401, body: errorBody('Unauthorized') });
  });

  it('the scheme is case-insensitive', async () => {
    for (const scheme of ['bearer', 'BEARER', 'BeArEr']) {
      expect((await send('GET', '/api/v1/notifications', [`${scheme} ${app().apiKey}`])).status).toBe(200);
    }
  });

  it('health and ready need no token', async () => {
    const health = await app().get('/api/v1/health', false).expect(200);
    expect(health.text).toBe('OK');
    await app().get('/api/v1/ready', false).expect(200);
  });
});

describe('API_KEY at start (docs/reference/running.md#1-start-up)', () => {
  it('production refuses a missing or short API_KEY, naming it', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(ConfigError);
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(
      /API_KEY is required with NODE_ENV=production/,
    );
    expect(() => loadConfig({ NODE_ENV: 'production', API_KEY: 'x'.repeat(31) })).toThrow(
      /API_KEY must be at least 32 characters/,
    );
    expect(loadConfig({ NODE_ENV: 'production', API_KEY: 'x'.repeat(32) }).auth).toEqual({
      apiKey: 'x'.repeat(32),
      generated: false,
    });
  });

  it('outside production a missing API_KEY is generated, random and required', () => {
    const a = loadConfig({ NODE_ENV: 'development' }).auth;
    const b = loadConfig({ NODE_ENV: 'development' }).auth;
    expect(a.generated).toBe(true);
    expect(a.apiKey).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(a.apiKey).not.toBe(b.apiKey);
  });
});

describe('a rejected request is never treated as the key holder', () => {
  const handle = useTestApp();
  it('wrong-token requests get 401 with the envelope and X-Request-Id', async () => {
    const res = await handle.current.get('/api/v1/notifications', false).set('Authorization', 'Bearer nope');
    expectError(res, 401, 'Unauthorized');
    expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });
});
