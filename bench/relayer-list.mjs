// `node bench/relayer-list.mjs`: what a page of GET /api/v1/relayers costs at 100,000 relayers, searched
// and sorted (docs/reference/relayers.md#37-what-a-page-costs), on SQLite and MySQL.
//
//   node bench/relayer-list.mjs                          both databases, 100,000 relayers
//   node bench/relayer-list.mjs --db sqlite --relayers 20000 --requests 20
//   node bench/relayer-list.mjs --git-ref main           the sources of another commit (its list: plain and filtered only)
//
// Options: --db sqlite,mysql; --relayers N (100000); --requests K (50 per case, after 3 unmeasured);
// --per-page P (25, the console's page); --mysql-url URL (default $MYSQL_TEST_URL or
// mysql://relayer_test:relayer_test@127.0.0.1:3306); --git-ref REF (compile that commit's sources, not
// the working tree's); --keep (keep the work folder).
//
// Per database: the service compiled from src/ into a private folder (as bench/run.mjs does), started
// on a fresh database to migrate it and stopped; then N relayers written with SQL as the service writes
// them (the three network types in turn, ids of five teams' prefixes and UUIDs, one in 5 paused, one
// in 50 disabled by the system) and their check rows: 9 in 10 checked, balances from 1 to 23 digits
// (beyond 2^64) in the base unit, 1 in 97 of those without a balance read; then ANALYZE, the service
// started again, and each case requested K times one after the other on one keep-alive connection:
// the route's own time, no queueing. Cases: the plain page and today's filtered ones (state=enabled,
// state=unchecked), the search (an address's prefix in another case, a rare and a common part of a
// name), each sort ascending and descending; each on page 1 and on the last page. A case a build does
// not know (a 400) is reported as such. The results go to bench/results/relayer-list-<time>.json and as
// a Markdown table to stdout.
import { Buffer } from 'node:buffer';
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import {
  analyzeMysql,
  mysqlDatabaseUrl,
  mysqlServer,
  sqliteVersion,
  withMysql,
  writeCatalogue,
} from './lib/data.mjs';
import { latencySummary, percentile } from './lib/load.mjs';
import { freePort, startProcess, stopProcess, waitReady } from './lib/proc.mjs';

const root = path.resolve(import.meta.dirname, '..');
const { values: args } = parseArgs({
  options: {
    db: { type: 'string', default: 'sqlite,mysql' },
    relayers: { type: 'string', default: '100000' },
    requests: { type: 'string', default: '50' },
    'per-page': { type: 'string', default: '25' },
    'mysql-url': {
      type: 'string',
      default: process.env.MYSQL_TEST_URL ?? 'mysql://relayer_test:relayer_test@127.0.0.1:3306',
    },
    'git-ref': { type: 'string' },
    keep: { type: 'boolean', default: false },
  },
});
const TOTAL = Number(args.relayers);
const REQUESTS = Number(args.requests);
const PER_PAGE = Number(args['per-page']);
const LAST_PAGE = Math.ceil(TOTAL / PER_PAGE);
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'relayer-list-bench-'));
// The private build resolves its packages from the project's node_modules.
fs.symlinkSync(path.join(root, 'node_modules'), path.join(work, 'node_modules'));
const apiKey = `bench-${randomBytes(24).toString('hex')}`;
const log = (line) => process.stderr.write(`${line}\n`);
const git = (...a) => execFileSync('git', a, { cwd: root, encoding: 'utf8' }).trim();

// ---------------------------------------------------------------------------------------------------------
// The build: a private copy, as bench/run.mjs makes it.

