// The extension's e2e test, run for each variant (js.test.js, ts.test.js; one process each): over HTTP,
// against the service built from the installed package on a temporary SQLite database.
'use strict';
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { after, before, describe, test } = require('node:test');

const API_KEY = 'extension-app-test-key-0123456789abcdef';
const BURST = 20;

function runSuite(name, variant) {
  describe(`the ${name} variant`, () => suite(variant));
}

function suite(variant) {
  let app;
  let base;
  const call = (method, route, { key = API_KEY, body } = {}) =>
    fetch(`${base}${route}`, {
      method,
      headers: {
        ...(key ? { authorization: `Bearer ${key}` } : {}),
        ...(body ? { 'content-type': 'application/json' } : {}),
      },
      body: body ? JSON.stringify(body) : undefined,
    });
  const json = async (res) => ({ status: res.status, body: await res.json() });
  const error = (status, message) => ({
    status,
    body: { success: false, data: null, message, error: message },
  });

  before(async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'extension-app-'));
    app = await variant.start({
      HOST: '127.0.0.1',
      PORT: '0',
      API_KEY,
      DATABASE_URL: `sqlite:${path.join(dir, 'relayer.sqlite')}`,
      DATA_DIR: dir,
      // No CONFIG_FILE, and no config/config.json here: loadConfig falls back on the package's own.
      LOG_LEVEL: 'silent',
      RELAYER_HEALTH_CHECKS: 'false',
      // Low, so that the test reaches it: BURST requests per key, then 429.
      RATE_LIMIT_REQUESTS_PER_SECOND: '1',
      RATE_LIMIT_BURST_SIZE: String(BURST),
    });
    base = `http://127.0.0.1:${app.getHttpServer().address().port}`;
  });
  after(() => app?.close());

  test('GET /api/v1/ext/ping answers 200 in the envelope with the key, 401 without it', async () => {
    assert.deepEqual(await json(await call('GET', '/api/v1/ext/ping')), {
      status: 200,
      body: { success: true, data: { pong: true, relayers_created: [] }, error: null },
    });
    assert.deepEqual(
      await json(await call('GET', '/api/v1/ext/ping', { key: null })),
      error(401, 'Unauthorized'),
    );
  });

  test('the installed package serves its console at /console/, built and with its policy', async () => {
    const res = await call('GET', '/console/', { key: null });
    const page = await res.text();
    assert.deepEqual(
      [
        res.status,
        res.headers.get('content-type'),
        /<script type="module" src="\/console\/assets\/main-[A-Z0-9]{8}\.js"><\/script>/.test(page),
      ],
      [200, 'text/html; charset=utf-8', true],
    );
    assert.match(res.headers.get('content-security-policy'), /^default-src 'none'; script-src 'self';/);
  });

  test('the module hears relayer.created after a create through the API', async () => {
    const relayer = {
      id: 'ext-relayer-1',
      name: 'heard by the extension',
      network: 'sepolia',
      network_type: 'evm',
      paused: false,
      signer_id: 'dev-signer',
    };
    const created = await json(await call('POST', '/api/v1/relayers', { body: relayer }));
    assert.equal(created.status, 201);
    assert.equal(created.body.data.id, 'ext-relayer-1');
    assert.deepEqual(await json(await call('GET', '/api/v1/ext/ping')), {
      status: 200,
      body: { success: true, data: { pong: true, relayers_created: ['ext-relayer-1'] }, error: null },
    });
  });

  test('ext:ping is a permission an API key can be given (and is documented); a key without it gets 403', async () => {
    const withPing = await json(
      await call('POST', '/api/v1/api-keys', { body: { name: 'pinger', permissions: ['ext:ping'] } }),
    );
    assert.equal(withPing.status, 201);
    assert.deepEqual(withPing.body.data.permissions, ['ext:ping']);
    assert.deepEqual(await json(await call('GET', '/api/v1/ext/ping', { key: withPing.body.data.key })), {
      status: 200,
      body: { success: true, data: { pong: true, relayers_created: ['ext-relayer-1'] }, error: null },
    });
    const reader = await json(
      await call('POST', '/api/v1/api-keys', { body: { name: 'reader', permissions: ['relayers:read'] } }),
    );
    assert.deepEqual(
      await json(await call('GET', '/api/v1/ext/ping', { key: reader.body.data.key })),
      error(403, 'Forbidden'),
    );
    const doc = await (await call('GET', '/api/docs-json', { key: null })).json();
    assert.equal(doc.paths['/api/v1/ext/ping'].get['x-required-permission'], 'ext:ping');
    assert.ok(doc.components.schemas.CreateApiKeyDto.properties.permissions.items.enum.includes('ext:ping'));
  });

  test('past the rate limit the route answers 429 (each key counted apart: this one has BURST requests)', async () => {
    const created = await json(
      await call('POST', '/api/v1/api-keys', { body: { name: 'busy', permissions: ['ext:ping'] } }),
    );
    const key = created.body.data.key;
    const statuses = [];
    for (let i = 0; i <= BURST; i++) statuses.push((await call('GET', '/api/v1/ext/ping', { key })).status);
    assert.deepEqual(statuses, [...Array(BURST).fill(200), 429]);
    const limited = await call('GET', '/api/v1/ext/ping', { key });
    assert.deepEqual({ status: limited.status, body: await limited.json() }, error(429, 'Too Many Requests'));
  });
}

module.exports = { runSuite };
