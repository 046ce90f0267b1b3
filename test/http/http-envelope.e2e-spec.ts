import { randomUUID } from 'node:crypto';
import { errorBody, expectError } from '../support/envelope';
import { rawRequest } from '../support/raw-http';
import { useTestApp } from '../support/test-app';

const MIB = 1024 * 1024;
const LIMIT_MESSAGE = 'Request body exceeds the limit of 1 MiB (1048576 bytes)';
const NOT_JSON = 'Request body is not valid JSON: it must be a JSON object';
const WRONG_TYPE = 'Content-Type must be application/json or application/merge-patch+json';

/** {"url":"…","pad":"aaa…"} of exactly `size` bytes (pad is an unknown field). */
function paddedBody(size: number): string {
  const head = '{"url":"https://hooks.example.com/pad","pad":"';
  return head + 'a'.repeat(size - head.length - 2) + '"}';
}

describe('envelope, body parsing and errors (docs/reference/envelope-and-errors.md)', () => {
  const handle = useTestApp();
  const app = () => handle.current;
  const auth = (): [string, string] => ['Authorization', `Bearer ${app().apiKey}`];
  const json: [string, string] = ['Content-Type', 'application/json'];
  let notificationId: string;

  beforeAll(async () => {
    notificationId = (
      await app().post('/api/v1/notifications', { url: 'https://hooks.example.com/e' }).expect(201)
    ).body.data.id as string;
  });

  it.each([
    '{',
    '{"url": }',
    "{'url': 'x'}",
    '{"a":1,}',
    'nul',
    '{"url":"https://x.example"} trailing',
    '\u0000',
    '',
  ])('malformed JSON %j → 400 saying the body is not valid JSON (POST and PATCH)', async (body) => {
    for (const [method, path] of [
      ['POST', '/api/v1/notifications'],
      ['PATCH', `/api/v1/notifications/${notificationId}`],
      ['PATCH', '/api/v1/notifications/missing-one'],
    ]) {
      const res = await rawRequest(app().port, { method, path, headers: [auth(), json], body });
      expect({ status: res.status, body: res.body }).toEqual({ status: 400, body: errorBody(NOT_JSON) });
    }
  });

  it.each(['[]', '[{"url":"https://x.example"}]', '"text"', '123', 'null', 'true'])(
    'a JSON body that is not an object (%s) → 400',
    async (body) => {
      const res = await rawRequest(app().port, {
        method: 'POST',
        path: '/api/v1/notifications',
        headers: [auth(), json],
        body,
      });
      expect({ status: res.status, body: res.body }).toEqual({ status: 400, body: errorBody(NOT_JSON) });
    },
  );

  it('invalid UTF-8 → 400', async () => {
    const body = Buffer.concat([
      Buffer.from('{"url":"https://x.example/'),
      Buffer.from([0xc3, 0x28]),
      Buffer.from('"}'),
    ]);
    const res = await rawRequest(app().port, {
      method: 'POST',
      path: '/api/v1/notifications',
      headers: [auth(), json],
      body,
    });
    expect({ status: res.status, body: res.body }).toEqual({
      status: 400,
      body: errorBody('Request body is not valid UTF-8 JSON'),
    });
  });

  it.each([
    'text/plain',
    'application/x-www-form-urlencoded',
    'application/xml',
    'text/json',
    'multipart/form-data; boundary=x',
  ])('Content-Type %s → 400 naming the accepted types, and nothing is created', async (type) => {
    const id = `ct-${randomUUID().slice(0, 8)}`;
    const res = await rawRequest(app().port, {
      method: 'POST',
      path: '/api/v1/notifications',
      headers: [auth(), ['Content-Type', type]],
      body: JSON.stringify({ id, url: 'https://x.example.com' }),
    });
    expect({ status: res.status, body: res.body }).toEqual({ status: 400, body: errorBody(WRONG_TYPE) });
    expectError(await app().get(`/api/v1/notifications/${id}`), 404, 'Notification not found');
  });

  it('no Content-Type → 400; charset utf-8 and merge-patch+json are accepted', async () => {
    const missing = await rawRequest(app().port, {
      method: 'POST',
      path: '/api/v1/notifications',
      headers: [auth()],
      body: '{"url":"https://x.example.com"}',
    });
    expect({ status: missing.status, body: missing.body }).toEqual({
      status: 400,
      body: errorBody(WRONG_TYPE),
    });
    for (const type of [
      'application/json; charset=utf-8',
      'application/merge-patch+json',
      'Application/JSON',
    ]) {
      const res = await rawRequest(app().port, {
        method: 'POST',
        path: '/api/v1/notifications',
        headers: [auth(), ['Content-Type', type]],
        body: '{"url":"https://x.example.com"}',
      });
      expect(res.status).toBe(201);
    }
  });

  it('the body limit is exactly 1 MiB: 1048576 bytes are parsed, one more → 413 (Content-Length and chunked)', async () => {
    const at = await rawRequest(app().port, {
      method: 'POST',
      path: '/api/v1/notifications',
      headers: [auth(), json],
      body: paddedBody(MIB),
    });
    expect({ status: at.status, body: at.body }).toEqual({
      status: 400,
      body: errorBody('pad is not an allowed field'),
    });
    for (const chunked of [false, true]) {
      const over = await rawRequest(app().port, {
        method: 'POST',
        path: '/api/v1/notifications',
        headers: [auth(), json, ['X-Request-Id', 'big-one']],
        body: paddedBody(MIB + 1),
        chunked,
      });
      expect({ status: over.status, body: over.body, id: over.headers['x-request-id'] }).toEqual({
        status: 413,
        body: errorBody(LIMIT_MESSAGE),
        id: 'big-one',
      });
    }
  });

  it('every response carries X-Request-Id: a sane client one is echoed, otherwise a fresh one', async () => {
    const mine = `client-${randomUUID()}`;
    for (const path of ['/api/v1/notifications', '/api/v1/nope', '/api/v1/health', '/api/v1/ready']) {
      const echoed = await app().get(path).set('X-Request-Id', mine);
      expect(echoed.headers['x-request-id']).toBe(mine);
    }
    const a = await app().get('/api/v1/notifications');
    const b = await app().get('/api/v1/notifications', false);
    expect(a.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(b.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(a.headers['x-request-id']).not.toBe(b.headers['x-request-id']);
    const odd = await app().get('/api/v1/notifications').set('X-Request-Id', 'has space and "quotes"');
    expect(odd.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('unknown routes → 404 "Not Found" with the key, 401 without', async () => {
    for (const [method, path] of [
      ['GET', '/api/v1'],
      ['GET', '/api/v1/does-not-exist'],
      ['PUT', '/api/v1/does-not-exist'],
      ['GET', `/api/v1/notifications/${notificationId}/nothing-here`],
      ['DELETE', '/api/v1/relayers/a/b'],
    ]) {
      const authed = await rawRequest(app().port, { method, path, headers: [auth(), json], body: '{}' });
      expect({ method, path, status: authed.status, body: authed.body, allow: authed.headers.allow }).toEqual(
        {
          method,
          path,
          status: 404,
          body: errorBody('Not Found'),
          allow: undefined,
        },
      );
      const anonymous = await rawRequest(app().port, { method, path, headers: [json], body: '{}' });
      expect({ method, path, status: anonymous.status, body: anonymous.body }).toEqual({
        method,
        path,
        status: 401,
        body: errorBody('Unauthorized'),
      });
    }
  });

  it('a known path with a method it does not answer → 404 "Not Found" (docs/reference/envelope-and-errors.md) with Allow naming the methods it answers (401 without the key)', async () => {
    for (const [method, path, allow] of [
      ['PUT', '/api/v1/relayers/x', 'DELETE, GET, HEAD, PATCH'],
      ['POST', '/api/v1/relayers/x', 'DELETE, GET, HEAD, PATCH'],
      ['DELETE', '/api/v1/relayers', 'GET, HEAD, POST'],
      ['PUT', '/api/v1/notifications', 'GET, HEAD, POST'],
      ['PATCH', '/api/v1/notifications', 'GET, HEAD, POST'],
      ['POST', `/api/v1/notifications/${notificationId}`, 'DELETE, GET, HEAD, PATCH'],
      ['POST', '/api/v1/health', 'GET, HEAD'],
      ['DELETE', '/api/v1/ready', 'GET, HEAD'],
      ['POST', '/metrics', 'GET, HEAD'],
      ['DELETE', '/metrics/http_requests_total', 'GET, HEAD'],
      ['POST', '/debug/metrics/scrape', 'GET, HEAD'],
    ]) {
      const authed = await rawRequest(app().port, { method, path, headers: [auth(), json], body: '{}' });
      expect({ method, path, status: authed.status, body: authed.body, allow: authed.headers.allow }).toEqual(
        {
          method,
          path,
          status: 404,
          body: errorBody('Not Found'),
          allow,
        },
      );
      const anonymous = await rawRequest(app().port, { method, path, headers: [json], body: '{}' });
      expect({
        method,
        path,
        status: anonymous.status,
        body: anonymous.body,
        allow: anonymous.headers.allow,
      }).toEqual({
        method,
        path,
        status: 401,
        body: errorBody('Unauthorized'),
        allow: undefined,
      });
    }
  });

  it.each([
    "x' OR '1'='1",
    '%00',
    'a%2Fb',
    '%ZZ',
    '..%2F..%2Fetc%2Fpasswd',
    '%C3%A9%E2%9C%93',
    'x'.repeat(5000),
    '%E0%A4%A',
  ])('odd identifier %s in a path → 400 or 404 envelope without internals', async (raw) => {
    const path = `/api/v1/notifications/${/%/.test(raw) ? raw : encodeURIComponent(raw)}`;
    for (const method of ['GET', 'PATCH', 'DELETE']) {
      const res = await rawRequest(app().port, {
        method,
        path,
        headers: [auth(), json],
        body: method === 'PATCH' ? '{}' : undefined,
      });
      expect([400, 404]).toContain(res.status);
      expect(res.body).toEqual(errorBody(res.status === 404 ? 'Notification not found' : expect.any(String)));
      expect(res.text).not.toMatch(/node_modules|\.ts:\d+|\.js:\d+|SELECT|QueryFailedError|SQLITE_|ER_/);
    }
  });
});
