import Database from 'better-sqlite3';
import { createConnection } from 'mysql2/promise';
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { expectError } from '../../support/envelope';
import { secrets } from '../../support/secrets';
import { waitFor } from '../../support/wait';
import { useTestApp } from '../../support/test-app';
import { TEST_DB, type TestDatabase } from '../../support/test-database';
import { relayerBody, uid } from '../../factories';

/** The custom_rpc_urls column of a relayer, read from the database itself (not through the API). */
async function storedRpcUrls(database: TestDatabase, id: string): Promise<unknown> {
  const sql = 'SELECT custom_rpc_urls AS urls FROM relayers WHERE id = ?';
  if (TEST_DB === 'sqlite') {
    const db = new Database(database.url.slice('sqlite:'.length), { readonly: true });
    try {
      const row = db.prepare(sql).get(id) as { urls: string | null } | undefined;
      return row?.urls == null ? null : JSON.parse(row.urls);
    } finally {
      db.close();
    }
  }
  const connection = await createConnection({ uri: database.url });
  try {
    const [rows] = await connection.query<import('mysql2').RowDataPacket[]>(sql, [id]);
    const text = rows[0]?.urls as string | null | undefined;
    return text == null ? null : JSON.parse(text);
  } finally {
    await connection.end();
  }
}

