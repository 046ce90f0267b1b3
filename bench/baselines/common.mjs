// Shared plumbing of the baseline servers: a bare node:http server with the service's routes and
// envelope, and nothing else (no framework, no validation beyond the shape, no logging, no auth
// check). Each baseline supplies the handlers; see b0-http.mjs, b1-sqlite.mjs, b2-mysql.mjs.
import { Buffer } from 'node:buffer';
import http from 'node:http';
import { URLSearchParams } from 'node:url';

export const PREFIX = '/api/v1';

/** A handler's refusal: answered as the service's error envelope. */
export class HttpError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

function sendJson(res, status, value) {
  const text = JSON.stringify(value);
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
  });
  res.end(text);
}

function sendError(res, status, message) {
  sendJson(res, status, { success: false, data: null, message, error: message });
}

function readBody(req) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

async function readJsonObject(req) {
  const text = await readBody(req);
  let body;
  try {
    body = JSON.parse(text);
  } catch {
    throw new HttpError(400, 'Request body is not valid JSON: it must be a JSON object');
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new HttpError(400, 'Request body is not valid JSON: it must be a JSON object');
  }
  return body;
}

function pageQuery(search) {
  const params = new URLSearchParams(search);
  const page = params.has('page') ? Number(params.get('page')) : 1;
  const perPage = params.has('per_page') ? Number(params.get('per_page')) : 10;
  if (!Number.isInteger(page) || page < 1)
    throw new HttpError(400, 'page must be a whole number of at least 1');
  if (!Number.isInteger(perPage) || perPage < 1 || perPage > 100) {
    throw new HttpError(400, 'per_page must be a whole number from 1 to 100');
  }
  return { page, perPage };
}

/**
 * Routes of the service that the benchmark exercises. `handlers` may implement any of:
 * createRelayer(body), getRelayer(id), listRelayers({page, perPage}) -> {items, total},
 * patchRelayer(id, body), createNotification(body); each returns the data (or a promise of it).
 */
export function createBaselineServer(handlers) {
  const route = async (req, res) => {
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const path = q === -1 ? url : url.slice(0, q);
    const search = q === -1 ? '' : url.slice(q + 1);
    const method = req.method;

    if (path === `${PREFIX}/health` && method === 'GET') {
      res.writeHead(200, { 'Content-Type': 'text/plain; charset=utf-8', 'Content-Length': 2 });
      res.end('OK');
      return;
    }
    if (path === `${PREFIX}/ready` && method === 'GET') {
      sendJson(res, 200, { status: 'ok' });
      return;
    }
    if (path === `${PREFIX}/relayers`) {
      if (method === 'POST' && handlers.createRelayer) {
        const data = await handlers.createRelayer(await readJsonObject(req));
        sendJson(res, 201, { success: true, data, error: null });
        return;
      }
      if (method === 'GET' && handlers.listRelayers) {
        const query = pageQuery(search);
        const { items, total } = await handlers.listRelayers(query);
        sendJson(res, 200, {
          success: true,
          data: items,
          error: null,
          pagination: { current_page: query.page, per_page: query.perPage, total_items: total },
        });
        return;
      }
    }
    if (path.startsWith(`${PREFIX}/relayers/`)) {
      const id = decodeURIComponent(path.slice(`${PREFIX}/relayers/`.length));
      if (method === 'GET' && handlers.getRelayer) {
        sendJson(res, 200, { success: true, data: await handlers.getRelayer(id), error: null });
        return;
      }
      if (method === 'PATCH' && handlers.patchRelayer) {
        const data = await handlers.patchRelayer(id, await readJsonObject(req));
        sendJson(res, 200, { success: true, data, error: null });
        return;
      }
    }
    if (path === `${PREFIX}/notifications` && method === 'POST' && handlers.createNotification) {
      const data = await handlers.createNotification(await readJsonObject(req));
      sendJson(res, 201, { success: true, data, error: null });
      return;
    }
    req.resume();
    sendError(res, 404, 'Not Found');
  };

  const server = http.createServer((req, res) => {
    route(req, res).catch((error) => {
      if (error instanceof HttpError) {
        sendError(res, error.status, error.message);
        return;
      }
      console.error(error);
      sendError(res, 500, 'Internal Server Error');
    });
  });
  // The same keep-alive settings as the service (src/bootstrap.ts).
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  return server;
}

