// The console's relayers table at 10,000 relayers (`--scenarios console-relayers`, opt-in, never in the
// default set): the issue's "a table of 10,000 relayers stays fast", measured here and never asserted
// by a timed test. Per database: the built service (with the console bundled beside it, dist/console)
// on a fresh database, --console-relayers (10,000) relayers created through the API on 16 connections
// (the service makes the rows, their addresses and their check rows), then, with SQL as the health
// checks would have written them, the last check of 90 % of them (balance, nonce or sequence), 2 %
// disabled by the system, and a default balance alert on sepolia. Then Debian's Chromium
// (playwright-core, the flags of test/support/browser.ts) signs in to /console/ with the admin key and
// loads each case --console-reps times (10, quick 3; after one unmeasured load), the cases in turn:
// the time from navigation (a new document: the page, its script and stylesheet, then its API requests:
// the sign-in read, the list with each row's status and balance alert (`include=status`; before it, 2
// reads a row) and the attention strip's counts with the failing targets (`GET
// /api/v1/relayers/summary?include=notifications`): 3 a load, where it was 5 with the summary and
// `GET /api/v1/notifications/summary` apart and the networks read again in each new document, now
// kept for the sign-in) to the table's rows all showing their status (no "Loading status…" left), read in the page (performance.now() from the navigation's
// start, when a MutationObserver sees the table complete), and, for comparison, the API's own time for
// the list call behind each case, one request at a time on one connection. The section "Console:
// the relayers table" of docs/benchmark-results.md (consoleMarkdown) comes from it.
import { Buffer } from 'node:buffer';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { spawnSync } from 'node:child_process';
import { URLSearchParams } from 'node:url';
import Database from 'better-sqlite3';
import { pairAt, withMysql } from './data.mjs';
import { latencySummary, percentile } from './load.mjs';

export const CONSOLE_SCENARIOS = [
  {
    id: 'console-relayers',
    label: "The console's relayers table in Chromium with 10,000 relayers (opt-in)",
    optIn: true,
  },
];

const API = '/api/v1';
const PER_PAGE = 25;
const SEED_CONNECTIONS = 16;
/** Debian's chromium (test/support/browser.ts); CHROMIUM_PATH names another. */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/** The tests' flags (test/support/chromium-args.json): no call home (updates, sync, safe browsing). */
const CHROMIUM_ARGS = JSON.parse(
  fs.readFileSync(new URL('../../test/support/chromium-args.json', import.meta.url), 'utf8'),
);
const VIEWPORT = { width: 1280, height: 900 };
/** A load that has not shown its table after this long fails the case. */
const PAGE_TIMEOUT_MS = 60_000;
/** The network default alert of sepolia: 0.05 ETH in wei (the EVM rows below it show "Low"). */
const SEPOLIA_THRESHOLD = 50_000_000_000_000_000n;

/**
 * The cases: a label, the console's hash, and the list call the page makes for it. `withStatus`: the
 * service's list takes `include=status` (since 071ab39), so its console reads a page in one list call
 * (console/src/pages/relayers.tsx); before, the list alone, then 2 reads a row.
 */
export function consoleCases(total, withStatus = true) {
  const last = Math.max(1, Math.ceil(total / PER_PAGE));
  return [
    { id: 'page-1', hash: '#/relayers', query: { page: 1 } },
    { id: `page-${last}`, hash: `#/relayers?page=${last}`, query: { page: last } },
    { id: 'paused', hash: '#/relayers?state=paused', query: { page: 1, state: 'paused' } },
    {
      id: 'solana-page-50',
      hash: '#/relayers?network_type=solana&page=50',
      query: { page: 50, network_type: 'solana' },
    },
  ].map((c) => ({
    ...c,
    // The query the page sends (console/src/pages/relayers.tsx: page, per_page, then the filters).
    listPath: `${API}/relayers?${new URLSearchParams(
      Object.entries({
        page: c.query.page,
        per_page: PER_PAGE,
        ...(withStatus ? { include: 'status' } : {}),
        ...c.query,
      }).map(([k, v]) => [k, String(v)]),
    )}`,
  }));
}