describe('relayer writes: every problem named at once, masked URLs kept by what they stand for', () => {
  const handle = useTestApp();
  const app = () => handle.current;
  const body = (extra: object = {}) => relayerBody('evm', { id: uid('w'), name: 'writes', ...extra });

  describe('one 400 names every problem, across every kind of check', () => {
    it('POST: a bad name, a bad policy field and a bad RPC URL are all named, with bracketed paths', async () => {
      const res = await app().post(
        '/api/v1/relayers',
        body({
          name: '   ',
          policies: { min_balance: -1 },
          custom_rpc_urls: [
            { url: 'https://rpc.example.com/ok' },
            { url: 'http://169.254.169.254/', weight: 101 },
          ],
        }),
      );
      expectError(
        res,
        400,
        'custom_rpc_urls[1].url points to a cloud metadata address; ' +
          'custom_rpc_urls[1].weight must be a whole number from 0 to 100; ' +
          'name must be 1 to 255 characters, not only whitespace; ' +
          'policies.min_balance must be a whole number >= 0 (a JSON number or a string of decimal digits, at most 1000 digits)',
      );
    });

    it('POST: the catalogue and a policy of the wrong type are named with the field errors', async () => {
      const res = await app().post(
        '/api/v1/relayers',
        body({
          network: 'nowhere',
          signer_id: 'no-such-signer',
          paused: 'no',
          policies: { max_signatures: 1, allowed_tokens: [{ mint: 'x' }] },
        }),
      );
      expectError(
        res,
        400,
        "Network 'nowhere' not found for network type 'evm'; " +
          'Signer with ID no-such-signer not found; ' +
          'paused must be true or false; ' +
          'policies.allowed_tokens is not an allowed field; ' +
          'policies.max_signatures is not an allowed field',
      );
    });

    it('PATCH: a bad name and a bad policy field of an existing relayer are both named', async () => {
      const { id } = (await app().post('/api/v1/relayers', body()).expect(201)).body.data as { id: string };
      const res = await app().patch(`/api/v1/relayers/${id}`, {
        name: 7,
        policies: { gas_price_cap: 'lots' },
        custom_rpc_urls: [{ url: 'ftp://rpc.example.com/' }],
      });
      expectError(
        res,
        400,
        'custom_rpc_urls[0].url must be an http or https URL; ' +
          'name must be 1 to 255 characters, not only whitespace; ' +
          'policies.gas_price_cap must be a whole number >= 0 (a JSON number or a string of decimal digits, at most 1000 digits)',
      );
    });

    it('PATCH: shape before existence, so an unknown relayer with a bad body is a 400 naming the shape', async () => {
      const res = await app().patch(`/api/v1/relayers/${uid('missing')}`, {
        name: 7,
        policies: { gas_price_cap: 'lots' },
      });
      expectError(res, 400, 'name must be 1 to 255 characters, not only whitespace');
    });

    it.each([
      ['top level', '{"__proto__":{"x":1},"name":"n"}', '__proto__ is not an allowed field'],
      ['inside policies', '{"policies":{"__proto__":{"x":1}}}', 'policies.__proto__ is not an allowed field'],
      [
        '(as constructor) inside policies',
        '{"policies":{"constructor":" "}}',
        'policies.constructor is not an allowed field',
      ],
      [
        'inside an RPC URL entry',
        '{"custom_rpc_urls":[{"url":"https://rpc.example.com/","__proto__":{}}]}',
        'custom_rpc_urls[0].__proto__ is not an allowed field',
      ],
    ])('__proto__ %s is refused by name like any unknown key', async (_where, text, message) => {
      const { id } = (await app().post('/api/v1/relayers', body()).expect(201)).body.data as { id: string };
      const res = await app()
        .raw()
        .patch(`/api/v1/relayers/${id}`)
        .set('Authorization', `Bearer ${app().apiKey}`)
        .set('Content-Type', 'application/merge-patch+json')
        .send(text);
      expectError(res, 400, message);
      const notification = await app()
        .raw()
        .post('/api/v1/notifications')
        .set('Authorization', `Bearer ${app().apiKey}`)
        .set('Content-Type', 'application/json')
        .send('{"url":"https://hooks.example.com/x","__proto__":{"id":"polluted"}}');
      expectError(notification, 400, '__proto__ is not an allowed field');
    });
  });

  describe('masked RPC URLs keep the stored URL they stand for, wherever they are sent', () => {
    const keyA = secrets.add(`KEYA${randomBytes(8).toString('hex')}`);
    const keyB = secrets.add(`KEYB${randomBytes(8).toString('hex')}`);
    const urlA = `https://rpc-a.example.com/v2/${keyA}?apikey=${keyA}`;
    const urlB = `https://rpc-b.example.com/v1/${keyB}`;
    const maskedA = 'https://rpc-a.example.com/v2/***?apikey=***';
    const maskedB = 'https://rpc-b.example.com/v1/***';

    const createWithTwo = async (): Promise<string> => {
      const res = await app()
        .post(
          '/api/v1/relayers',
          body({
            custom_rpc_urls: [
              { url: urlA, weight: 10 },
              { url: urlB, weight: 20 },
            ],
          }),
        )
        .expect(201);
      return (res.body.data as { id: string }).id;
    };

    it('reordered: each masked URL keeps its own stored URL', async () => {
      const id = await createWithTwo();
      const res = await app()
        .patch(`/api/v1/relayers/${id}`, {
          custom_rpc_urls: [
            { url: maskedB, weight: 30 },
            { url: maskedA, weight: 40 },
          ],
        })
        .expect(200);
      expect(res.body.data.custom_rpc_urls).toEqual([
        { url: maskedB, weight: 30 },
        { url: maskedA, weight: 40 },
      ]);
      expect(await storedRpcUrls(handle.database, id)).toEqual([
        { url: urlB, weight: 30 },
        { url: urlA, weight: 40 },
      ]);
    });

    it('appended and mixed with new ones: the same masked URL twice keeps its URL twice, new ones are stored as sent', async () => {
      const id = await createWithTwo();
      await app()
        .patch(`/api/v1/relayers/${id}`, {
          custom_rpc_urls: [
            { url: 'https://rpc-c.example.com/new' },
            { url: maskedA, weight: 1 },
            { url: maskedB },
            { url: maskedA, weight: 2 },
          ],
        })
        .expect(200);
      expect(await storedRpcUrls(handle.database, id)).toEqual([
        { url: 'https://rpc-c.example.com/new', weight: 100 },
        { url: urlA, weight: 1 },
        { url: urlB, weight: 100 },
        { url: urlA, weight: 2 },
      ]);
    });

    it('a masked URL that stands for no stored URL, or for two, is a 400 naming it; nothing is stored', async () => {
      const id = await createWithTwo();
      expectError(
        await app().patch(`/api/v1/relayers/${id}`, {
          custom_rpc_urls: [{ url: maskedA }, { url: 'https://rpc-z.example.com/v2/***' }],
        }),
        400,
        'custom_rpc_urls[1].url is a masked URL that matches no stored URL: send the full URL',
      );
      expectError(
        await app().post('/api/v1/relayers', body({ custom_rpc_urls: [{ url: maskedA }] })),
        400,
        'custom_rpc_urls[0].url is a masked URL that matches no stored URL: send the full URL',
      );

      const twin = `https://rpc-a.example.com/v2/${secrets.add(`TWIN${randomBytes(8).toString('hex')}`)}?apikey=x`;
      const res = await app()
        .post('/api/v1/relayers', body({ custom_rpc_urls: [{ url: urlA }, { url: twin }] }))
        .expect(201);
      const twinsId = (res.body.data as { id: string }).id;
      expect(res.body.data.custom_rpc_urls).toEqual([
        { url: maskedA, weight: 100 },
        { url: maskedA, weight: 100 },
      ]);
      expectError(
        await app().patch(`/api/v1/relayers/${twinsId}`, { custom_rpc_urls: [{ url: maskedA }] }),
        400,
        'custom_rpc_urls[0].url is a masked URL that matches more than one stored URL: send the full URL',
      );
      expect(await storedRpcUrls(handle.database, id)).toEqual([
        { url: urlA, weight: 10 },
        { url: urlB, weight: 20 },
      ]);
      expect(await storedRpcUrls(handle.database, twinsId)).toEqual([
        { url: urlA, weight: 100 },
        { url: twin, weight: 100 },
      ]);
      // The relayers' rows hold no mask text (above, exactly); the audit trail holds the masked
      // answers by design (docs/reference/keys-and-audit.md: before/after are response-shaped).
    });
  });
});

