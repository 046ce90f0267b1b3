// The tutorial's module (src/extension.ts, built to dist/): its own table and migration, its routes and
// permissions, a subscriber that vetoes in the relayer's transaction, one after commit, and the replaced
// EVM health probe. Over HTTP, on SQLite, and on MySQL when EXAMPLE_MYSQL_URL names a server (CI does;
// there, three instances also start together on one database). The service is the installed package.
'use strict';
const assert = require('node:assert/strict');
const fs = require('node:fs');
const http = require('node:http');
const os = require('node:os');
const path = require('node:path');
const { after, before, describe, test } = require('node:test');
const { DataSource } = require('typeorm');
const { start } = require('../dist/extension');

const API_KEY = 'extension-app-tutorial-key-0123456789abcdef';
const MIGRATION = 'CreateExtNotes1900000000000';
const mysqlServer = process.env.EXAMPLE_MYSQL_URL;

/** A local HTTP server answering each request with answer(body); its requests are kept. */
async function server(answer) {
  const requests = [];
  const s = http.createServer((req, res) => {
    let text = '';
    req.on('data', (chunk) => (text += chunk));
    req.on('end', () => {
      const body = text ? JSON.parse(text) : null;
      requests.push(body);
      const [status, reply] = answer(body);
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(reply));
    });
  });
  await new Promise((resolve) => s.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${s.address().port}`, requests, close: () => s.close() };
}

/** A fresh database on the MySQL server, dropped by the returned function. */
async function mysqlDatabase(label) {
  const name = `relayer_test_ext_${label}_${process.pid}`;
  const admin = new DataSource({ type: 'mysql', url: mysqlServer });
  await admin.initialize();
  await admin.query(`CREATE DATABASE \`${name}\``);
  return {
    url: `${mysqlServer.replace(/\/$/, '')}/${name}`,
    drop: async () => {
      await admin.query(`DROP DATABASE IF EXISTS \`${name}\``);
      await admin.destroy();
    },
  };
}

function env(databaseUrl, dir, chatUrl) {
  return {
    HOST: '127.0.0.1',
    PORT: '0',
    API_KEY,
    DATABASE_URL: databaseUrl,
    DATA_DIR: dir,
    LOG_LEVEL: 'silent',
    RELAYER_HEALTH_CHECKS: 'false',
    NOTES_CHAT_URL: chatUrl,
  };
}

const databases = [['SQLite', null]];
if (mysqlServer) databases.push(['MySQL', 'mysql']);
else console.log('# EXAMPLE_MYSQL_URL is not set: the tutorial runs on SQLite only');

