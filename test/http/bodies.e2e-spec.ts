import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { DataSource } from 'typeorm';
import { IdempotencyKeyEntity } from '../../src/idempotency/idempotency-key.entity';
import { errorBody, expectError, successBody } from '../support/envelope';
import { useTestApp, type TestApp } from '../support/test-app';
import { waitFor } from '../support/wait';
import { uid } from '../factories';

const BUSY = 'Service Unavailable: too many request bodies are being read at once, retry later';
const REUSED = 'This Idempotency-Key was used for another request: send a new key for a new request';
const tooWide = (count: number) =>
  `Request body is not acceptable JSON: an object has ${count} keys, at most 1000 are accepted in one object`;
const tooManyElements = (count: number) =>
  `Request body is not acceptable JSON: it has ${count} array elements at all levels, at most 10000 are accepted`;
const tooManyKeys = (count: number) =>
  `Request body is not acceptable JSON: it has ${count} keys at all levels, at most 10000 are accepted`;

const newKey = (): string => `key-${randomBytes(8).toString('hex')}`;

/** Posts each body (its own Idempotency-Key) from a Node process of its own and answers what each got. */
const POSTER = `
const fs = require('node:fs');
const { randomUUID } = require('node:crypto');
const texts = JSON.parse(fs.readFileSync(process.argv[1], 'utf8'));
Promise.all(texts.map(async (text) => {
  const res = await fetch(process.env.POST_URL, { method: 'POST', body: text, headers: {
    authorization: 'Bearer ' + process.env.POST_KEY, 'content-type': 'application/json', 'idempotency-key': randomUUID() } });
  return { status: res.status, body: await res.json() };
})).then((answers) => process.stdout.write(JSON.stringify(answers)));
`;

/**
 * The answers to `texts` POSTed at once to `url` by another process: the test's own work of sending
 * megabytes of bodies then does not share the service's event loop with it (the service runs in this
 * process), so what a probe waits for is the service's work only.
 */
function postFromAnotherProcess(url: string, apiKey: string, texts: string[]): Promise<unknown[]> {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'bodies-')), 'texts.json');
  fs.writeFileSync(file, JSON.stringify(texts));
  const child = spawn(process.execPath, ['-e', POSTER, file], {
    env: { PATH: process.env.PATH, POST_URL: url, POST_KEY: apiKey },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  return new Promise((resolve, reject) =>
    child.on('close', (code) =>
      code === 0 ? resolve(JSON.parse(out) as unknown[]) : reject(new Error(`poster exited ${code}`)),
    ),
  );
}

/** {"url":"…","pad":"aaa…"} of exactly `size` bytes (pad is an unknown field). */
function paddedBody(size: number): string {
  const head = '{"url":"https://hooks.example.com/pad","pad":"';
  return head + 'a'.repeat(size - head.length - 2) + '"}';
}

/** `{"url":…,"extra":[{…},…]}` with `count` keys in all: url, extra and the rest 1,000 to an object. */
function keyedBody(count: number): string {
  const objects: string[] = [];
  for (let start = 0; start < count - 2; start += 1000) {
    const keys = Array.from({ length: Math.min(1000, count - 2 - start) }, (_, i) => `"${i.toString(36)}":0`);
    objects.push(`{${keys.join(',')}}`);
  }
  return `{"url":"https://hooks.example.com/keys","extra":[${objects.join(',')}]}`;
}

/** `{"url":…,"0":0,"1":0,…}` with `count` keys, all but url at the top level and unknown. */
function flatBody(count: number): string {
  const rest = Array.from({ length: count - 1 }, (_, i) => `"${i.toString(36)}":0`).join(',');
  return `{"url":"https://hooks.example.com/keys",${rest}}`;
}

/** The 400 of flatBody(count + 1): 50 of its unknown fields named, in order, then how many more. */
function unknownFields(count: number): string {
  const problems = Array.from(
    { length: count },
    (_, i) => `${i.toString(36)} is not an allowed field`,
  ).sort();
  return [...problems.slice(0, 50), `and ${count - 50} more problems`].join('; ');
}

/** `{"url":…,"pad":[…]}` with `count` array elements in all, each `item`, in arrays of 1,000 at most. */
function elementsBody(count: number, item = '0'): string {
  const arrays: string[] = [];
  for (let start = 0; start < count; start += 999)
    arrays.push(
      `[${Array(Math.min(999, count - start))
        .fill(item)
        .join(',')}]`,
    );
  return `{"url":"https://hooks.example.com/elements","pad":[${arrays.join(',')}]}`;
}

interface HeldRequest {
  /** The answer's status line, headers and body once the server has answered and closed. */
  readonly answer: Promise<{ status: number; headers: Record<string, string>; body: unknown }>;
  send(bytes: string): void;
  close(): void;
}

/** A POST whose head is sent at once and whose body only as the test sends it (a slow upload). */
function holdRequest(app: TestApp, contentLength: number, first = ''): HeldRequest {
  const socket = net.connect(app.port, '127.0.0.1');
  socket.on('error', () => undefined);
  socket.write(
    `POST /api/v1/notifications HTTP/1.1\r\nHost: x\r\nConnection: close\r\n` +
      `Authorization: Bearer ${app.apiKey}\r\nContent-Type: application/json\r\n` +
      `Content-Length: ${contentLength}\r\n\r\n${first}`,
  );
  const chunks: Buffer[] = [];
  socket.on('data', (chunk: Buffer) => chunks.push(chunk));
  const answer = new Promise<{ status: number; headers: Record<string, string>; body: unknown }>((resolve) =>
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const [head, body = ''] = text.split('\r\n\r\n');
      const [statusLine, ...lines] = head.split('\r\n');
      const headers = Object.fromEntries(
        lines.map((line) => [
          line.slice(0, line.indexOf(':')).toLowerCase(),
          line.slice(line.indexOf(':') + 1).trim(),
        ]),
      );
      let parsed: unknown;
      try {
        parsed = JSON.parse(body);
      } catch {
        parsed = body;
      }
      resolve({ status: Number(statusLine.split(' ')[1] ?? 0), headers, body: parsed });
    }),
  );
  return { answer, send: (bytes) => socket.write(bytes), close: () => socket.destroy() };
}