describe('a write that passes REQUEST_TIMEOUT_MS leaves nothing behind (504 means nothing changed)', () => {
  const handle = useTestApp({ REQUEST_TIMEOUT_MS: '300' });
  const app = () => handle.current;
  const ROLLED_BACK = /the request deadline passed before commit: its change was rolled back/;
  const rolledBack = (): number =>
    app()
      .logText()
      .split('\n')
      .filter((line) => ROLLED_BACK.test(line)).length;

  /** Polls the log until one more rollback than `before` is there (10 s deadline). */
  async function waitForRollback(before: number): Promise<number> {
    const deadline = Date.now() + 10_000;
    while (rolledBack() <= before) {
      if (Date.now() > deadline) throw new Error('no rollback was logged within 10 s');
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    return rolledBack() - before;
  }

  /** Sends the headers and half the body, waits for the answer, then sends the rest. */
  function postInTwoHalves(path: string, text: string): Promise<{ status: number; body: string }> {
    return new Promise((resolve, reject) => {
      const request = http.request(`${app().baseUrl}${path}`, {
        method: 'POST',
        headers: {
          Authorization: `Bearer ${app().apiKey}`,
          'Content-Type': 'application/json',
          'Content-Length': Buffer.byteLength(text),
        },
      });
      request.on('error', reject);
      request.on('response', (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString() }),
        );
        // The answer came before the body was complete: now send the rest.
        request.end(text.slice(Math.floor(text.length / 2)));
      });
      request.write(text.slice(0, Math.floor(text.length / 2)));
    });
  }

  it('a body that arrives after the deadline: 504, then the handler runs and its commit is rolled back', async () => {
    const id = uid('late');
    const before = rolledBack();
    const answer = await postInTwoHalves(
      '/api/v1/notifications',
      JSON.stringify({ id, url: 'https://hooks.example.com/late' }),
    );
    expect(answer).toEqual({
      status: 504,
      body: JSON.stringify({
        success: false,
        data: null,
        message: 'Gateway Timeout',
        error: 'Gateway Timeout',
      }),
    });
    expect(await waitForRollback(before)).toBe(1);
    expectError(await app().get(`/api/v1/notifications/${id}`), 404, 'Notification not found');
  });

  (TEST_DB === 'mysql' ? it : it.skip)(
    'a write held by a lock past the deadline: 504, and once the lock goes it is rolled back, not committed',
    async () => {
      const id = uid('locked');
      // Rolled back either way: by the server, whose statement timeout (REQUEST_TIMEOUT_MS,
      // docs/reference/hardening.md) ends the INSERT that waits for the lock, or at commit once the lock goes.
      const ENDED =
        /max_statement_time exceeded|maximum statement execution time|the request deadline passed before commit/;
      const ended = (): number =>
        app()
          .logText()
          .split('\n')
          .filter((line) => ENDED.test(line)).length;
      const before = ended();
      const blocker = await createConnection({ uri: handle.database.url });
      try {
        await blocker.query('LOCK TABLES notifications WRITE');
        expectError(
          await app().post('/api/v1/notifications', { id, url: 'https://hooks.example.com/locked' }),
          504,
          'Gateway Timeout',
        );
        await blocker.query('UNLOCK TABLES');
        await waitFor('the held INSERT to end', () => ended() > before);
        expectError(await app().get(`/api/v1/notifications/${id}`), 404, 'Notification not found');
      } finally {
        await blocker.end();
      }
    },
  );
});