for (const [label, kind] of databases) {
  describe(`the tutorial on ${label}`, () => {
    let app;
    let base;
    let chat;
    let chatStatus = 200;
    let rpc;
    let database;
    const call = async (method, route, { key = API_KEY, body } = {}) => {
      const res = await fetch(`${base}${route}`, {
        method,
        headers: {
          authorization: `Bearer ${key}`,
          ...(body ? { 'content-type': 'application/json' } : {}),
        },
        body: body ? JSON.stringify(body) : undefined,
      });
      return { status: res.status, body: await res.json() };
    };
    const ok = (status, data) => ({ status, body: { success: true, data, error: null } });
    const error = (status, message) => ({
      status,
      body: { success: false, data: null, message, error: message },
    });
    // One relayer per network: the shipped catalogue's dev-signer may sign for one relayer on each.
    const relayer = (id, name, network, extra = {}) => ({
      id,
      name,
      network,
      network_type: 'evm',
      paused: false,
      signer_id: 'dev-signer',
      ...extra,
    });

    before(async () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'extension-tutorial-'));
      chat = await server(() => [chatStatus, { ok: chatStatus === 200 }]);
      // A JSON-RPC node answering eth_getBalance with 5 wei (single calls and batches).
      rpc = await server((body) => {
        const one = (c) => ({
          jsonrpc: '2.0',
          id: c.id,
          result: c.method === 'eth_getBalance' ? '0x5' : null,
        });
        return [200, Array.isArray(body) ? body.map(one) : one(body)];
      });
      database = kind ? await mysqlDatabase('tutorial') : null;
      const url = database ? database.url : `sqlite:${path.join(dir, 'relayer.sqlite')}`;
      app = await start(env(url, dir, chat.url));
      base = `http://127.0.0.1:${app.getHttpServer().address().port}`;
    });
    after(async () => {
      await app?.close();
      await database?.drop();
      chat?.close();
      rpc?.close();
    });

    test('its migration ran once with the service’s, recorded in the same table', async () => {
      const rows = await app
        .get(DataSource)
        .query('SELECT name FROM migrations WHERE name LIKE ?', ['CreateExt%']);
      assert.deepEqual(
        rows.map((r) => r.name),
        [MIGRATION],
      );
    });

    test('a created relayer gets its first note in its own transaction; notes are written, read and audited', async () => {
      assert.deepEqual(
        (await call('POST', '/api/v1/relayers', { body: relayer('tut-1', 'first', 'sepolia') })).status,
        201,
      );
      const first = await call('GET', '/api/v1/ext/notes?relayer_id=tut-1');
      assert.equal(first.body.data.length, 1);
      assert.deepEqual(
        first,
        ok(200, [{ id: first.body.data[0].id, relayer_id: 'tut-1', text: 'created as first' }]),
      );

      const created = await call('POST', '/api/v1/ext/notes', {
        body: { relayer_id: 'tut-1', text: 'key rotated' },
      });
      const note = { id: created.body.data.id, relayer_id: 'tut-1', text: 'key rotated' };
      assert.deepEqual(created, ok(201, note));
      assert.deepEqual(await call('GET', `/api/v1/ext/notes/${note.id}`), ok(200, note));
      assert.deepEqual(await call('GET', '/api/v1/ext/notes/nope'), error(404, 'no such note: nope'));
      assert.deepEqual(
        await call('POST', '/api/v1/ext/notes', { body: { relayer_id: 'no-such-relayer', text: 'x' } }),
        error(404, 'Relayer with ID no-such-relayer not found'),
      );
      assert.deepEqual(
        await call('POST', '/api/v1/ext/notes', { body: { relayer_id: 'tut-1', text: '' } }),
        error(400, 'text must be longer than or equal to 1 characters'),
      );
      const audit = await call('GET', '/api/v1/audit?resource_type=note');
      assert.equal(audit.status, 200);
      assert.deepEqual(
        audit.body.data.map((r) => [r.action, r.resource_id, r.after]),
        [['note.create', note.id, note]],
      );
    });

    test('a relayer name the subscriber vetoes is refused whole: no relayer, no note, no audit record', async () => {
      assert.deepEqual(
        await call('POST', '/api/v1/relayers', { body: relayer('tut-frozen', 'frozen-1', 'base-sepolia') }),
        error(400, "name: relayer names starting with 'frozen-' are reserved"),
      );
      assert.deepEqual(
        await call('GET', '/api/v1/relayers/tut-frozen'),
        error(404, 'Relayer with ID tut-frozen not found'),
      );
      assert.deepEqual(await call('GET', '/api/v1/ext/notes?relayer_id=tut-frozen'), ok(200, []));
      const audit = await call('GET', '/api/v1/audit?resource_type=relayer');
      assert.deepEqual(
        audit.body.data.filter((r) => r.resource_id === 'tut-frozen'),
        [],
      );
    });

    test('after commit the chat hears of each relayer; the chat failing changes no answer and stops nothing', async () => {
      chatStatus = 200;
      assert.equal(
        (await call('POST', '/api/v1/relayers', { body: relayer('tut-2', 'second', 'base-sepolia') })).status,
        201,
      );
      await waitFor(() => chat.requests.some((r) => r.text === 'relayer tut-2 (second) created'));
      chatStatus = 500;
      const created = await call('POST', '/api/v1/relayers', {
        body: relayer('tut-3', 'third', 'arbitrum-one'),
      });
      assert.equal(created.status, 201);
      await waitFor(() => chat.requests.some((r) => r.text === 'relayer tut-3 (third) created'));
      assert.equal((await call('GET', '/api/v1/relayers/tut-3')).body.data.name, 'third');
      assert.deepEqual((await call('GET', '/api/v1/ext/ping')).body.data.relayers_created, [
        'tut-1',
        'tut-2',
        'tut-3',
      ]);
    });

    test('notes:read and notes:write are permissions a key may hold; a reader cannot write', async () => {
      const reader = await call('POST', '/api/v1/api-keys', {
        body: { name: 'notes reader', permissions: ['notes:read'] },
      });
      assert.equal(reader.status, 201);
      const key = reader.body.data.key;
      assert.deepEqual(await call('GET', '/api/v1/ext/notes?relayer_id=tut-9', { key }), ok(200, []));
      assert.deepEqual(
        await call('POST', '/api/v1/ext/notes', { key, body: { relayer_id: 'tut-1', text: 'x' } }),
        error(403, 'Forbidden'),
      );
    });

    test('the replaced EVM probe checks the balance only, through the service’s JSON-RPC client', async () => {
      const body = relayer('tut-probe', 'probed', 'optimism', {
        custom_rpc_urls: [{ url: rpc.url, weight: 100 }],
        policies: { min_balance: 10 },
      });
      assert.equal((await call('POST', '/api/v1/relayers', { body })).status, 201);
      const checked = await call('POST', '/api/v1/relayers/tut-probe/check');
      assert.equal(checked.status, 200);
      assert.deepEqual([checked.body.data.balance, checked.body.data.system_disabled], ['5', true]);
      assert.deepEqual((await call('GET', '/api/v1/relayers/tut-probe')).body.data.disabled_reason, {
        type: 'BalanceCheckFailed',
        details: 'balance 5 is below min_balance 10 (balance-only probe)',
      });
      const methods = rpc.requests.flatMap((r) => (Array.isArray(r) ? r : [r])).map((c) => c.method);
      assert.deepEqual([...new Set(methods)], ['eth_getBalance']);
    });
  });
}

if (mysqlServer) {
  test('on MySQL, three instances started together on one new database run the migration once', async () => {
    const database = await mysqlDatabase('three');
    const dirs = [1, 2, 3].map(() => fs.mkdtempSync(path.join(os.tmpdir(), 'extension-tutorial-')));
    const apps = await Promise.all(dirs.map((dir) => start(env(database.url, dir, undefined))));
    try {
      for (const app of apps) {
        const res = await fetch(`http://127.0.0.1:${app.getHttpServer().address().port}/api/v1/ready`);
        assert.equal(res.status, 200);
      }
      const ds = apps[0].get(DataSource);
      assert.deepEqual(await ds.query('SELECT COUNT(*) AS n FROM migrations WHERE name = ?', [MIGRATION]), [
        { n: '1' },
      ]);
      assert.deepEqual(await ds.query('SELECT COUNT(*) AS n FROM ext_notes'), [{ n: '0' }]);
    } finally {
      await Promise.all(apps.map((app) => app.close()));
      await database.drop();
    }
  });
}

async function waitFor(condition, ms = 5000) {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`not true within ${ms} ms: ${condition}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
