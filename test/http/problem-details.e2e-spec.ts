import net from 'node:net';
import type { Response } from 'supertest';
import { createKey, uid } from '../factories';
import { as } from '../support/as-key';
import { errorBody, expectError } from '../support/envelope';
import { rawRequest } from '../support/raw-http';
import { useTestApp, type TestApp } from '../support/test-app';
import { waitFor } from '../support/wait';

/** docs/reference/envelope-and-errors.md#4-problem-details */
const PROBLEM = 'application/problem+json';

/** The exact RFC 9457 body: `about:blank`, the reason phrase as title, the envelope's message as detail. */
const problemBody = (status: number, title: string, detail: string, instance: string, errors?: unknown) => ({
  type: 'about:blank',
  title,
  status,
  detail,
  instance,
  ...(errors === undefined ? {} : { errors }),
});

function expectProblem(res: Response, status: number, body: object): void {
  expect({ status: res.status, type: res.type, vary: res.headers.vary, body: res.body as unknown }).toEqual({
    status,
    type: PROBLEM,
    vary: 'Accept',
    body,
  });
}

const NOTIFICATIONS = '/api/v1/notifications';
const TWO_BAD_FIELDS = { url: 42, pad: true };
const URL_RULE = 'url must be a string holding an http or https URL';
const TWO_PROBLEMS = `pad is not an allowed field; ${URL_RULE}`;
const TWO_ERRORS = [
  { field: 'pad', message: 'pad is not an allowed field' },
  { field: 'url', message: URL_RULE },
];

describe('problem details on request (docs/reference/envelope-and-errors.md#4-problem-details)', () => {
  const handle = useTestApp();
  const app = (): TestApp => handle.current;

  it('a 400 with two bad fields: each in errors with its field; the envelope without the header', async () => {
    expectProblem(
      await app().post(NOTIFICATIONS, TWO_BAD_FIELDS).set('Accept', PROBLEM),
      400,
      problemBody(400, 'Bad Request', TWO_PROBLEMS, NOTIFICATIONS, TWO_ERRORS),
    );
    expectError(await app().post(NOTIFICATIONS, TWO_BAD_FIELDS), 400, TWO_PROBLEMS);
  });

  it('a 400 about the body as a whole names no field', async () => {
    const send = (accept: string[]) =>
      rawRequest(app().port, {
        method: 'POST',
        path: NOTIFICATIONS,
        headers: [
          ['Authorization', `Bearer ${app().apiKey}`],
          ['Content-Type', 'application/json'],
          ...accept.map((a): [string, string] => ['Accept', a]),
        ],
        body: '{"url": ',
      });
    const notJson = 'Request body is not valid JSON: it must be a JSON object';
    const asked = await send([PROBLEM]);
    expect({ status: asked.status, type: asked.headers['content-type'], body: asked.body }).toEqual({
      status: 400,
      type: `${PROBLEM}; charset=utf-8`,
      body: problemBody(400, 'Bad Request', notJson, NOTIFICATIONS, [{ field: null, message: notJson }]),
    });
    const plain = await send([]);
    expect({ status: plain.status, type: plain.headers['content-type'], body: plain.body }).toEqual({
      status: 400,
      type: 'application/json; charset=utf-8',
      body: errorBody(notJson),
    });
  });

  it('401 without a key, 403 for a key without the permission', async () => {
    expectProblem(
      await app().get('/api/v1/relayers', false).set('Accept', PROBLEM),
      401,
      problemBody(401, 'Unauthorized', 'Unauthorized', '/api/v1/relayers'),
    );
    expectError(await app().get('/api/v1/relayers', false), 401, 'Unauthorized');
    const reader = (await createKey(app(), { name: 'reader', permissions: ['notifications:read'] })).key;
    expectProblem(
      await as(app(), reader).get('/api/v1/relayers?page=2').set('Accept', PROBLEM),
      403,
      problemBody(403, 'Forbidden', 'Forbidden', '/api/v1/relayers'),
    );
    expectError(await as(app(), reader).get('/api/v1/relayers?page=2'), 403, 'Forbidden');
  });

  it('404 for a missing relayer and for an unknown route, whose Allow header is kept', async () => {
    const id = uid('missing');
    expectProblem(
      await app().get(`/api/v1/relayers/${id}`).set('Accept', PROBLEM),
      404,
      problemBody(404, 'Not Found', `Relayer with ID ${id} not found`, `/api/v1/relayers/${id}`),
    );
    expectError(await app().get(`/api/v1/relayers/${id}`), 404, `Relayer with ID ${id} not found`);

    const unknown = await app().get('/api/v1/no-such-route').set('Accept', PROBLEM);
    expectProblem(unknown, 404, problemBody(404, 'Not Found', 'Not Found', '/api/v1/no-such-route'));
    expectError(await app().get('/api/v1/no-such-route'), 404, 'Not Found');

    const wrongMethod = await app().put(NOTIFICATIONS, {}).set('Accept', PROBLEM);
    expectProblem(wrongMethod, 404, problemBody(404, 'Not Found', 'Not Found', NOTIFICATIONS));
    const plain = await app().put(NOTIFICATIONS, {});
    expectError(plain, 404, 'Not Found');
    expect([wrongMethod.headers.allow, plain.headers.allow]).toEqual(['GET, HEAD, POST', 'GET, HEAD, POST']);
  });

  it('409 for a duplicate id', async () => {
    const id = uid('dup');
    await app().post(NOTIFICATIONS, { id, url: 'https://hooks.example.com/dup' }).expect(201);
    const again = () => app().post(NOTIFICATIONS, { id, url: 'https://hooks.example.com/dup' });
    const conflict = 'Notification with this ID already exists';
    expectProblem(
      await again().set('Accept', PROBLEM),
      409,
      problemBody(409, 'Conflict', conflict, NOTIFICATIONS),
    );
    expectError(await again(), 409, conflict);
  });

  it('415 for a Content-Encoding that is not accepted (the body interceptor)', async () => {
    const post = () =>
      app()
        .post(NOTIFICATIONS)
        .set('Content-Type', 'application/json')
        .set('Content-Encoding', 'x-foo')
        .send('{"url":"https://hooks.example.com/enc"}');
    const refused = 'Content-Encoding x-foo is not supported: use identity, gzip, deflate or br';
    expectProblem(
      await post().set('Accept', PROBLEM),
      415,
      problemBody(415, 'Unsupported Media Type', refused, NOTIFICATIONS),
    );
    expectError(await post(), 415, refused);
  });

  it.each([
    [`${PROBLEM}, application/json`, true],
    [`application/json;q=0.9, ${PROBLEM};q=0.1`, true],
    ['*/*', false],
    ['application/json', false],
    [`${PROBLEM};q=0, application/json`, false],
  ])('Accept %j → problem details: %s', async (accept, problem) => {
    const res = await app().get('/api/v1/no-such-route').set('Accept', accept);
    if (problem) expectProblem(res, 404, problemBody(404, 'Not Found', 'Not Found', '/api/v1/no-such-route'));
    else expectError(res, 404, 'Not Found');
  });

  it('the request id is kept, and the query is not part of the instance', async () => {
    const res = await app()
      .get('/api/v1/relayers/nope?page=1&secret=x')
      .set('Accept', PROBLEM)
      .set('X-Request-Id', 'problem-req-1');
    expectProblem(
      res,
      404,
      problemBody(404, 'Not Found', 'Relayer with ID nope not found', '/api/v1/relayers/nope'),
    );
    expect(res.headers['x-request-id']).toBe('problem-req-1');
  });

  it('a 400 kept for an Idempotency-Key replays as problem details with the same errors', async () => {
    const key = uid('key');
    expectError(
      await app().post(NOTIFICATIONS, TWO_BAD_FIELDS).set('Idempotency-Key', key),
      400,
      TWO_PROBLEMS,
    );
    const replay = await app()
      .post(NOTIFICATIONS, TWO_BAD_FIELDS)
      .set('Idempotency-Key', key)
      .set('Accept', PROBLEM);
    expectProblem(replay, 400, problemBody(400, 'Bad Request', TWO_PROBLEMS, NOTIFICATIONS, TWO_ERRORS));
    expect(replay.headers['idempotent-replayed']).toBe('true');
  });
});