// ---------------------------------------------------------------------------------------------------------
// Seeding

/** The k-th relayer (k from 0): the networks in turn, one in 5 paused, one in 50 disabled by a check. */
const isPaused = (k) => k % 5 === 1;
const isDisabled = (k) => k % 50 === 7;
/** One in 10 never checked (its status says "not checked"). */
const isChecked = (k) => k % 10 !== 3;

/**
 * What the last check of the k-th relayer found, as relayer_checks holds it; `balance_order` (the
 * balance as text that sorts as the number, src/relayer-health/balance-order.ts) where the schema has it.
 */
function checkRow(k, id, networkType, now, withOrder) {
  const checkedAt = isChecked(k) ? new Date(now - (k % 3600) * 1000) : null;
  const units = BigInt((k * 7919) % 1000);
  const balance =
    checkedAt === null
      ? null
      : networkType === 'evm'
        ? units * 1_000_000_000_000_000n
        : networkType === 'solana'
          ? units * 10_000_000n
          : units * 100_000n;
  return {
    relayer_id: id,
    next_check_at: stored(new Date(now + 24 * 3600 * 1000)),
    checked_at: checkedAt && stored(checkedAt),
    balance: balance === null ? null : balance.toString(),
    ...(withOrder
      ? {
          balance_order:
            balance === null ? null : `${String(balance.toString().length).padStart(3, '0')}${balance}`,
        }
      : {}),
    nonce: checkedAt && networkType === 'evm' ? String(k % 500) : null,
    sequence_number: checkedAt && networkType === 'stellar' ? String(4_000_000_000_000n + BigInt(k)) : null,
    failures: isDisabled(k) ? 1 : 0,
    // Only sepolia has a threshold: the others have no alert (null, as the service keeps it).
    balance_low: checkedAt === null || networkType !== 'evm' ? null : balance < SEPOLIA_THRESHOLD ? 1 : 0,
  };
}

const stored = (date) => date.toISOString().replace('T', ' ').replace('Z', '');

const DISABLED_REASON = JSON.stringify({
  type: 'RpcValidationFailed',
  details: 'eth_chainId failed: https://rpc.example.com/sepolia did not answer within 5000 ms',
});

/** Keep-alive JSON requests to the service. */
function requester(base, authorization) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: SEED_CONNECTIONS });
  return (method, path, body) =>
    new Promise((resolve, reject) => {
      const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
      const req = http.request(
        `${base}${path}`,
        {
          method,
          agent,
          timeout: 30_000,
          headers: {
            authorization,
            ...(payload ? { 'content-type': 'application/json', 'content-length': payload.length } : {}),
          },
        },
        (res) => {
          const chunks = [];
          res.on('data', (c) => chunks.push(c));
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : null });
          });
          res.on('error', reject);
        },
      );
      req.on('timeout', () => req.destroy(new Error(`${method} ${path}: no answer within 30 s`)));
      req.on('error', reject);
      req.end(payload);
    });
}

/** Creates `total` relayers through the API on SEED_CONNECTIONS connections; their ids by k. */
async function createRelayers(call, total, signers) {
  const ids = new Array(total);
  let next = 0;
  const worker = async () => {
    for (;;) {
      const k = next++;
      if (k >= total) return;
      const pair = pairAt(k, signers);
      if (!pair) throw new Error(`console-relayers: the catalogue has no free pair for relayer ${k + 1}`);
      const answer = await call('POST', `${API}/relayers`, {
        name: `Console relayer ${String(k + 1).padStart(5, '0')}`,
        ...pair,
        paused: isPaused(k),
      });
      if (answer.status !== 201)
        throw new Error(
          `console-relayers: POST /relayers answered ${answer.status}: ${JSON.stringify(answer.body)}`,
        );
      ids[k] = { id: answer.body.data.id, networkType: pair.network_type };
    }
  };
  await Promise.all(Array.from({ length: SEED_CONNECTIONS }, worker));
  return ids;
}