function build() {
  let sourceRoot = root;
  if (args['git-ref']) {
    sourceRoot = path.join(work, 'source');
    fs.mkdirSync(sourceRoot);
    const archive = spawnSync('git', ['archive', '--format=tar', args['git-ref']], {
      cwd: root,
      maxBuffer: 1 << 30,
    });
    if (archive.status !== 0) throw new Error(`git archive ${args['git-ref']} failed: ${archive.stderr}`);
    spawnSync('tar', ['-x', '-C', sourceRoot], { input: archive.stdout });
    fs.symlinkSync(path.join(root, 'node_modules'), path.join(sourceRoot, 'node_modules'));
  }
  const outDir = path.join(work, 'dist');
  const r = spawnSync(
    path.join(root, 'node_modules', '.bin', 'tsc'),
    ['-p', path.join(sourceRoot, 'tsconfig.build.json'), '--outDir', outDir],
    { cwd: sourceRoot, stdio: 'inherit' },
  );
  if (r.status !== 0) throw new Error('the service does not compile (tsc -p tsconfig.build.json)');
  fs.copyFileSync(path.join(sourceRoot, 'package.json'), path.join(work, 'package.json'));
  return path.join(outDir, 'src', 'main.js');
}

async function startService(entry, databaseUrl, catalogue, label) {
  const port = await freePort();
  const handle = startProcess({
    name: `service (${label})`,
    command: process.execPath,
    args: ['--max-semi-space-size=8', '--max-old-space-size=256', entry],
    cwd: work,
    outputFile: path.join(work, `service-${label}.out`),
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME ?? os.homedir(),
      PORT: String(port),
      HOST: '127.0.0.1',
      API_KEY: apiKey,
      NODE_ENV: 'production',
      DATABASE_URL: databaseUrl,
      CONFIG_FILE: catalogue,
      DATA_DIR: path.join(work, 'data'),
      LOG_LEVEL: 'warn',
      LOG_FILE: path.join(work, `service-${label}.log`),
      // The rows' checks are written below; a check would call the catalogue's example RPC URLs.
      RELAYER_HEALTH_CHECKS: 'false',
      RATE_LIMIT_REQUESTS_PER_SECOND: '1000000',
      RATE_LIMIT_BURST_SIZE: '10000',
    },
  });
  const url = `http://127.0.0.1:${port}`;
  await waitReady(handle, `${url}/api/v1/ready`, { timeoutMs: 120_000 });
  return { handle, url };
}

// ---------------------------------------------------------------------------------------------------------
// The rows, as the service writes them.

const TEAMS = ['payments', 'treasury', 'ops', 'bridge', 'mm'];
const NETWORKS = [
  ['evm', 'sepolia'],
  ['solana', 'devnet'],
  ['stellar', 'testnet'],
];
const B58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const B32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
const EPOCH = Date.UTC(2025, 0, 1);
const sha = (text) => createHash('sha256').update(text).digest();
const stored = (ms) => new Date(ms).toISOString().replace('T', ' ').replace('Z', '');
const encode = (alphabet, bytes, n) =>
  Array.from({ length: n }, (_, i) => alphabet[bytes[i % bytes.length] % alphabet.length]).join('');

function relayerRow(i) {
  const h = sha(`relayer-${i}`);
  const hex = h.toString('hex');
  const [type, network] = NETWORKS[i % 3];
  const team = TEAMS[i % 5];
  const address =
    type === 'evm'
      ? `0x${[...hex.slice(0, 40)].map((c, j) => (h[j] & 1 ? c.toUpperCase() : c)).join('')}`
      : type === 'solana'
        ? encode(B58, h, 44)
        : `G${encode(B32, h, 55)}`;
  // A team's relayers have its prefix; one in 4 a UUID.
  const id =
    i % 4 === 0
      ? `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`
      : `${team}-${String(i).padStart(6, '0')}`;
  const at = stored(EPOCH + i * 1000);
  return {
    id,
    name: `${team}-${network}-${String(i).padStart(6, '0')}`,
    network,
    network_type: type,
    address,
    signer_id: `bench-signer-${i}`,
    notification_id: null,
    paused: i % 5 === 1 ? 1 : 0,
    system_disabled: i % 50 === 7 ? 1 : 0,
    disabled_reason: i % 50 === 7 ? '{"type":"RpcValidationFailed","details":"bench"}' : null,
    custom_rpc_urls: JSON.stringify([{ url: `https://rpc.example.com/v2/key-${i}`, weight: 100 }]),
    policies: JSON.stringify({ min_balance: 100000000000000000 }),
    version: 1,
    created_at: at,
    updated_at: at,
  };
}