describe('problem details for a 429, with Retry-After', () => {
  const handle = useTestApp({ RATE_LIMIT_BURST_SIZE: '2', RATE_LIMIT_REQUESTS_PER_SECOND: '1' });
  const app = (): TestApp => handle.current;

  it('the answer over the limit keeps its Retry-After in either form', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 2; i++) statuses.push((await app().get(NOTIFICATIONS)).status);
    expect(statuses).toEqual([200, 200]);
    const asked = await app().get(NOTIFICATIONS).set('Accept', PROBLEM);
    expectProblem(asked, 429, problemBody(429, 'Too Many Requests', 'Too Many Requests', NOTIFICATIONS));
    expect(asked.headers['retry-after']).toMatch(/^[1-2]$/);
    const plain = await app().get(NOTIFICATIONS);
    expectError(plain, 429, 'Too Many Requests');
    expect(plain.headers['retry-after']).toMatch(/^[1-2]$/);
  });
});

describe('problem details for the 504 the request deadline answers (outside the filter)', () => {
  const handle = useTestApp({ REQUEST_TIMEOUT_MS: '400' });
  const app = (): TestApp => handle.current;

  /** A POST whose body never finishes, answered by the deadline. */
  async function stalled(accept: string | null): Promise<{ head: string; body: unknown }> {
    const body = JSON.stringify({ url: 'https://hooks.example.com/slow' });
    const socket = net.connect(app().port, '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    let received = '';
    socket.on('data', (d: Buffer) => (received += d.toString()));
    socket.write(
      `POST ${NOTIFICATIONS} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${app().apiKey}\r\n` +
        (accept === null ? '' : `Accept: ${accept}\r\n`) +
        `Content-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 5)}`,
    );
    try {
      await waitFor(
        'the answer to a request whose body never finishes',
        () => received.includes('\r\n\r\n{'),
        {
          timeoutMs: 5000,
          detail: () => `received: ${JSON.stringify(received)}`,
        },
      );
    } finally {
      socket.destroy();
    }
    const split = received.indexOf('\r\n\r\n');
    return { head: received.slice(0, split), body: JSON.parse(received.slice(split + 4)) as unknown };
  }

  it('504 as problem details when asked, else the envelope', async () => {
    const asked = await stalled(PROBLEM);
    expect(asked.head).toMatch(/^HTTP\/1\.1 504 /);
    expect(asked.head).toMatch(/\r\nContent-Type: application\/problem\+json; charset=utf-8\r\n/i);
    expect(asked.body).toEqual(problemBody(504, 'Gateway Timeout', 'Gateway Timeout', NOTIFICATIONS));
    const plain = await stalled(null);
    expect(plain.head).toMatch(/^HTTP\/1\.1 504 /);
    expect(plain.head).toMatch(/\r\nContent-Type: application\/json; charset=utf-8\r\n/i);
    expect(plain.body).toEqual(errorBody('Gateway Timeout'));
  });
});