/** The checks' results and the system's verdicts, written as the health checks write them. */
async function writeChecks(kind, db, relayers) {
  const now = Date.now();
  const disabled = relayers.filter((_, k) => isDisabled(k)).map((r) => r.id);
  const at = stored(new Date(now));
  if (kind === 'sqlite') {
    const handle = new Database(db.file, { timeout: 10_000 });
    try {
      const withOrder = handle
        .prepare('SELECT name FROM pragma_table_info(?)')
        .all('relayer_checks')
        .some((c) => c.name === 'balance_order');
      const rows = relayers.map(({ id, networkType }, k) => checkRow(k, id, networkType, now, withOrder));
      const check = handle.prepare(
        `UPDATE relayer_checks SET next_check_at = @next_check_at, checked_at = @checked_at, balance = @balance,
           nonce = @nonce, sequence_number = @sequence_number, failures = @failures, balance_low = @balance_low
           ${withOrder ? ', balance_order = @balance_order' : ''}
         WHERE relayer_id = @relayer_id`,
      );
      const disable = handle.prepare(
        'UPDATE relayers SET system_disabled = 1, disabled_reason = ?, version = version + 1, updated_at = ? WHERE id = ?',
      );
      handle.transaction(() => {
        for (const row of rows)
          if (check.run(row).changes !== 1) throw new Error(`no check row for ${row.relayer_id}`);
        for (const id of disabled) disable.run(DISABLED_REASON, at, id);
      })();
      handle.pragma('wal_checkpoint(TRUNCATE)');
    } finally {
      handle.close();
    }
  } else {
    await withMysql(db.url, async (c) => {
      const [found] = await c.query(
        "SELECT COUNT(*) AS n FROM information_schema.columns WHERE table_schema = DATABASE() AND table_name = 'relayer_checks' AND column_name = 'balance_order'",
      );
      const rows = relayers.map(({ id, networkType }, k) =>
        checkRow(k, id, networkType, now, Number(found[0].n) > 0),
      );
      await c.beginTransaction();
      const columns = Object.keys(rows[0]);
      for (let start = 0; start < rows.length; start += 1000) {
        const [result] = await c.query(
          `INSERT INTO relayer_checks (${columns.join(', ')}) VALUES ?
             ON DUPLICATE KEY UPDATE ${columns
               .filter((col) => col !== 'relayer_id')
               .map((col) => `${col} = VALUES(${col})`)
               .join(', ')}`,
          [rows.slice(start, start + 1000).map((row) => columns.map((col) => row[col]))],
        );
        // Each updated row counts 2 (MySQL's ON DUPLICATE KEY UPDATE); an insert would count 1.
        if (result.affectedRows % 2 !== 0) throw new Error('console-relayers: a relayer had no check row');
      }
      await c.query(
        'UPDATE relayers SET system_disabled = 1, disabled_reason = ?, version = version + 1, updated_at = ? WHERE id IN (?)',
        [DISABLED_REASON, at, disabled],
      );
      await c.commit();
      await c.query('ANALYZE TABLE relayers, relayer_checks');
    });
  }
  return { checked: relayers.filter((_, k) => isChecked(k)).length, disabled: disabled.length };
}

// ---------------------------------------------------------------------------------------------------------
// The console's bundle beside the private build

/**
 * The service serves dist/console beside its dist/src (src/console/serve-console.ts). The private
 * build of run.mjs compiles src/ only: bundle the console of the same sources (scripts/build-console.mjs
 * writes <sources>/dist/console) and copy it there. An existing build (--dist) must already have it.
 */
