// Pages by cursor deep in the audit trail (`--scenarios cursor-pages`, opt-in): --cursor-records
// (100,100) audit records written straight into the database, then GET /api/v1/audit?limit=100 for
// the first page and for the 1,000th (its cursor reached by following next_cursor from the first),
// one request at a time on one connection: p50, p95, max of each; and the 1,000th page by number
// (page=1000&per_page=100, an OFFSET and a count) beside them. docs/reference/pagination.md#17-cursors.
import Database from 'better-sqlite3';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { withMysql } from './data.mjs';
import { latencySummary, percentile } from './load.mjs';
import { httpRequest } from './proc.mjs';

export const CURSOR_SCENARIOS = [
  {
    id: 'cursor-pages',
    label: 'GET /audit?limit=100: the 1,000th page by cursor against the first (opt-in)',
    optIn: true,
  },
];

const LIMIT = 100;
const DEPTH = 1000;
const REQUESTS = 50;
const COLUMNS = [
  'id',
  'at',
  'actor_type',
  'actor_id',
  'actor_name',
  'action',
  'resource_type',
  'resource_id',
  'request_id',
  'before',
  'after',
];
const AFTER = JSON.stringify({ id: 'bench', name: 'x'.repeat(200) });

const stored = (ms) => new Date(ms).toISOString().replace('T', ' ').replace('Z', '');

/** The i-th newest record: three a millisecond, so that ties on time are ordered by id. */
function row(i, newest) {
  const at = newest - Math.floor(i / 3);
  const id =
    at.toString(16).padStart(12, '0') + (0xffffffff - i).toString(16).padStart(8, '0') + '0'.repeat(16);
  return [
    id,
    stored(at),
    'admin',
    'admin',
    'API_KEY',
    'relayer.update',
    'relayer',
    `bench-${i % 500}`,
    'bench',
    null,
    AFTER,
  ];
}

async function seed(kind, db, total) {
  const newest = Date.now() - 60_000;
  const insert = `INSERT INTO audit_events (${COLUMNS.map((c) => (kind === 'mysql' ? `\`${c}\`` : `"${c}"`)).join(', ')})`;
  if (kind === 'sqlite') {
    const file = new Database(db.file, { timeout: 10_000 });
    try {
      const statement = file.prepare(`${insert} VALUES (${COLUMNS.map(() => '?').join(', ')})`);
      file.transaction(() => {
        for (let i = 0; i < total; i++) statement.run(row(i, newest));
      })();
      file.pragma('wal_checkpoint(TRUNCATE)');
    } finally {
      file.close();
    }
    return;
  }
  await withMysql(db.url, async (c) => {
    const CHUNK = 1000;
    for (let first = 0; first < total; first += CHUNK) {
      const rows = [];
      for (let i = first; i < Math.min(first + CHUNK, total); i++) rows.push(row(i, newest));
      await c.query(`${insert} VALUES ?`, [rows]);
    }
    await c.query('ANALYZE TABLE audit_events');
  });
}

/** `requests` requests of `path` one after the other, after 3 unmeasured ones. */
async function measure(serviceUrl, headers, path, requests) {
  for (let i = 0; i < 3; i++) {
    const r = await httpRequest(serviceUrl, { path, headers });
    if (r.status !== 200) throw new Error(`${path}: ${r.status} ${r.body.slice(0, 300)}`);
  }
  const latencies = [];
  let body;
  for (let i = 0; i < requests; i++) {
    const started = performance.now();
    const r = await httpRequest(serviceUrl, { path, headers });
    latencies.push(performance.now() - started);
    body = r.body;
  }
  const summary = latencySummary(latencies);
  const parsed = JSON.parse(body);
  return {
    requests,
    p50Ms: summary.p50,
    p95Ms: percentile(Float64Array.from(latencies).sort(), 95),
    maxMs: summary.max,
    items: parsed.data.length,
    firstId: parsed.data[0]?.id ?? null,
  };
}

export async function benchCursorPages(ctx, kind) {
  const { options, log, catalogues, freshDatabase, startService, AUTH } = ctx;
  const total = options.cursorRecords;
  const db = await freshDatabase('cursors');
  const service = await startService({
    databaseUrl: db.url,
    catalogue: catalogues.one,
    label: `${kind}-cursors`,
  });
  const seedStarted = performance.now();
  await seed(kind, db, total);
  const seedMs = performance.now() - seedStarted;
  log(
    `${kind}: cursor-pages, ${total.toLocaleString('en-US')} audit records seeded in ${(seedMs / 1000).toFixed(1)} s`,
  );
  const loadavg1Before = os.loadavg()[0];
  // The cursor of the 1,000th page: next_cursor followed from the first, 999 times.
  const walkStarted = performance.now();
  let cursor = null;
  for (let page = 1; page < DEPTH; page++) {
    const r = await httpRequest(service.url, {
      path: `/api/v1/audit?limit=${LIMIT}${cursor === null ? '' : `&cursor=${cursor}`}`,
      headers: AUTH,
    });
    if (r.status !== 200) throw new Error(`cursor-pages: page ${page} answered ${r.status}`);
    cursor = JSON.parse(r.body).pagination.next_cursor;
    if (cursor === null) throw new Error(`cursor-pages: only ${page} pages`);
  }
  const walkMs = performance.now() - walkStarted;
  const first = await measure(service.url, AUTH, `/api/v1/audit?limit=${LIMIT}`, REQUESTS);
  const deep = await measure(service.url, AUTH, `/api/v1/audit?limit=${LIMIT}&cursor=${cursor}`, REQUESTS);
  const byNumber = await measure(
    service.url,
    AUTH,
    `/api/v1/audit?page=${DEPTH}&per_page=${LIMIT}`,
    REQUESTS,
  );
  if (deep.firstId !== byNumber.firstId) throw new Error('cursor-pages: the 1,000th pages differ');
  for (const [name, m] of [
    ['first page by cursor', first],
    [`page ${DEPTH} by cursor`, deep],
    [`page ${DEPTH} by number`, byNumber],
  ]) {
    log(
      `  ${name}: p50 ${m.p50Ms.toFixed(1)} ms, p95 ${m.p95Ms.toFixed(1)} ms, max ${m.maxMs.toFixed(1)} ms (${m.items} items)`,
    );
  }
  log(`  ${DEPTH - 1} pages followed by cursor in ${(walkMs / 1000).toFixed(1)} s`);
  return {
    records: total,
    limit: LIMIT,
    depth: DEPTH,
    seedMs,
    walkMs,
    loadavg1Before,
    first,
    deep,
    byNumber,
  };
}