/** 9 in 10 checked; of those, 1 in 97 without a balance read; balances of 1 to 23 digits. */
function checkRow(i, relayerId, balanceOrder, hasOrderColumn) {
  const checked = i % 10 !== 3;
  const digits = BigInt(1 + (i % 23));
  const balance =
    !checked || i % 97 === 0
      ? null
      : (BigInt(`0x${sha(`balance-${i}`).toString('hex')}`) % 10n ** digits).toString();
  return {
    relayer_id: relayerId,
    next_check_at: stored(Date.now() + 86_400_000),
    lease_owner: null,
    lease_until: null,
    checked_at: checked ? stored(EPOCH + ((i * 7919) % 86_400_000)) : null,
    balance,
    ...(hasOrderColumn ? { balance_order: balanceOrder(balance) } : {}),
    nonce: null,
    sequence_number: null,
    failures: 0,
    balance_low: null,
  };
}

function* batches(balanceOrder, hasOrderColumn, size = 1000) {
  for (let first = 1; first <= TOTAL; first += size) {
    const relayers = [];
    const checks = [];
    for (let i = first; i < Math.min(TOTAL + 1, first + size); i++) {
      const r = relayerRow(i);
      relayers.push(r);
      checks.push(checkRow(i, r.id, balanceOrder, hasOrderColumn));
    }
    yield { relayers, checks };
  }
}

async function seed(kind, db, balanceOrder) {
  const started = performance.now();
  if (kind === 'sqlite') {
    const handle = new Database(db.file, { timeout: 10_000 });
    try {
      const hasOrderColumn =
        handle
          .prepare("SELECT 1 FROM pragma_table_info('relayer_checks') WHERE name = 'balance_order'")
          .get() !== undefined;
      const insert = (table, row) =>
        handle.prepare(
          `INSERT INTO ${table} (${Object.keys(row).join(', ')}) VALUES (${Object.keys(row)
            .map((c) => `@${c}`)
            .join(', ')})`,
        );
      handle.transaction(() => {
        let relayerInsert;
        let checkInsert;
        for (const { relayers, checks } of batches(balanceOrder, hasOrderColumn)) {
          relayerInsert ??= insert('relayers', relayers[0]);
          checkInsert ??= insert('relayer_checks', checks[0]);
          for (const r of relayers) relayerInsert.run(r);
          for (const c of checks) checkInsert.run(c);
        }
      })();
      handle.exec('ANALYZE');
      handle.pragma('wal_checkpoint(TRUNCATE)');
    } finally {
      handle.close();
    }
  } else {
    await withMysql(db.url, async (c) => {
      const [columns] = await c.query("SHOW COLUMNS FROM relayer_checks LIKE 'balance_order'");
      const hasOrderColumn = columns.length > 0;
      await c.beginTransaction();
      for (const { relayers, checks } of batches(balanceOrder, hasOrderColumn)) {
        for (const [table, rows] of [
          ['relayers', relayers],
          ['relayer_checks', checks],
        ]) {
          const columnNames = Object.keys(rows[0]);
          await c.query(`INSERT INTO ${table} (${columnNames.join(', ')}) VALUES ?`, [
            rows.map((row) => columnNames.map((name) => row[name])),
          ]);
        }
      }
      await c.commit();
    });
    await analyzeMysql(db.url);
    await withMysql(db.url, (c) => c.query('ANALYZE TABLE relayer_checks'));
  }
  return performance.now() - started;
}