export function bundleConsole(sourceRoot, distDir) {
  const target = path.join(distDir, 'console');
  if (fs.existsSync(path.join(target, 'manifest.json'))) return { how: 'already built', ms: 0 };
  const started = performance.now();
  const r = spawnSync(process.execPath, [path.join(sourceRoot, 'scripts', 'build-console.mjs')], {
    cwd: sourceRoot,
    stdio: 'inherit',
  });
  if (r.status !== 0) throw new Error('console-relayers: scripts/build-console.mjs failed');
  const built = path.join(sourceRoot, 'dist', 'console');
  if (path.resolve(built) !== path.resolve(target)) fs.cpSync(built, target, { recursive: true });
  return { how: 'scripts/build-console.mjs', ms: performance.now() - started };
}

// ---------------------------------------------------------------------------------------------------------
// Measuring

/**
 * Runs in every new document: records, from the navigation's start, when the table first has rows and
 * when it is complete (`expected` rows, none loading; a failed status is recorded as such).
 */
const OBSERVER = `(() => {
  // Only the console's documents (about:blank between loads has no sessionStorage to read).
  if (!window.location.pathname.startsWith('/console/')) return;
  const state = { rows: null, done: null, failed: null };
  window.__consoleBench = state;
  const look = () => {
    const expected = Number(window.sessionStorage.getItem('console-bench.expected'));
    const rows = document.querySelectorAll('main table tbody tr');
    if (rows.length > 0 && state.rows === null) state.rows = performance.now();
    if (rows.length !== expected || state.done !== null) return;
    let loading = 0;
    for (const row of rows) {
      const text = row.textContent;
      if (text.includes('Loading status')) loading++;
      else if (text.includes('Status unavailable') && state.failed === null) state.failed = text;
    }
    if (loading === 0) state.done = performance.now();
  };
  new MutationObserver(look).observe(document, { childList: true, subtree: true, characterData: true });
})();`;

async function launch() {
  // Imported here: report.mjs reads this module's page section without a browser.
  const { chromium } = await import('playwright-core');
  if (!fs.existsSync(CHROMIUM))
    throw new Error(
      `console-relayers: no Chromium at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH)`,
    );
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
}

/** A tab signed in with the key (sessionStorage: a new document of the same tab stays signed in). */
async function signedInTab(browser, serviceUrl, key) {
  const context = await browser.newContext({
    viewport: VIEWPORT,
    serviceWorkers: 'block',
    locale: 'en-GB',
    timezoneId: 'UTC',
  });
  await context.addInitScript(OBSERVER);
  const page = await context.newPage();
  const requests = [];
  const errors = [];
  context.on('request', (request) => requests.push(request.url()));
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(`${serviceUrl}/console/`);
  await page.getByLabel('API key').fill(key);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('button', { name: 'Sign out' }).waitFor();
  return { context, page, requests, errors };
}

/**
 * One load of a case in a new document: from about:blank to the console's URL, until the table holds
 * `expected` rows and none says "Loading status…". Returns the times (ms) and what the first row names.
 */
async function loadOnce(tab, serviceUrl, testCase, expected) {
  const { page } = tab;
  // Set while the tab is still on the console's origin: the new document's observer reads it.
  await page.evaluate(
    (n) => globalThis.sessionStorage.setItem('console-bench.expected', String(n)),
    expected,
  );
  await page.goto('about:blank');
  const requestsBefore = tab.requests.length;
  const started = performance.now();
  await page.goto(`${serviceUrl}/console/${testCase.hash}`);
  // A function, not a string: the console's CSP forbids eval, which a string predicate needs.
  await page.waitForFunction(() => globalThis.__consoleBench.done !== null, undefined, {
    timeout: PAGE_TIMEOUT_MS,
    polling: 'raf',
  });
  const wallMs = performance.now() - started;
  const state = await page.evaluate(() => globalThis.__consoleBench);
  const firstRow = await page.locator('main table tbody tr').first().locator('th a').textContent();
  const requests = tab.requests.slice(requestsBefore);
  return {
    wallMs,
    doneMs: state.done,
    rowsMs: state.rows,
    failed: state.failed,
    firstRow,
    apiRequests: requests.filter((u) => u.startsWith(`${serviceUrl}${API}/`)).length,
  };
}