describe('request bodies cannot exhaust the process (docs/reference/hardening.md#3-bodies)', () => {
  describe('BODY_MEMORY_LIMIT_MB', () => {
    const handle = useTestApp({ BODY_MEMORY_LIMIT_MB: '1' });
    const app = () => handle.current;

    it('bodies held at once beyond the budget: the next one is a 503 with Retry-After before its body is read; freed when the request ends', async () => {
      const size = 700_000;
      const body = paddedBody(size);
      // A slow upload: its head and a few bytes, the rest later. It holds 700,000 of the 1 MiB.
      const slow = holdRequest(app(), size, body.slice(0, 1000));
      try {
        // The next large body: only its head is ever sent, so an answer can only come before reading.
        const refused = await waitFor(
          'a 503 for a body beyond the budget',
          async () => {
            const next = holdRequest(app(), size);
            const timer = setTimeout(() => next.close(), 1000);
            const answer = await next.answer;
            clearTimeout(timer);
            return answer.status === 503 && answer;
          },
          { timeoutMs: 8000 },
        );
        expect({
          status: refused.status,
          retryAfter: refused.headers['retry-after'],
          body: refused.body,
        }).toEqual({ status: 503, retryAfter: '1', body: errorBody(BUSY) });
        // A body that fits in what is left is read as usual.
        expectError(
          await app().post('/api/v1/notifications', { url: 'https://hooks.example.com/a', x: 1 }),
          400,
          'x is not an allowed field',
        );
        slow.send(body.slice(1000));
        expect(await slow.answer).toMatchObject({
          status: 400,
          body: errorBody('pad is not an allowed field'),
        });
      } finally {
        slow.close();
      }
      // Its request ended: its share is free again.
      const again = await app()
        .raw()
        .post('/api/v1/notifications')
        .set('Authorization', `Bearer ${app().apiKey}`)
        .set('Content-Type', 'application/json')
        .send(body);
      expectError(again, 400, 'pad is not an allowed field');
    });
  });

  describe('keys, problem lists, idempotency digests and liveness', () => {
    const handle = useTestApp();
    const app = () => handle.current;
    const postText = (text: string, key?: string) => {
      const test = app()
        .raw()
        .post('/api/v1/notifications')
        .set('Authorization', `Bearer ${app().apiKey}`)
        .set('Content-Type', 'application/json');
      return (key === undefined ? test : test.set('Idempotency-Key', key)).send(text);
    };

    it('a body with more than 10,000 keys at all levels, or an object with more than 1,000, is a 400 naming the count; 10,000 and 1,000 are not refused for their number', async () => {
      expectError(await postText(keyedBody(10_001)), 400, tooManyKeys(10_001));
      expectError(await postText(`{"a":[{"b":${keyedBody(10_000)}}]}`), 400, tooManyKeys(10_002));
      expectError(await postText(keyedBody(10_000)), 400, 'extra is not an allowed field');
      expectError(await postText(flatBody(1001)), 400, tooWide(1001));
      expectError(await postText(`{"extra":{"a":${flatBody(1001)}}}`), 400, tooWide(1001));
      expectError(await postText(flatBody(1000)), 400, unknownFields(999));
    });

    it('a body with more than 10,000 array elements at all levels is a 400 naming the count; 10,000 are not refused for their number', async () => {
      // 9,991 in the inner arrays and those 11 arrays in pad: 10,002; 9,990 and 10: 10,000.
      expectError(await postText(elementsBody(9_991)), 400, tooManyElements(10_002));
      expectError(await postText(elementsBody(9_990)), 400, 'pad is not an allowed field');
      expectError(
        await postText(`{"pad":[${Array(10_001).fill('{}').join(',')}]}`),
        400,
        tooManyElements(10_001),
      );
      expectError(
        await postText(`{"pad":[${Array(10_000).fill('{}').join(',')}]}`),
        400,
        'pad is not an allowed field; url must be a string holding an http or https URL',
      );
    });

    it('a problem list names 50 problems, then how many more; the 400 stored for an Idempotency-Key is that short answer', async () => {
      const fields = Array.from({ length: 300 }, (_, i) => `f${String(i).padStart(3, '0')}`);
      const body = {
        url: 'https://hooks.example.com/problems',
        ...Object.fromEntries(fields.map((f) => [f, 1])),
      };
      const message = [
        ...fields.slice(0, 50).map((field) => `${field} is not an allowed field`),
        'and 250 more problems',
      ].join('; ');
      const key = newKey();
      const res = await app().post('/api/v1/notifications', body).set('Idempotency-Key', key);
      expectError(res, 400, message);
      const stored = await app()
        .app.get(DataSource)
        .getRepository(IdempotencyKeyEntity)
        .findOneByOrFail({ key });
      // With its problems, bounded as the message is, for a replay as problem details
      // (docs/reference/envelope-and-errors.md#4-problem-details).
      const problems = [
        ...fields.slice(0, 50).map((field) => ({ field, message: `${field} is not an allowed field` })),
        { field: null, message: 'and 250 more problems' },
      ];
      expect({ status: stored.responseStatus, body: stored.responseBody }).toEqual({
        status: 400,
        body: JSON.stringify({ ...errorBody(message), problems }),
      });
      // 51 problems: 50 named and "1 more problem".
      const fiftyOne = {
        url: 'https://hooks.example.com/problems',
        ...Object.fromEntries(fields.slice(0, 51).map((f) => [f, 1])),
      };
      expectError(
        await app().post('/api/v1/notifications', fiftyOne),
        400,
        [
          ...fields.slice(0, 50).map((field) => `${field} is not an allowed field`),
          'and 1 more problem',
        ].join('; '),
      );
    });

    it('an Idempotency-Key binds the body’s bytes: the same bytes replay, the same JSON spelled differently is another request (422)', async () => {
      const key = newKey();
      const url = `https://hooks.example.com/${uid('n')}`;
      const compact = JSON.stringify({ url });
      const first = await postText(compact, key);
      expect(first.status).toBe(201);
      const replay = await postText(compact, key);
      expect({
        status: replay.status,
        replayed: replay.headers['idempotent-replayed'],
        body: replay.body,
      }).toEqual({
        status: 201,
        replayed: 'true',
        body: successBody(first.body.data),
      });
      expectError(await postText(`{ "url": ${JSON.stringify(url)} }`, key), 422, REUSED);
      expectError(await postText(`{"url":${JSON.stringify(url)}}\n`, key), 422, REUSED);
    });

    it('/api/v1/health answers 200 while bodies of up to 95,000 keys (up to the size limit) are being refused', async () => {
      const hostile: Array<[string, string]> = [
        [flatBody(95_000), tooManyKeys(95_000)],
        [flatBody(10_000), tooWide(10_000)],
        [keyedBody(10_000), 'extra is not an allowed field'],
        [flatBody(1000), unknownFields(999)],
        [`{"pad":[${Array(200_000).fill('{}').join(',')}]}`, tooManyElements(200_000)],
        [elementsBody(9_990, '{"a":0}'), 'pad is not an allowed field'],
      ];
      expect(hostile.map(([text]) => text.length < 1024 * 1024)).toEqual(hostile.map(() => true));
      const sent = [...hostile, ...hostile, ...hostile];
      let refusing = true;
      const refusals = postFromAnotherProcess(
        `${app().baseUrl}/api/v1/notifications`,
        app().apiKey,
        sent.map(([text]) => text),
      ).finally(() => (refusing = false));
      let probes = 0;
      while (refusing) {
        const res = await fetch(`${app().baseUrl}/api/v1/health`);
        await res.text();
        probes += 1;
        expect(res.status).toBe(200);
      }
      const answers = await refusals;
      expect(answers).toEqual(sent.map(([, message]) => ({ status: 400, body: errorBody(message) })));
      // Every probe answered 200 while the bodies were refused. How fast is a figure, not a test: it
      // is measured by the benchmark's hostile-bodies scenario (bench/run.mjs), never bounded here.
      expect(probes).toBeGreaterThan(0);
    });
  });
});