// ---------------------------------------------------------------------------------------------------------
// Measuring

function cases() {
  // One relayer (an EVM one, 3 divides its number): its address's prefix in another case, a part of its name.
  const sample = relayerRow(Math.min(4242, TOTAL) - (Math.min(4242, TOTAL) % 3));
  const swapped = [...sample.address.slice(0, 10)]
    .map((c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase()))
    .join('');
  const list = [
    ['plain', ''],
    ['state=enabled (a filter today)', 'state=enabled'],
    ['state=unchecked (a filter today)', 'state=unchecked'],
    ['q: an address prefix, other case', `q=${encodeURIComponent(swapped)}`],
    ['q: a rare part of a name (1 relayer)', `q=${encodeURIComponent(sample.name.slice(-10))}`],
    ['q: a common part of a name (1 in 3)', 'q=sepolia'],
  ];
  for (const key of ['id', 'name', 'created_at', 'balance', 'checked_at']) {
    list.push([`sort=${key}`, `sort=${key}`], [`sort=-${key}`, `sort=-${key}`]);
  }
  return list.flatMap(([label, query]) => [
    { label, page: 1, path: `/api/v1/relayers?${query}${query ? '&' : ''}per_page=${PER_PAGE}&page=1` },
    {
      label,
      page: 'last',
      path: `/api/v1/relayers?${query}${query ? '&' : ''}per_page=${PER_PAGE}&page=${LAST_PAGE}`,
    },
  ]);
}

async function measure(url, testCase) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const once = () =>
    new Promise((resolve, reject) => {
      const req = http.get(
        `${url}${testCase.path}`,
        { agent, headers: { authorization: `Bearer ${apiKey}` } },
        (res) => {
          const chunks = [];
          res.on('data', (c) => chunks.push(c));
          res.on('end', () =>
            resolve({ status: res.statusCode, body: Buffer.concat(chunks).toString('utf8') }),
          );
          res.on('error', reject);
        },
      );
      req.on('error', reject);
    });
  try {
    let answer;
    for (let i = 0; i < 3; i++) answer = await once();
    if (answer.status === 400) return { status: 400, message: JSON.parse(answer.body).message };
    if (answer.status !== 200)
      throw new Error(`${testCase.path}: ${answer.status} ${answer.body.slice(0, 300)}`);
    const body = JSON.parse(answer.body);
    const latencies = [];
    for (let i = 0; i < REQUESTS; i++) {
      const started = performance.now();
      const r = await once();
      latencies.push(performance.now() - started);
      if (r.status !== 200) throw new Error(`${testCase.path}: ${r.status}`);
    }
    const s = latencySummary(latencies);
    return {
      status: 200,
      items: body.data.length,
      total: body.pagination.total_items,
      p50Ms: s.p50,
      p95Ms: percentile(Float64Array.from(latencies).sort(), 95),
      maxMs: s.max,
    };
  } finally {
    agent.destroy();
  }
}

async function benchDatabase(kind, entry, catalogue, balanceOrder) {
  let db;
  let mysql = null;
  if (kind === 'sqlite') {
    const file = path.join(work, 'relayers.sqlite');
    db = { url: `sqlite:${file}`, file, version: sqliteVersion() };
  } else {
    mysql = await mysqlServer(args['mysql-url']);
    if (!mysql.connection) throw new Error(`MySQL: ${mysql.reason}`);
    const name = `relayer_test_listbench_${randomBytes(4).toString('hex')}`;
    await mysql.connection.query(
      `CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`,
    );
    db = { url: mysqlDatabaseUrl(args['mysql-url'], name), name, version: mysql.version };
  }
  try {
    log(`${kind}: migrating`);
    await stopProcess((await startService(entry, db.url, catalogue, `${kind}-migrate`)).handle);
    log(`${kind}: writing ${TOTAL.toLocaleString('en-US')} relayers and their checks`);
    const seedMs = await seed(kind, db, balanceOrder);
    const service = await startService(entry, db.url, catalogue, kind);
    const results = [];
    try {
      for (const testCase of cases()) {
        const loadavg1 = os.loadavg()[0];
        const result = { ...testCase, loadavg1, ...(await measure(service.url, testCase)) };
        results.push(result);
        log(
          `  ${`${testCase.label}, page ${testCase.page}`.padEnd(52)} ` +
            (result.status === 200
              ? `p50 ${result.p50Ms.toFixed(2)} ms  p95 ${result.p95Ms.toFixed(2)} ms  (${result.total} found)`
              : `400 ${result.message}`),
        );
      }
    } finally {
      await stopProcess(service.handle);
    }
    return { database: kind, version: db.version, seedMs, results };
  } finally {
    if (mysql?.connection) {
      await mysql.connection.query(`DROP DATABASE IF EXISTS \`${db.name}\``);
      await mysql.connection.end();
    }
  }
}