/** The list call alone, one request at a time on one keep-alive connection, after 3 unmeasured ones. */
async function measureList(serviceUrl, authorization, listPath, requests) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const once = () =>
    new Promise((resolve, reject) => {
      const req = http.get(`${serviceUrl}${listPath}`, { agent, headers: { authorization } }, (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode, body: Buffer.concat(chunks).toString('utf8') }),
        );
        res.on('error', reject);
      });
      req.on('error', reject);
    });
  let answer;
  for (let i = 0; i < 3; i++) answer = await once();
  if (answer.status !== 200) throw new Error(`${listPath}: ${answer.status} ${answer.body.slice(0, 300)}`);
  const latencies = [];
  for (let i = 0; i < requests; i++) {
    const started = performance.now();
    const r = await once();
    latencies.push(performance.now() - started);
    if (r.status !== 200) throw new Error(`${listPath}: ${r.status} ${r.body.slice(0, 300)}`);
  }
  agent.destroy();
  return { latencies, answer: JSON.parse(answer.body) };
}

const p95 = (xs) => percentile(Float64Array.from(xs).sort(), 95);

function summary(xs) {
  const s = latencySummary(xs);
  return { n: s.count, p50Ms: s.p50, p95Ms: p95(xs), minMs: Math.min(...xs), maxMs: s.max, meanMs: s.mean };
}

