import { randomUUID } from 'node:crypto';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { errorBody, expectError, successBody } from '../support/envelope';
import { rawRequest } from '../support/raw-http';
import { useTestApp } from '../support/test-app';

const MIB = 1024 * 1024;
const LIMIT_MESSAGE = 'Request body exceeds the limit of 1 MiB (1048576 bytes)';
const ENCODERS: Record<string, (body: Buffer) => Buffer> = {
  gzip: gzipSync,
  deflate: deflateSync,
  br: brotliCompressSync,
  identity: (body) => body,
};

/** {"url":"…","pad":"aaa…"} of exactly `size` bytes (pad is an unknown field). */
function paddedBody(size: number): string {
  const head = '{"url":"https://hooks.example.com/pad","pad":"';
  return head + 'a'.repeat(size - head.length - 2) + '"}';
}

describe('Content-Encoding of request bodies (docs/reference/envelope-and-errors.md)', () => {
  const handle = useTestApp();
  const app = () => handle.current;
  const auth = (): [string, string] => ['Authorization', `Bearer ${app().apiKey}`];
  const json: [string, string] = ['Content-Type', 'application/json'];

  const post = (encoding: string | undefined, body: Buffer, headers: Array<[string, string]> = [auth()]) =>
    rawRequest(app().port, {
      method: 'POST',
      path: '/api/v1/notifications',
      headers: [...headers, json, ...(encoding ? [['Content-Encoding', encoding] as [string, string]] : [])],
      body,
    });

  it.each(['gzip', 'deflate', 'br', 'identity', 'GZIP'])(
    'Content-Encoding %s: the body is decoded, stored and read back (201)',
    async (encoding) => {
      const id = `enc-${randomUUID().slice(0, 8)}`;
      const url = `https://hooks.example.com/${encoding}/${'x'.repeat(300)}`;
      const encode = ENCODERS[encoding.toLowerCase()];
      const res = await post(encoding, encode(Buffer.from(JSON.stringify({ id, url }))));
      const created = { id, type: 'webhook', url, has_signing_key: false };
      expect({ status: res.status, body: res.body }).toEqual({ status: 201, body: successBody(created) });
      expect((await app().get(`/api/v1/notifications/${id}`).expect(200)).body).toEqual(successBody(created));
    },
  );

  it('a compressed PATCH body is decoded too', async () => {
    const id = `enc-${randomUUID().slice(0, 8)}`;
    await app().post('/api/v1/notifications', { id, url: 'https://hooks.example.com/before' }).expect(201);
    const res = await rawRequest(app().port, {
      method: 'PATCH',
      path: `/api/v1/notifications/${id}`,
      headers: [auth(), ['Content-Type', 'application/merge-patch+json'], ['Content-Encoding', 'br']],
      body: brotliCompressSync(Buffer.from('{"url":"https://hooks.example.com/after"}')),
    });
    const patched = { id, type: 'webhook', url: 'https://hooks.example.com/after', has_signing_key: false };
    expect({ status: res.status, body: res.body }).toEqual({ status: 200, body: successBody(patched) });
    expect((await app().get(`/api/v1/notifications/${id}`).expect(200)).body).toEqual(successBody(patched));
  });

  it.each(['gzip', 'deflate', 'br'])(
    'a body labelled %s that does not decode → 400, and nothing is created',
    async (encoding) => {
      const id = `enc-${randomUUID().slice(0, 8)}`;
      const plain = Buffer.from(JSON.stringify({ id, url: 'https://hooks.example.com/plain' }));
      for (const body of [plain, ENCODERS[encoding](plain).subarray(0, 20)]) {
        const res = await post(encoding, body);
        expect({ status: res.status, body: res.body }).toEqual({
          status: 400,
          body: errorBody(`Request body could not be decoded (Content-Encoding: ${encoding})`),
        });
      }
      expectError(await app().get(`/api/v1/notifications/${id}`), 404, 'Notification not found');
    },
  );

  it('the 1 MiB limit applies to the decoded bytes: 1048576 are parsed, one more → 413', async () => {
    for (const encoding of ['gzip', 'deflate', 'br']) {
      const at = await post(encoding, ENCODERS[encoding](Buffer.from(paddedBody(MIB))));
      expect({ encoding, status: at.status, body: at.body }).toEqual({
        encoding,
        status: 400,
        body: errorBody('pad is not an allowed field'),
      });
      const over = ENCODERS[encoding](Buffer.from(paddedBody(MIB + 1)));
      expect(over.length).toBeLessThan(MIB);
      const res = await post(encoding, over);
      expect({ encoding, status: res.status, body: res.body }).toEqual({
        encoding,
        status: 413,
        body: errorBody(LIMIT_MESSAGE),
      });
    }
  });

  it('a gzip bomb (5 MiB of zeros in a few KiB) → 413, chunked or not', async () => {
    const bomb = gzipSync(Buffer.alloc(5 * MIB));
    expect(bomb.length).toBeLessThan(10 * 1024);
    for (const chunked of [false, true]) {
      const res = await rawRequest(app().port, {
        method: 'POST',
        path: '/api/v1/notifications',
        headers: [auth(), json, ['Content-Encoding', 'gzip']],
        body: bomb,
        chunked,
      });
      expect({ status: res.status, body: res.body }).toEqual({ status: 413, body: errorBody(LIMIT_MESSAGE) });
    }
  });

  it.each([
    ['x-foo', 'x-foo'],
    ['zstd', 'zstd'],
    ['compress', 'compress'],
    ['gzip, br', 'gzip, br'],
  ])('Content-Encoding %j → 415 naming it and the accepted ones', async (encoding, shown) => {
    const id = `enc-${randomUUID().slice(0, 8)}`;
    const res = await post(encoding, Buffer.from(JSON.stringify({ id, url: 'https://hooks.example.com/x' })));
    expect({ status: res.status, body: res.body }).toEqual({
      status: 415,
      body: errorBody(`Content-Encoding ${shown} is not supported: use identity, gzip, deflate or br`),
    });
    expectError(await app().get(`/api/v1/notifications/${id}`), 404, 'Notification not found');
  });

  it('an unauthenticated compressed body → 401 (auth comes before the body is read)', async () => {
    const body = gzipSync(Buffer.from('{"url":"https://hooks.example.com/anon"}'));
    for (const encoding of ['gzip', 'x-foo']) {
      const res = await post(encoding, body, []);
      expect({ status: res.status, body: res.body }).toEqual({
        status: 401,
        body: errorBody('Unauthorized'),
      });
    }
  });
});