/** Listens on PORT/HOST from the environment; SIGTERM closes the server and runs `onClose`. */
export function listen(server, name, onClose = async () => {}) {
  const port = Number(process.env.PORT ?? 8090);
  const host = process.env.HOST ?? '127.0.0.1';
  server.listen(port, host, () => {
    console.log(`${name} listening on http://${host}:${port}${PREFIX}`);
  });
  const stop = () => {
    server.close();
    server.closeAllConnections();
    onClose().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

/** The required fields of a create, checked for type only (the baseline is the ceiling, not a validator). */
export function requireRelayerShape(body) {
  const bad = [];
  if (typeof body.name !== 'string' || body.name.length === 0) bad.push('name');
  if (typeof body.network !== 'string') bad.push('network');
  if (!['evm', 'solana', 'stellar'].includes(body.network_type)) bad.push('network_type');
  if (typeof body.paused !== 'boolean') bad.push('paused');
  if (typeof body.signer_id !== 'string') bad.push('signer_id');
  if (body.id !== undefined && typeof body.id !== 'string') bad.push('id');
  if (bad.length > 0) throw new HttpError(400, `invalid fields: ${bad.join(', ')}`);
}

/**
 * A relayer-shaped row built from a create body. The address is a constant: the service derives it
 * from the signer's key, the baseline has no keys.
 */
export function newRelayerRow(body, id, now) {
  return {
    id,
    name: body.name,
    network: body.network,
    network_type: body.network_type,
    address: '0x0000000000000000000000000000000000000000',
    signer_id: body.signer_id,
    notification_id: body.notification_id ?? null,
    paused: body.paused ? 1 : 0,
    system_disabled: 0,
    disabled_reason: null,
    custom_rpc_urls: body.custom_rpc_urls == null ? null : JSON.stringify(body.custom_rpc_urls),
    policies: body.policies == null ? null : JSON.stringify(body.policies),
    version: 1,
    created_at: now,
    updated_at: now,
  };
}

export const RELAYER_COLUMNS = [
  'id',
  'name',
  'network',
  'network_type',
  'address',
  'signer_id',
  'notification_id',
  'paused',
  'system_disabled',
  'disabled_reason',
  'custom_rpc_urls',
  'policies',
  'version',
  'created_at',
  'updated_at',
];

/**
 * The merge of a PATCH body into a stored row (JSON merge patch of name, paused, notification_id,
 * custom_rpc_urls and policies, key by key); the columns to write.
 */
export function mergeRelayerPatch(row, body) {
  const next = {
    name: row.name,
    paused: row.paused,
    notification_id: row.notification_id,
    custom_rpc_urls: row.custom_rpc_urls,
    policies: row.policies,
  };
  if (typeof body.name === 'string') next.name = body.name;
  if (typeof body.paused === 'boolean') next.paused = body.paused ? 1 : 0;
  if (body.notification_id !== undefined) next.notification_id = body.notification_id;
  if (body.custom_rpc_urls !== undefined) {
    next.custom_rpc_urls = body.custom_rpc_urls === null ? null : JSON.stringify(body.custom_rpc_urls);
  }
  if (body.policies !== undefined) {
    if (body.policies === null) {
      next.policies = null;
    } else {
      const merged = row.policies === null ? {} : JSON.parse(row.policies);
      for (const [key, value] of Object.entries(body.policies)) {
        if (value === null) delete merged[key];
        else merged[key] = value;
      }
      next.policies = JSON.stringify(merged);
    }
  }
  return next;
}

function isoOf(value) {
  if (value instanceof Date) return value.toISOString();
  // SQLite (as TypeORM writes it): 'YYYY-MM-DD HH:MM:SS.mmm', UTC.
  return new Date(`${String(value).replace(' ', 'T')}Z`).toISOString();
}

/** The service's relayer response (every field of contract 6.5), from a stored row. */
export function relayerResponse(row) {
  return {
    id: row.id,
    name: row.name,
    network: row.network,
    network_type: row.network_type,
    address: row.address,
    signer_id: row.signer_id,
    notification_id: row.notification_id,
    paused: Boolean(row.paused),
    system_disabled: Boolean(row.system_disabled),
    disabled_reason: row.disabled_reason === null ? null : JSON.parse(row.disabled_reason),
    custom_rpc_urls: row.custom_rpc_urls === null ? null : JSON.parse(row.custom_rpc_urls),
    policies: row.policies === null ? null : JSON.parse(row.policies),
    created_at: isoOf(row.created_at),
    updated_at: isoOf(row.updated_at),
  };
}

/** 'YYYY-MM-DD HH:MM:SS.mmm' in UTC, the text TypeORM stores in SQLite datetime columns. */
export function sqlDateTime(date) {
  return date.toISOString().replace('T', ' ').replace('Z', '');
}