export async function benchConsole(ctx, kind) {
  const { options, log, catalogues, freshDatabase, startService, apiKey, AUTH } = ctx;
  const total = options.consoleRelayers;
  const reps = options.consoleReps;
  const listRequests = options.quick ? 50 : 200;
  const result = {
    relayers: total,
    perPage: PER_PAGE,
    repetitions: reps,
    listRequests,
    viewport: VIEWPORT,
    chromium: null,
    loadavgBefore: os.loadavg(),
  };
  const db = await freshDatabase('console');
  // No scheduled checks: they would call the catalogue's RPC URLs (rpc.example.com), and the rows'
  // checks are written below instead.
  const service = await startService({
    databaseUrl: db.url,
    catalogue: catalogues.big,
    label: `${kind}-console`,
    env: { RELAYER_HEALTH_CHECKS: 'false' },
  });
  const call = requester(service.url, AUTH.authorization);

  log(`${kind}: console-relayers, creating ${total.toLocaleString('en-US')} relayers through the API`);
  let started = performance.now();
  const relayers = await createRelayers(call, total, options.signers);
  result.seedMs = performance.now() - started;
  started = performance.now();
  const alert = await call('PUT', `${API}/networks/evm:sepolia/balance-alert`, {
    threshold: SEPOLIA_THRESHOLD.toString(),
  });
  if (alert.status !== 200)
    throw new Error(
      `console-relayers: PUT the sepolia alert answered ${alert.status}: ${JSON.stringify(alert.body)}`,
    );
  const written = await writeChecks(kind, db, relayers);
  result.checksMs = performance.now() - started;
  result.seeded = {
    ...written,
    paused: relayers.filter((_, k) => isPaused(k) && !isDisabled(k)).length,
    byType: Object.fromEntries(
      ['evm', 'solana', 'stellar'].map((t) => [t, relayers.filter((r) => r.networkType === t).length]),
    ),
  };
  log(
    `  created in ${(result.seedMs / 1000).toFixed(1)} s (${Math.round(total / (result.seedMs / 1000))}/s on ${SEED_CONNECTIONS} connections); ` +
      `checks and verdicts written in ${(result.checksMs / 1000).toFixed(1)} s: ${JSON.stringify(result.seeded)}`,
  );

  // The cases, each with the list's answer (the rows the page must show), as the console of the
  // service measured asks for it (with include=status where the list takes it: a 400 before).
  const withStatus = (await call('GET', `${API}/relayers?per_page=1&include=status`)).status === 200;
  result.listIncludesStatus = withStatus;
  const cases = [];
  for (const c of consoleCases(total, withStatus)) {
    const answer = await call('GET', c.listPath);
    if (answer.status !== 200) throw new Error(`console-relayers: ${c.listPath} answered ${answer.status}`);
    cases.push({
      ...c,
      expectedRows: answer.body.data.length,
      firstName: answer.body.data[0]?.name ?? null,
      totalItems: answer.body.pagination.total_items,
      loads: [],
    });
  }
  for (const c of cases) {
    if (c.expectedRows !== PER_PAGE)
      throw new Error(
        `console-relayers: ${c.id} lists ${c.expectedRows} relayers, not a full page of ${PER_PAGE}`,
      );
  }

  const browser = await launch();
  result.chromium = browser.version();
  try {
    const tab = await signedInTab(browser, service.url, apiKey);
    // One unmeasured load of each case (the browser's cache of the page's files, the service's
    // statements), then the cases in turn, `reps` times: a drift of the machine spreads over all.
    log(`  Chromium ${result.chromium}: ${reps} loads of each case after one unmeasured`);
    for (const c of cases) c.warmup = await loadOnce(tab, service.url, c, c.expectedRows);
    for (let i = 0; i < reps; i++) {
      for (const c of cases) {
        const load = await loadOnce(tab, service.url, c, c.expectedRows);
        load.loadavg1Before = os.loadavg()[0];
        if (load.failed) throw new Error(`console-relayers: ${c.id}: a row says ${load.failed}`);
        if (load.firstRow !== c.firstName)
          throw new Error(
            `console-relayers: ${c.id}: the first row is '${load.firstRow}', the API lists '${c.firstName}'`,
          );
        c.loads.push(load);
      }
    }
    result.requestsElsewhere = tab.requests.filter(
      (u) => !u.startsWith(`${service.url}/`) && !u.startsWith('data:') && u !== 'about:blank',
    );
    result.pageErrors = tab.errors;
    await tab.context.close();
  } finally {
    await browser.close();
  }

  for (const c of cases) {
    const list = await measureList(service.url, AUTH.authorization, c.listPath, listRequests);
    c.api = summary(list.latencies);
    c.page = summary(c.loads.map((l) => l.doneMs));
    c.pageWall = summary(c.loads.map((l) => l.wallMs));
    c.firstRows = summary(c.loads.map((l) => l.rowsMs));
    c.apiRequestsPerLoad = c.loads[0]?.apiRequests ?? null;
    log(
      `  ${c.id.padEnd(16)} page p50 ${c.page.p50Ms.toFixed(0)} ms p95 ${c.page.p95Ms.toFixed(0)} ms ` +
        `(rows at p50 ${c.firstRows.p50Ms.toFixed(0)} ms; ${c.apiRequestsPerLoad} API requests a load); ` +
        `list call p50 ${c.api.p50Ms.toFixed(1)} ms p95 ${c.api.p95Ms.toFixed(1)} ms (${c.totalItems} items)`,
    );
  }
  result.cases = cases.map(({ query: _query, ...c }) => c);
  result.loadavgAfter = os.loadavg();
  printTable(kind, result, log);
  return result;
}

function printTable(kind, result, log) {
  const rows = [
    ['case', 'items', 'page p50', 'page p95', 'rows p50', 'list p50', 'list p95'],
    ...result.cases.map((c) => [
      c.id,
      String(c.totalItems),
      ms(c.page.p50Ms),
      ms(c.page.p95Ms),
      ms(c.firstRows.p50Ms),
      ms(c.api.p50Ms),
      ms(c.api.p95Ms),
    ]),
  ];
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  log(
    `${kind}: console-relayers (ms; page = navigation to every row's status shown, ${result.repetitions} loads)`,
  );
  for (const r of rows)
    log(`  ${r.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('  ')}`);
}