function markdown(run) {
  const ms = (x) => (x < 10 ? x.toFixed(2) : x.toFixed(1));
  const lines = [];
  for (const section of run.databases) {
    lines.push(
      `${section.database === 'mysql' ? 'MySQL' : 'SQLite'} ${section.version}, ${TOTAL.toLocaleString('en-US')} relayers, ` +
        `${PER_PAGE} a page (the last: page ${LAST_PAGE}), p50 / p95 of ${REQUESTS} requests in ms:`,
      '',
      '| Case | Page 1 | Last page |',
      '| --- | ---: | ---: |',
    );
    const byLabel = new Map();
    for (const r of section.results) byLabel.set(r.label, { ...byLabel.get(r.label), [r.page]: r });
    for (const [label, pages] of byLabel) {
      const cell = (r) => (r.status === 200 ? `${ms(r.p50Ms)} / ${ms(r.p95Ms)}` : '400');
      lines.push(`| ${label} | ${cell(pages[1])} | ${cell(pages.last)} |`);
    }
    lines.push('');
  }
  return lines.join('\n');
}

async function main() {
  const commit = git('rev-parse', args['git-ref'] ?? 'HEAD');
  const dirty = args['git-ref'] ? [] : git('status', '--porcelain', '--', 'src').split('\n').filter(Boolean);
  log(
    `building ${commit.slice(0, 12)}${dirty.length ? ` plus ${dirty.length} uncommitted change(s) in src/` : ''}`,
  );
  const entry = build();
  // The order the checks give a balance, from the build itself (src/relayer-health/balance-order.ts).
  const orderFile = path.join(path.dirname(entry), 'relayer-health', 'balance-order.js');
  const { balanceOrder } = fs.existsSync(orderFile) ? await import(orderFile) : { balanceOrder: () => null };
  const catalogue = path.join(work, 'catalogue.json');
  writeCatalogue(catalogue, 1);
  const run = {
    startedAt: new Date().toISOString(),
    commit,
    dirtyFiles: dirty,
    machine: { cores: os.cpus().length, cpu: os.cpus()[0]?.model, node: process.version },
    relayers: TOTAL,
    perPage: PER_PAGE,
    requests: REQUESTS,
    databases: [],
  };
  try {
    for (const kind of args.db.split(',')) {
      run.databases.push(await benchDatabase(kind, entry, catalogue, balanceOrder));
    }
  } finally {
    if (!args.keep) fs.rmSync(work, { recursive: true, force: true });
  }
  const file = path.join(
    root,
    'bench',
    'results',
    `relayer-list-${run.startedAt.replace(/[:.]/g, '-')}.json`,
  );
  fs.writeFileSync(file, `${JSON.stringify(run, null, 2)}\n`);
  log(`results: ${path.relative(root, file)}`);
  process.stdout.write(`${markdown(run)}\n`);
}

main().catch((error) => {
  log(error.stack ?? String(error));
  process.exit(1);
});