// ---------------------------------------------------------------------------------------------------------
// The page's section (report.mjs calls these; no dependencies beyond node:).

const ms = (x) => (Number.isFinite(x) ? (x < 10 ? x.toFixed(2) : x.toFixed(0)) : '–');
const int = (x) => (Number.isFinite(x) ? Math.round(x).toLocaleString('en-US') : '–');

const requestsPerLoad = (results) =>
  Object.values(results.databases ?? {})
    .flatMap((s) => s.consoleRelayers?.cases ?? [])
    .map((c) => c.apiRequestsPerLoad)
    .find((n) => Number.isFinite(n)) ?? '–';

export const hasConsole = (results) =>
  Object.values(results.databases ?? {}).some((s) => s.consoleRelayers && !s.consoleRelayers.failed);

export function consoleMarkdown(results, relPath) {
  const lines = [
    '## Console: the relayers table',
    '',
    `Run of ${results.startedAt.replace('T', ' ').replace(/\.\d+Z$/, ' UTC')}, \`${results.command}\`, raw data in ` +
      `[\`${relPath}\`](../${relPath}); service built from commit \`${(results.git.commit ?? 'unknown').slice(0, 12)}\`` +
      (results.git.dirtyFiles.length ? ` plus ${results.git.dirtyFiles.length} uncommitted change(s)` : '') +
      '.',
    '',
    'bench/lib/console.mjs creates the relayers through the API (the three network types in turn, one in 5 ' +
      'paused), writes the last check of 9 in 10 and a system verdict on one in 50 with SQL, then loads the ' +
      "console's relayers page in Debian's Chromium at 1280 px, signed in with the admin key: a new document " +
      'each time, timed from the navigation to the moment every row of the table shows its status (25 rows; ' +
      `${requestsPerLoad(results)} API requests a load, counted in the page: the sign-in read, the list, and then either ` +
      "each row's status and balance alert (2 reads a row, before the list took `include=status`) or none, and the " +
      'counts of the attention strip (the summary and the failing-targets count apart, and the networks of the ' +
      'filter read again in each new document, before the summary took `include=notifications`). ' +
      '"Rows shown" is when the list\'s rows appear, before their statuses (the same moment with `include=status`). ' +
      '"List call" is the API\'s own time for the list request behind the page, one request at a time. ' +
      'Chromium, the service and the database share the machine.',
    '',
  ];
  for (const [key, section] of Object.entries(results.databases)) {
    const s = section.consoleRelayers;
    if (!s || s.failed) continue;
    lines.push(
      `### ${key === 'mysql' ? 'MySQL' : 'SQLite'}`,
      '',
      `${int(s.relayers)} relayers (${int(s.seeded.paused)} paused, ${int(s.seeded.disabled)} disabled by the system), ` +
        `created in ${(s.seedMs / 1000).toFixed(1)} s; Chromium ${s.chromium}; ${s.repetitions} loads of each case; ` +
        `load average ${s.loadavgBefore[0].toFixed(1)} before, ${s.loadavgAfter[0].toFixed(1)} after ` +
        `(${results.machine.cores} cores); ${s.requestsElsewhere.length} request(s) to another host, ` +
        `${s.pageErrors.length} error(s) in the page.`,
      '',
      '| Case | Relayers listed | Page p50 ms | Page p95 ms | Rows shown, p50 ms | List call p50 ms | List call p95 ms |',
      '| --- | ---: | ---: | ---: | ---: | ---: | ---: |',
      ...s.cases.map(
        (c) =>
          `| \`${c.hash}\` | ${int(c.totalItems)} | ${ms(c.page.p50Ms)} | **${ms(c.page.p95Ms)}** | ${ms(c.firstRows.p50Ms)} | ` +
          `${ms(c.api.p50Ms)} | ${ms(c.api.p95Ms)} |`,
      ),
      '',
    );
  }
  return lines;
}
