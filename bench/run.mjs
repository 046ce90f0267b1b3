// `npm run bench`: load-tests the built service against five baselines (B0-B4) on the same machine
// and writes bench/results/<timestamp>.json, docs/benchmark-results.md and docs/benchmarks.svg.
//
//   npm run bench                              full run, SQLite then MySQL (about 35 minutes)
//   npm run bench -- --quick                   smoke run: 2 s per measurement (about 5 minutes)
//   npm run bench -- --db sqlite --duration 5  options below
//   npm run bench -- --scenarios webhooks --quick   only the webhook scenarios (a few minutes)
//   npm run bench -- --scenarios health-round --db sqlite   one round of health checks (see below)
//   npm run bench -- --profile --db sqlite     CPU profile of GET by id, POST and PATCH relayer (bench/lib/profile.mjs)
//   npm run bench -- --soak 600                 memory soak: 600 s of mixed load per database (below)
//
// Options: --duration S (per measured run, default 10), --warmup S (default 2), --connections N
// (50), --db sqlite,mysql, --scenarios id,id (see SCENARIOS), --signers N (20000), --cold-starts N
// (3), --mysql-url URL (default $MYSQL_TEST_URL or mysql://relayer_test:relayer_test@127.0.0.1:3306),
// --dist DIR (use an existing build instead of compiling src/ into a private folder), --git-ref REF
// (compile the sources of a commit, e.g. HEAD, instead of the working tree), --node-flags "..."
// (default: the flags of package.json's start script, e.g. --max-semi-space-size=8), --no-docs
// (results JSON only), --no-b3 (leave out B3, the framework floor: bench/lib/b3.mjs), --keep (keep
// the work folder: logs, databases, catalogue), --quiet-wait S
// (30) and --quiet-budget S (300): before each measured run, wait up to S seconds (and that much
// in all) for processes outside the benchmark to stop using more than a quarter of a core;
// --webhook-events N (5000, quick 2000): the changes of each webhook-deliveries phase;
// --webhook-targets N (50; 0 skips the phase): the targets of its backlog phase across targets;
// --health-relayers N (10000, quick 1000): the relayers of the health-round scenario;
// --health-rpc-delay-ms D (20; 0 skips it): its extra round behind a proxy adding D ms per RPC call;
// --no-b4 (leave out B4, the floor of a health round: bench/lib/b4.mjs);
// --fleet-relayers N (100000), --fleet-interval S (60), --fleet-rounds K (3): health-fleet, below;
// --hostile-seconds S (25): the soak of hostile-bodies, below; --stats-deliveries N (1000000): webhook-stats, below;
// --console-relayers N (10000) and --console-reps K (10, quick 3): console-relayers, below.
//
// Soak mode (bench/lib/soak.mjs, `--soak S`): per database, a service of its own on a fresh database
// under S seconds of mixed load (GET by id, PATCH, list, POST relayer) at --soak-rate req/s (400; 0:
// as fast as it answers) on --soak-connections (20), RSS and heap used sampled every --soak-interval
// seconds (10), and the least-squares slope of each after the warm-up (2 minutes, or a third of a
// shorter soak). Alone it runs only the soak; with --scenarios, after them.
//
// Health-check scenario (bench/lib/health.mjs, `--scenarios health-round`): one round of checks over
// N relayers against one local anvil, time and CPU, and GET /relayers/{id} during it next to the
// same without checks. Like the webhook scenarios: its own services and database, after the rest.
// Its baseline is B4, the floor of a round (bench/baselines/b4-rpc.mjs, run by bench/lib/b4.mjs):
// a bare Node script, no database and no framework, that makes the same JSON-RPC calls for the same
// addresses on the same anvil in batches (300 calls per POST, 4 POSTs in flight), timed with its
// CPU right after the service's round alone; the scenario reports service ÷ B4 for time and CPU.
//
// Health checks at fleet scale (bench/lib/health-fleet.mjs, `--scenarios health-fleet` only, never in
// the default set; MySQL only): N relayers checked by three instances on one database with a check
// interval of S seconds for K rounds, through a counting proxy in front of anvil: checks per
// relayer, every relayer checked once per round, each round's span and lag, CPU and peak RSS.
//
// Hostile bodies (bench/lib/hostile-bodies.mjs, `--scenarios hostile-bodies` only, never in the default
// set): 627 KB bodies with Idempotency-Keys and 95,000-key bodies on 200 connections for S seconds
// against one service on a fresh database: answers by status, peak RSS, slowest /api/v1/health.
//
// Delivery stats (bench/lib/webhook-stats.mjs, `--scenarios webhook-stats` only, never in the default set;
// MySQL only): one target with N deliveries in its log over 7 days, seeded with INSERT ... SELECT, and
// the p50/p95/max of GET /notifications/{id}/stats per window, one request at a time.
//
// Pages by cursor (bench/lib/cursor-pages.mjs, `--scenarios cursor-pages` only, never in the default set):
// --cursor-records N (100100) audit records, then GET /audit?limit=100 of the first page and of the
// 1,000th by cursor, and the 1,000th by number, one request at a time: p50/p95/max.
//
// The console's relayers table (bench/lib/console.mjs, `--scenarios console-relayers` only, never in the
// default set): N relayers created through the API, then Debian's Chromium (playwright-core) loads the
// console's relayers page K times per case (page 1, the last page, state=paused, network_type=solana
// page 50): navigation to every row showing its status, p50/p95, and the list call's own time.
//
// Webhook scenarios (bench/lib/webhooks.mjs; `--scenarios webhooks` selects the three): deliveries
// per second from one instance to a local receiver, and what the outbox adds to POST and PATCH
// relayer (notification_id set vs not set). They run on a service and database of their own, after
// the other scenarios; a run of only these skips the cold starts and the baselines, and its docs keep
// the rest of docs/benchmark-results.md from the run the page was made from.
//
// Method: for each scenario, one warm-up per target, then four measured runs in the order service,
// baseline, baseline, service (alternated, and symmetric so that a linear drift of the machine
// cancels out; with B3, six runs: service, baseline, B3, B3, baseline, service); req/s is the mean
// of each target's two runs, latency percentiles are over all the responses of both. Everything runs one at a time; the load generator shares the machine.
import { execFileSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import readline from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import {
  analyzeMysql,
  copyMysqlSchema,
  copySqliteSchema,
  mysqlCount,
  mysqlDatabaseUrl,
  mysqlServer,
  pairAt,
  seedId,
  seedMysql,
  seedSqlite,
  sqliteCount,
  trimMysql,
  trimSqlite,
  sqliteVersion,
  writeCatalogue,
} from './lib/data.mjs';
import { latencySummary, runLoad, stopAllLoad } from './lib/load.mjs';
import {
  cpuSnapshot,
  cpuUsage,
  findDatabaseServerPid,
  freePort,
  httpRequest,
  memoryOf,
  probe,
  startProcess,
  stopProcess,
  waitReady,
} from './lib/proc.mjs';
import { benchHealth, HEALTH_SCENARIOS } from './lib/health.mjs';
import { benchHealthFleet, FLEET_SCENARIOS } from './lib/health-fleet.mjs';
import { benchWebhooks, WEBHOOK_SCENARIOS } from './lib/webhooks.mjs';
import { benchHostileBodies, HOSTILE_SCENARIOS } from './lib/hostile-bodies.mjs';
import { benchWebhookStats, STATS_SCENARIOS } from './lib/webhook-stats.mjs';
import { benchCursorPages, CURSOR_SCENARIOS } from './lib/cursor-pages.mjs';
import { benchConsole, bundleConsole, CONSOLE_SCENARIOS } from './lib/console.mjs';
import { benchSoak } from './lib/soak.mjs';
import { b3Env, startB3, B3_TITLE } from './lib/b3.mjs';
import { benchCompare, benchProfile, reportCompare, reportProfiles } from './lib/profile.mjs';
import { saveResults, writeDocs } from './report.mjs';

const root = path.resolve(import.meta.dirname, '..');
const benchDir = import.meta.dirname;
const API = '/api/v1';

// ---------------------------------------------------------------------------------------------------------
// Options

const { values: argv } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    duration: { type: 'string' },
    warmup: { type: 'string' },
    connections: { type: 'string', default: '50' },
    db: { type: 'string', default: 'sqlite,mysql' },
    scenarios: { type: 'string' },
    signers: { type: 'string', default: '20000' },
    'webhook-events': { type: 'string' },
    'webhook-targets': { type: 'string' },
    'health-relayers': { type: 'string' },
    'health-rpc-delay-ms': { type: 'string', default: '20' },
    'fleet-relayers': { type: 'string', default: '100000' },
    'fleet-interval': { type: 'string', default: '60' },
    'fleet-rounds': { type: 'string', default: '3' },
    'hostile-seconds': { type: 'string', default: '25' },
    'stats-deliveries': { type: 'string', default: '1000000' },
    'cursor-records': { type: 'string', default: '100100' },
    'console-relayers': { type: 'string', default: '10000' },
    'console-reps': { type: 'string' },
    'cold-starts': { type: 'string' },
    'mysql-url': { type: 'string' },
    'quiet-wait': { type: 'string', default: '30' },
    'quiet-budget': { type: 'string', default: '300' },
    dist: { type: 'string' },
    'git-ref': { type: 'string' },
    'node-flags': { type: 'string' },
    'no-docs': { type: 'boolean', default: false },
    keep: { type: 'boolean', default: false },
    // Soak mode (bench/lib/soak.mjs): S seconds of mixed load per database, RSS and heap sampled.
    soak: { type: 'string' },
    'soak-rate': { type: 'string', default: '400' },
    'soak-interval': { type: 'string', default: '10' },
    'soak-connections': { type: 'string', default: '20' },
    'no-b3': { type: 'boolean', default: false },
    'no-b4': { type: 'boolean', default: false },
    // Profiling mode (bench/lib/profile.mjs): --cpu-prof of GET by id, POST and PATCH relayer, by category.
    profile: { type: 'boolean', default: false },
    'profile-loads': { type: 'string' },
    // With --profile-compare: the after side is asked with a key limited to these relayers (e.g. 'seed-*').
    'compare-after-scope': { type: 'string' },
    'profile-interval': { type: 'string', default: '500' },
    'profile-compare': { type: 'string' },
  },
  strict: true,
});

/**
 * The Node flags of `npm start` (package.json: "node <flags> dist/src/main.js"), so that the
 * service runs as the project runs it (the Dockerfile is expected to agree).
 */
function startScriptNodeFlags() {
  const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
  const m = /(?:^|\s)node\s+((?:--?\S+\s+)*)dist\/src\/main\.js/.exec(pkg.scripts?.start ?? '');
  return m ? m[1].split(/\s+/).filter((f) => f.startsWith('-')) : [];
}

const options = {
  quick: argv.quick,
  durationS: Number(argv.duration ?? (argv.quick ? 2 : 10)),
  warmupS: Number(argv.warmup ?? (argv.quick ? 0.5 : 2)),
  connections: Number(argv.connections),
  databases: argv.db.split(',').map((d) => d.trim()),
  signers: Number(argv.signers),
  coldStarts: Number(argv['cold-starts'] ?? (argv.quick ? 1 : 3)),
  webhookEvents: Number(argv['webhook-events'] ?? (argv.quick ? 2000 : 5000)),
  webhookTargets: Number(argv['webhook-targets'] ?? 50),
  healthRelayers: Number(argv['health-relayers'] ?? (argv.quick ? 1000 : 10_000)),
  healthRpcDelayMs: Number(argv['health-rpc-delay-ms']),
  fleetRelayers: Number(argv['fleet-relayers']),
  fleetIntervalS: Number(argv['fleet-interval']),
  fleetRounds: Number(argv['fleet-rounds']),
  hostileSeconds: Number(argv['hostile-seconds']),
  statsDeliveries: Number(argv['stats-deliveries']),
  cursorRecords: Number(argv['cursor-records']),
  consoleRelayers: Number(argv['console-relayers']),
  consoleReps: Number(argv['console-reps'] ?? (argv.quick ? 3 : 10)),
  listSmall: 1000,
  listLarge: 100_000,
  mysqlUrl:
    argv['mysql-url'] ?? process.env.MYSQL_TEST_URL ?? 'mysql://relayer_test:relayer_test@127.0.0.1:3306',
  quietWaitS: Number(argv['quiet-wait']),
  quietBudgetS: Number(argv['quiet-budget']),
  dist: argv.dist ? path.resolve(argv.dist) : null,
  gitRef: argv['git-ref'] ?? null,
  nodeFlags:
    argv['node-flags'] === undefined
      ? startScriptNodeFlags()
      : argv['node-flags'].split(/\s+/).filter(Boolean),
  docs: !argv['no-docs'],
  keep: argv.keep,
  soakS: argv.soak === undefined ? null : Number(argv.soak),
  soakRate: Number(argv['soak-rate']),
  soakIntervalS: Number(argv['soak-interval']),
  soakConnections: Number(argv['soak-connections']),
  b3: !argv['no-b3'],
  b4: !argv['no-b4'],
  profile: argv.profile,
  profileLoads: argv['profile-loads']?.split(',').map((s) => s.trim()) ?? null,
  compareAfterScope: argv['compare-after-scope'] ?? null,
  profileIntervalUs: Number(argv['profile-interval']),
  // A built service (its dist folder) to compare with, without the profiler: before vs after.
  profileCompare: argv['profile-compare'] ? path.resolve(argv['profile-compare']) : null,
};
for (const db of options.databases) {
  if (db !== 'sqlite' && db !== 'mysql') throw new Error(`--db: unknown database '${db}'`);
}
for (const [flag, value] of [
  ['--fleet-relayers', options.fleetRelayers],
  ['--fleet-interval', options.fleetIntervalS],
  ['--fleet-rounds', options.fleetRounds],
  ['--hostile-seconds', options.hostileSeconds],
  ['--stats-deliveries', options.statsDeliveries],
  ['--console-relayers', options.consoleRelayers],
  ['--console-reps', options.consoleReps],
]) {
  if (!Number.isInteger(value) || value < 1) throw new Error(`${flag}: a whole number of at least 1`);
}

const major = Number(process.versions.node.split('.')[0]);
if (major < 24) {
  console.error(`bench needs Node 24 (this is ${process.version}): run it with npm run bench`);
  process.exit(1);
}

// ---------------------------------------------------------------------------------------------------------
// Logging and clean-up

const t0 = performance.now();
const stamp = () => `[${((performance.now() - t0) / 1000).toFixed(0).padStart(4)} s]`;
const log = (...parts) => console.log(stamp(), ...parts);

const cleanups = [];
let cleaning = null;
/** Runs the clean-ups once; every caller waits for the same run. */
function cleanup() {
  cleaning ??= (async () => {
    stopAllLoad();
    // Never hang on the way out: whatever is left after 30 s is abandoned.
    setTimeout(() => process.exit(process.exitCode ?? 1), 30_000).unref();
    for (const fn of cleanups.reverse()) {
      try {
        await fn();
      } catch (error) {
        console.error('cleanup:', error.message);
      }
    }
  })();
  return cleaning;
}
// An error thrown inside the load generator's callbacks does not reach main()'s catch: clean up anyway.
process.on('uncaughtException', (error) => {
  console.error(error);
  cleanup().finally(() => process.exit(1));
});
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    console.error(`\n${signal}: stopping the processes and dropping the bench databases`);
    cleanup().finally(() => process.exit(130));
  });
}

// ---------------------------------------------------------------------------------------------------------
// Work folder, build, catalogues

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'relayer-bench-'));
cleanups.push(() => {
  if (options.keep) log(`work folder kept: ${work}`);
  else fs.rmSync(work, { recursive: true, force: true });
});
// The private build resolves its packages from the project's node_modules.
fs.symlinkSync(path.join(root, 'node_modules'), path.join(work, 'node_modules'));

function git(...args) {
  try {
    return execFileSync('git', args, { cwd: root, encoding: 'utf8' }).trim();
  } catch {
    return null;
  }
}

function build() {
  if (options.dist) {
    const entry = path.join(options.dist, 'src', 'main.js');
    if (!fs.existsSync(entry)) throw new Error(`--dist: ${entry} not found`);
    return { entry, how: `existing build ${options.dist}`, ms: 0, sourceRoot: root };
  }
  // A private copy compiled from src/ (what `nest build` does: tsc with tsconfig.build.json), so a
  // rebuild of dist/ during the run cannot pull the service out from under the benchmark. With
  // --git-ref, the sources of that commit instead of the working tree.
  const started = performance.now();
  let sourceRoot = root;
  let how = 'tsc -p tsconfig.build.json from the working tree (private copy)';
  if (options.gitRef) {
    sourceRoot = path.join(work, 'source');
    fs.mkdirSync(sourceRoot);
    const archive = spawnSync('git', ['archive', '--format=tar', options.gitRef], {
      cwd: root,
      maxBuffer: 1 << 30,
    });
    if (archive.status !== 0) throw new Error(`git archive ${options.gitRef} failed: ${archive.stderr}`);
    const untar = spawnSync('tar', ['-x', '-C', sourceRoot], { input: archive.stdout });
    if (untar.status !== 0) throw new Error(`tar failed: ${untar.stderr}`);
    fs.symlinkSync(path.join(root, 'node_modules'), path.join(sourceRoot, 'node_modules'));
    how = `tsc -p tsconfig.build.json from git ${options.gitRef} (${git('rev-parse', options.gitRef)?.slice(0, 12)})`;
  }
  const outDir = path.join(work, 'dist');
  const r = spawnSync(
    path.join(root, 'node_modules', '.bin', 'tsc'),
    ['-p', path.join(sourceRoot, 'tsconfig.build.json'), '--outDir', outDir],
    { cwd: sourceRoot, stdio: 'inherit' },
  );
  if (r.status !== 0) {
    throw new Error(
      'the service does not compile (tsc -p tsconfig.build.json); --git-ref HEAD benchmarks the last commit',
    );
  }
  // The package's layout: the service finds its package.json (its version) above dist/ (src/config/package-root.ts).
  fs.copyFileSync(path.join(sourceRoot, 'package.json'), path.join(work, 'package.json'));
  return { entry: path.join(outDir, 'src', 'main.js'), how, ms: performance.now() - started, sourceRoot };
}

// ---------------------------------------------------------------------------------------------------------
// The service and the baselines

const apiKey = `bench-${randomBytes(24).toString('hex')}`;
const AUTH = { authorization: `Bearer ${apiKey}` };
const JSON_HEADERS = { ...AUTH, 'content-type': 'application/json' };
const baseEnv = { PATH: process.env.PATH, HOME: process.env.HOME ?? os.homedir(), LANG: 'C.UTF-8' };

let serviceEntry;
// The local MySQL/MariaDB server's CPU counts as the workload's, not as another process's.
const databaseServerPid = findDatabaseServerPid();
let startCounter = 0;

async function startService({ databaseUrl, catalogue, label, env = {}, entry = serviceEntry }) {
  const port = await freePort();
  const n = ++startCounter;
  const logFile = path.join(work, `service-${n}-${label}.log`);
  const handle = startProcess({
    name: `service (${label})`,
    command: process.execPath,
    args: [...options.nodeFlags, entry],
    cwd: work,
    outputFile: path.join(work, `service-${n}-${label}.out`),
    env: {
      ...baseEnv,
      PORT: String(port),
      HOST: '127.0.0.1',
      API_KEY: apiKey,
      NODE_ENV: 'production',
      // The webhook receiver and the anvil of the scenarios listen on loopback, which production
      // refuses by default (contract 18).
      RPC_BLOCK_PRIVATE_IPS: 'false',
      WEBHOOK_BLOCK_PRIVATE_IPS: 'false',
      DATABASE_URL: databaseUrl,
      CONFIG_FILE: catalogue,
      DATA_DIR: path.join(work, 'data'),
      LOG_LEVEL: 'info',
      LOG_FILE: logFile,
      // Out of the way: at most 10,000 requests per 10 ms window, never reached. A short window on
      // purpose: @nestjs/throttler's in-memory storage keeps one timestamp per request of the
      // window and filters them all on every request, so a long window (say 10 M per 10 s) would
      // be measured as the service's own cost (see docs/benchmark-results.md).
      RATE_LIMIT_REQUESTS_PER_SECOND: '1000000',
      RATE_LIMIT_BURST_SIZE: '10000',
      ...env,
    },
  });
  const url = `http://127.0.0.1:${port}`;
  cleanups.push(() => stopProcess(handle));
  const readyMs = await waitReady(handle, `${url}${API}/ready`, { timeoutMs: 120_000, intervalMs: 5 });
  return { handle, url, logFile, readyMs, rssAtReady: memoryOf(handle.pid).rss };
}

async function startBaseline(kind, databaseUrl) {
  const port = await freePort();
  const file = { B0: 'b0-http.mjs', B1: 'b1-sqlite.mjs', B2: 'b2-mysql.mjs', B3: 'b3-nest.mjs' }[kind];
  const handle = startProcess({
    name: kind,
    command: process.execPath,
    // B3 (the framework floor) runs with the service's Node flags, like the service.
    args: [...(kind === 'B3' ? options.nodeFlags : []), path.join(benchDir, 'baselines', file)],
    cwd: work,
    outputFile: path.join(work, `${kind}.out`),
    env: {
      ...baseEnv,
      PORT: String(port),
      HOST: '127.0.0.1',
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
      ...(kind === 'B3' ? b3Env({ serviceEntry, apiKey, work, kind: databaseUrl.split(':')[0] }) : {}),
    },
  });
  cleanups.push(() => stopProcess(handle));
  const url = `http://127.0.0.1:${port}`;
  await waitReady(handle, `${url}${API}/${kind === 'B3' ? 'ready' : 'health'}`, { timeoutMs: 20_000 });
  return { handle, url, kind };
}

// ---------------------------------------------------------------------------------------------------------
// Scenarios. Each builds, per target, autocannon requests whose state (counters) lives across the
// target's runs. `expect` is the one status every response must have.

const pageRotation = (state) => {
  const page = (state.n++ % 100) + 1;
  return `${API}/relayers?page=${page}&per_page=10`;
};

const SCENARIOS = [
  {
    id: 'health',
    label: 'GET /health',
    baselineKind: 'B0',
    expect: 200,
    request: () => ({ method: 'GET', path: `${API}/health` }),
  },
  {
    id: 'get-by-id',
    label: 'GET /relayers/{id}',
    expect: 200,
    rows: 'small',
    request: (state) => ({
      method: 'GET',
      path: `${API}/relayers/${seedId((state.n++ % options.listSmall) + 1)}`,
      headers: AUTH,
    }),
  },
  {
    id: 'list-1k',
    label: 'GET /relayers page of 10, 1,000 stored',
    expect: 200,
    rows: 'small',
    request: (state) => ({ method: 'GET', path: pageRotation(state), headers: AUTH }),
  },
  {
    id: 'patch-relayer',
    label: 'PATCH /relayers/{id}',
    expect: 200,
    rows: 'small',
    // Every patch changes the row (a new name and min_balance each time), so every one is a write.
    request: (state) => {
      const n = state.n++;
      return {
        method: 'PATCH',
        path: `${API}/relayers/${seedId((n % options.listSmall) + 1)}`,
        headers: JSON_HEADERS,
        body: JSON.stringify({ name: `patched ${n}`, policies: { min_balance: 1000 + n } }),
      };
    },
  },
  {
    id: 'post-notification',
    label: 'POST /notifications',
    expect: 201,
    request: () => ({
      method: 'POST',
      path: `${API}/notifications`,
      headers: JSON_HEADERS,
      body: JSON.stringify({ url: 'https://hooks.example.com/relayer-events' }),
    }),
  },
  {
    id: 'post-relayer',
    label: 'POST /relayers',
    expect: 201,
    // A free (signer, network) pair for every request; no id (the server makes a UUID). The
    // service's catalogue has signers x 3 pairs: a run that comes within 5,000 of the end stops
    // early (autocannon stops within a second; req/s is divided by the time the run took). Past
    // the end, requests name signers outside the catalogue: 400s, counted as non-2xx.
    request: (state) => {
      const unlimited = state.role !== 'service';
      if (!unlimited && state.n >= options.signers * 3 - 5000) state.exhausted = true;
      const pair = pairAt(state.n++, options.signers, { unlimited: true });
      return {
        method: 'POST',
        path: `${API}/relayers`,
        headers: JSON_HEADERS,
        body: JSON.stringify({ name: `Bench relayer ${state.n}`, ...pair, paused: false }),
      };
    },
  },
  {
    id: 'list-100k',
    label: 'GET /relayers page of 10, 100,000 stored',
    expect: 200,
    rows: 'large',
    request: (state) => ({ method: 'GET', path: pageRotation(state), headers: AUTH }),
  },
];
const ALL_SCENARIOS = [
  ...SCENARIOS,
  ...WEBHOOK_SCENARIOS,
  ...HEALTH_SCENARIOS,
  ...FLEET_SCENARIOS,
  ...HOSTILE_SCENARIOS,
  ...STATS_SCENARIOS,
  ...CURSOR_SCENARIOS,
  ...CONSOLE_SCENARIOS,
];
const selected = argv.scenarios
  ? argv.scenarios
      .split(',')
      .map((s) => s.trim())
      .flatMap((id) => (id === 'webhooks' ? WEBHOOK_SCENARIOS.map((w) => w.id) : [id]))
  : argv.soak !== undefined
    ? [] // --soak alone: only the soak
    : ALL_SCENARIOS.filter((s) => !s.optIn).map((s) => s.id); // health-fleet only when asked for
for (const id of selected) {
  if (!ALL_SCENARIOS.some((s) => s.id === id)) throw new Error(`--scenarios: unknown scenario '${id}'`);
}
const mainSelected = SCENARIOS.some((s) => selected.includes(s.id));
const webhooksSelected = WEBHOOK_SCENARIOS.filter((s) => selected.includes(s.id)).map((s) => s.id);
const healthSelected = HEALTH_SCENARIOS.some((s) => selected.includes(s.id));
const fleetSelected = FLEET_SCENARIOS.some((s) => selected.includes(s.id));
const hostileSelected = HOSTILE_SCENARIOS.some((s) => selected.includes(s.id));
const statsSelected = STATS_SCENARIOS.some((s) => selected.includes(s.id));
const cursorsSelected = CURSOR_SCENARIOS.some((s) => selected.includes(s.id));
const consoleSelected = CONSOLE_SCENARIOS.some((s) => selected.includes(s.id));

function autocannonRequests(scenario, state) {
  return [
    {
      setupRequest: (req) => {
        const r = scenario.request(state);
        if (r === null) return null;
        return { ...req, ...r, headers: { ...req.headers, ...(r.headers ?? {}) } };
      },
    },
  ];
}

function publicRun(result) {
  const { latencies: _latencies, firstLatencies: _first, ...rest } = result;
  return rest;
}

/** Warm-up, then service, baseline, baseline, service. */
async function measure(scenario, targets, dbPid) {
  const connections = options.connections;
  const states = new Map(targets.map((t) => [t.role, { n: 0, role: t.role, exhausted: false }]));
  const perTarget = new Map(
    targets.map((t) => [t.role, { runs: [], latencies: [], first: [], peakRss: 0, warmup: null }]),
  );

  // Pre-flight: one request each, so a broken scenario fails loudly instead of measuring errors.
  for (const target of targets) {
    const r = scenario.request(states.get(target.role));
    const answer = await httpRequest(target.url, r);
    if (answer.status !== scenario.expect) {
      throw new Error(
        `${scenario.id}: ${target.role} answered ${answer.status} (expected ${scenario.expect}) to ${r.method} ${r.path}: ${answer.body.slice(0, 300)}`,
      );
    }
  }
  const loadOn = async (target, durationS) => {
    const others = targets.filter((t) => t !== target);
    const result = await runLoad({
      url: target.url,
      connections,
      durationS,
      requests: autocannonRequests(scenario, states.get(target.role)),
      pid: target.pid,
      otherPids: {
        ...Object.fromEntries(others.map((t, i) => [i === 0 ? 'other' : `other${i + 1}`, t.pid])),
        ...(dbPid ? { database: dbPid } : {}),
      },
      shouldStop: () => states.get(target.role).exhausted,
    });
    const acc = perTarget.get(target.role);
    acc.peakRss = Math.max(acc.peakRss, result.peakRssBytes ?? 0);
    return result;
  };
  for (const target of targets) {
    if (states.get(target.role).exhausted) continue;
    const w = await loadOn(target, options.warmupS);
    perTarget.get(target.role).warmup = { rps: w.rps, non2xx: w.non2xx, errors: w.errors };
    await sleep(200);
  }
  // With B3 as a third target: service, baseline, B3, B3, baseline, service (still symmetric).
  const [service, baseline, floor] = targets;
  const order = floor
    ? [service, baseline, floor, floor, baseline, service]
    : [service, baseline, baseline, service];
  for (const target of order) {
    if (states.get(target.role).exhausted) {
      log(
        `  ${scenario.id.padEnd(18)} ${target.role.padEnd(8)} skipped: no free (signer, network) pair left (raise --signers)`,
      );
      continue;
    }
    const quiet = await waitQuiet([service.pid, baseline.pid, floor?.pid]);
    const loadBefore = os.loadavg()[0];
    const result = await loadOn(target, options.durationS);
    const acc = perTarget.get(target.role);
    acc.runs.push({ ...publicRun(result), loadavg1Before: loadBefore, quietWait: quiet });
    for (const v of result.latencies) acc.latencies.push(v);
    for (const v of result.firstLatencies) acc.first.push(v);
    log(
      `  ${scenario.id.padEnd(18)} ${target.role.padEnd(8)} ${result.rps.toFixed(0).padStart(6)} req/s` +
        `  p50 ${result.latency.p50?.toFixed(2)} ms  p99 ${result.latency.p99?.toFixed(2)} ms` +
        `  non-2xx ${result.non2xx}  errors ${result.errors + result.timeouts}` +
        `  rss ${((result.peakRssBytes ?? 0) / 2 ** 20).toFixed(0)} MB` +
        (result.cpu
          ? `  cpu ${result.cpu.target.toFixed(2)} (generator ${result.cpu.generator.toFixed(2)}` +
            (result.cpu.database !== undefined ? `, mysql ${result.cpu.database.toFixed(2)}` : '') +
            `, others ${result.cpu.foreign.toFixed(2)})`
          : ''),
    );
    await sleep(200);
  }
  const summarise = (role) => {
    const acc = perTarget.get(role);
    const rps = acc.runs.length ? acc.runs.reduce((s, r) => s + r.rps, 0) / acc.runs.length : 0;
    return {
      rps,
      latency: latencySummary(acc.latencies),
      latencyAll: latencySummary([...acc.latencies, ...acc.first]),
      firstOnConnection: latencySummary(acc.first),
      non2xx: acc.runs.reduce((s, r) => s + r.non2xx, 0),
      errors: acc.runs.reduce((s, r) => s + r.errors + r.timeouts, 0),
      requests: acc.runs.reduce((s, r) => s + r.responses, 0),
      statusCodes: mergeCounts(acc.runs.map((r) => r.statusCodes)),
      peakRssMB: acc.peakRss / 2 ** 20,
      cpuCores: mean(acc.runs.map((r) => r.cpu?.target)),
      cpuMsPerRequest: mean(acc.runs.map((r) => r.cpuMsPerRequest)),
      foreignCpuMax: Math.max(...acc.runs.map((r) => r.cpu?.foreign ?? 0)),
      generatorCpuMax: Math.max(...acc.runs.map((r) => r.cpu?.generator ?? 0)),
      warmup: acc.warmup,
      runs: acc.runs,
    };
  };
  const s = summarise('service');
  const b = summarise('baseline');
  const exhausted = [...states.values()].some((st) => st.exhausted);
  const b3 = floor ? summarise('b3') : null;
  return {
    service: s,
    baseline: b,
    ratio: s.rps / b.rps,
    exhausted,
    ...(b3 ? { b3, ratioB3: s.rps / b3.rps } : {}),
  };
}

function mean(values) {
  const xs = values.filter((v) => typeof v === 'number');
  return xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null;
}

/**
 * Waits (in 0.5 s steps, at most --quiet-wait seconds per run and --quiet-budget in all) until the
 * processes of other people use less than 0.25 of a core: a build or test suite running beside the
 * benchmark would otherwise be measured as the service's slowness. Returns what it saw.
 */
let quietBudgetLeftS = null;
async function waitQuiet(ourPids) {
  quietBudgetLeftS ??= options.quietBudgetS;
  const idle = await waitIdle(ourPids);
  const started = performance.now();
  let foreign;
  for (;;) {
    const before = cpuSnapshot([process.pid, databaseServerPid, ...ourPids]);
    await sleep(500);
    const usage = cpuUsage(
      before,
      cpuSnapshot([process.pid, databaseServerPid, ...ourPids]),
      os.cpus().length,
    );
    foreign = usage?.foreign ?? 0;
    const waitedS = (performance.now() - started) / 1000;
    if (foreign < 0.25 || waitedS >= options.quietWaitS || quietBudgetLeftS - waitedS <= 0) {
      quietBudgetLeftS -= waitedS;
      if (waitedS > 1)
        log(
          `  waited ${waitedS.toFixed(1)} s for other processes to calm down (other load now ${foreign.toFixed(2)} cores)`,
        );
      return { idleWaitS: idle, waitedS, foreignCores: foreign };
    }
  }
}

/**
 * Waits (at most 10 s) until the processes under test use less than 5 % of a core: requests still
 * in flight when autocannon stopped (the service keeps working on them) must not spill into the
 * next run or into a row count. Returns the seconds waited.
 */
async function waitIdle(pids) {
  const started = performance.now();
  for (;;) {
    const before = cpuSnapshot(pids);
    await sleep(200);
    const usage = cpuUsage(before, cpuSnapshot(pids), os.cpus().length);
    const busiest = Math.max(0, ...Object.values(usage?.perPid ?? {}));
    const waitedS = (performance.now() - started) / 1000;
    if (busiest < 0.05 || waitedS > 10) return waitedS;
  }
}

function mergeCounts(list) {
  const out = {};
  for (const counts of list) for (const [k, v] of Object.entries(counts)) out[k] = (out[k] ?? 0) + v;
  return out;
}

// ---------------------------------------------------------------------------------------------------------
// The service's log: status codes and errors, to cross-check the load generator.

async function analyseLog(file) {
  const out = { lines: 0, byStatus: {}, errorLines: 0, firstErrors: [] };
  if (!fs.existsSync(file)) return out;
  const rl = readline.createInterface({ input: fs.createReadStream(file), crlfDelay: Infinity });
  for await (const line of rl) {
    if (!line) continue;
    out.lines++;
    let entry;
    try {
      entry = JSON.parse(line);
    } catch {
      continue;
    }
    if (entry.res !== undefined) {
      // No status: pino-http's "request aborted", the client closed before an answer was sent (autocannon
      // closes its connections at the end of each run with requests in flight).
      const status = entry.res?.statusCode ?? 'aborted';
      out.byStatus[status] = (out.byStatus[status] ?? 0) + 1;
    }
    if (entry.level >= 50) {
      out.errorLines++;
      if (out.firstErrors.length < 5)
        out.firstErrors.push(String(entry.msg ?? entry.err?.message ?? '').slice(0, 300));
    }
  }
  out.bytes = fs.statSync(file).size;
  return out;
}

// ---------------------------------------------------------------------------------------------------------
// One database: cold starts, baselines, seed, scenarios.

async function benchDatabase(kind, catalogues, mysqlInfo) {
  const section = { database: kind, startedAt: new Date().toISOString() };
  const dbRandom = randomBytes(4).toString('hex');
  const dropLater = [];
  let sqliteN = 0;

  const freshDatabase = async (purpose) => {
    if (kind === 'sqlite') {
      const file = path.join(work, `${purpose}-${++sqliteN}.sqlite`);
      return { url: `sqlite:${file}`, file };
    }
    const name = `relayer_test_bench_${dbRandom}_${purpose.replace(/[^a-z0-9]/g, '')}${++sqliteN}`;
    await mysqlInfo.connection.query(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4`);
    const drop = async () => {
      await mysqlInfo.connection.query(`DROP DATABASE IF EXISTS \`${name}\``);
    };
    dropLater.push(drop);
    cleanups.push(drop);
    return { url: mysqlDatabaseUrl(options.mysqlUrl, name), name, drop };
  };

  if (options.profile && options.profileCompare) {
    section.compare = await benchCompare(
      { options, log, work, cleanups, catalogues, freshDatabase, startService, AUTH, JSON_HEADERS },
      kind,
    );
    return section;
  }
  if (options.profile) {
    section.profile = await benchProfile(
      {
        options,
        log,
        work,
        cleanups,
        catalogues,
        freshDatabase,
        startService,
        databaseServerPid,
        AUTH,
        JSON_HEADERS,
      },
      kind,
    );
    return section;
  }

  if (mainSelected) {
    // Cold start: spawn to the first 200 of /ready on a fresh database, alternating the 1-signer
    // reference catalogue and the big one. The last big start stays up for the load runs.
    log(
      `${kind}: cold starts (${options.coldStarts} x ${options.signers.toLocaleString('en-US')} signers, ${options.coldStarts} x 1 signer)`,
    );
    const cold = { signers: options.signers, samplesMs: [], referenceSamplesMs: [], rssAtReadyMB: [] };
    let service = null;
    let serviceDb = null;
    for (let i = 0; i < options.coldStarts; i++) {
      const refDb = await freshDatabase('coldref');
      const ref = await startService({
        databaseUrl: refDb.url,
        catalogue: catalogues.one,
        label: `${kind}-ref`,
      });
      cold.referenceSamplesMs.push(ref.readyMs);
      await stopProcess(ref.handle);
      if (refDb.drop) await refDb.drop();

      const db = await freshDatabase('service');
      const s = await startService({ databaseUrl: db.url, catalogue: catalogues.big, label: kind });
      cold.samplesMs.push(s.readyMs);
      cold.rssAtReadyMB.push(s.rssAtReady / 2 ** 20);
      log(
        `  cold start ${i + 1}: ${s.readyMs.toFixed(0)} ms with ${options.signers} signers, ${ref.readyMs.toFixed(0)} ms with 1`,
      );
      if (i < options.coldStarts - 1) {
        await stopProcess(s.handle);
        if (db.drop) await db.drop();
      } else {
        service = s;
        serviceDb = db;
      }
    }
    const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];
    cold.medianMs = median(cold.samplesMs);
    cold.referenceMedianMs = median(cold.referenceSamplesMs);
    section.coldStart = cold;

    // Baselines on their own fresh database with the service's schema (copied after its migrations).
    const baseDb = await freshDatabase('baseline');
    if (kind === 'sqlite') copySqliteSchema(serviceDb.file, baseDb.file);
    else await copyMysqlSchema(serviceDb.url, baseDb.url);
    const b0 = await startBaseline('B0');
    const bDb = await startBaseline(kind === 'sqlite' ? 'B1' : 'B2', baseDb.url);
    const b3 = options.b3 ? await startB3({ freshDatabase, startBaseline }, kind, serviceDb) : null;
    section.baselines = {
      B0: 'node:http',
      [bDb.kind]: kind === 'sqlite' ? 'node:http + better-sqlite3' : 'node:http + mysql2 pool',
    };

    const count = (db) => (kind === 'sqlite' ? sqliteCount(db.file) : mysqlCount(db.url));
    const seed = (db, first, last) =>
      kind === 'sqlite' ? seedSqlite(db.file, first, last) : seedMysql(db.url, first, last);
    const seeded = new Map([[serviceDb, 0], [baseDb, 0], ...(b3 ? [[b3.db, 0]] : [])]);
    const seedTo = async (total) => {
      await waitIdle([service.handle.pid, bDb.handle.pid, b3?.handle.pid]);
      const started = performance.now();
      for (const db of seeded.keys()) {
        const have = await count(db);
        let need = total - have;
        if (need < 0) {
          // The create scenario stored more than the list scenario wants (a fast baseline does):
          // remove the excess of those rows, so both sides list a table of the same size.
          await (kind === 'sqlite' ? trimSqlite(db.file, -need) : trimMysql(db.url, -need));
          need = 0;
        }
        const first = seeded.get(db) + 1;
        await seed(db, first, first + need - 1);
        seeded.set(db, first + need - 1);
        if (kind === 'mysql') await analyzeMysql(db.url);
      }
      log(
        `  seeded both databases to ${total.toLocaleString('en-US')} relayers in ${((performance.now() - started) / 1000).toFixed(1)} s`,
      );
    };

    await seedTo(options.listSmall);

    const serviceTarget = { role: 'service', url: service.url, pid: service.handle.pid };
    section.scenarios = [];
    for (const scenario of SCENARIOS.filter((s) => selected.includes(s.id))) {
      const baseline = scenario.baselineKind === 'B0' ? b0 : bDb;
      const baselineTarget = { role: 'baseline', url: baseline.url, pid: baseline.handle.pid };

      try {
        if (scenario.rows === 'large') await seedTo(options.listLarge);
        await waitIdle([service.handle.pid, baseline.handle.pid, b3?.handle.pid]);
        const rowsBefore = { service: await count(serviceDb), baseline: await count(baseDb) };
        if (b3) rowsBefore.b3 = await count(b3.db);
        if (
          scenario.rows === 'small' &&
          (rowsBefore.service !== options.listSmall || rowsBefore.baseline !== options.listSmall)
        ) {
          log(
            `  note: ${scenario.id} runs with ${rowsBefore.service} / ${rowsBefore.baseline} relayers stored`,
          );
        }
        log(`${kind}: ${scenario.id} (${scenario.label}) vs ${baseline.kind}`);
        const result = await measure(
          scenario,
          [serviceTarget, baselineTarget, ...(b3 ? [b3.target] : [])],
          kind === 'mysql' ? databaseServerPid : null,
        );
        section.scenarios.push({
          id: scenario.id,
          label: scenario.label,
          baselineKind: baseline.kind,
          rowsStored: rowsBefore,
          ...result,
        });
        if (result.exhausted)
          log(`  WARNING: ${scenario.id} ran out of free (signer, network) pairs: raise --signers`);
      } catch (error) {
        log(`  FAILED: ${error.message}`);
        section.scenarios.push({
          id: scenario.id,
          label: scenario.label,
          baselineKind: baseline.kind,
          failed: error.message,
        });
      }
    }
    section.rowsAtEnd = { service: await count(serviceDb), baseline: await count(baseDb) };
    if (b3) {
      section.rowsAtEnd.b3 = await count(b3.db);
      section.baselines.B3 = B3_TITLE;
    }
    section.serviceVmHwmMB = (memoryOf(service.handle.pid).hwm ?? 0) / 2 ** 20;
    section.serviceAliveAtEnd = (await probe(`${service.url}${API}/health`)) === 200;

    await stopProcess(service.handle);
    await stopProcess(b0.handle);
    await stopProcess(bDb.handle);
    if (b3) await stopProcess(b3.handle);
    section.serviceLog = await analyseLog(service.logFile);
  }
  if (webhooksSelected.length > 0) {
    section.webhooks = await benchWebhooks(
      {
        options,
        log,
        work,
        cleanups,
        catalogues,
        freshDatabase,
        startService,
        waitQuiet,
        databaseServerPid,
        JSON_HEADERS,
      },
      kind,
      webhooksSelected,
    );
  }
  if (healthSelected) {
    section.healthRound = await benchHealth(
      { options, log, root, work, cleanups, freshDatabase, startService, waitQuiet, databaseServerPid, AUTH },
      kind,
    );
  }
  if (fleetSelected) {
    section.healthFleet = await benchHealthFleet(
      { options, log, root, work, cleanups, freshDatabase, startService, waitQuiet, databaseServerPid },
      kind,
    );
  }
  if (hostileSelected) {
    section.hostileBodies = await benchHostileBodies(
      { options, log, catalogues, freshDatabase, startService, apiKey },
      kind,
    );
  }
  if (statsSelected) {
    section.webhookStats = await benchWebhookStats(
      { options, log, catalogues, freshDatabase, startService, JSON_HEADERS, AUTH },
      kind,
    );
  }
  if (cursorsSelected) {
    section.cursorPages = await benchCursorPages(
      { options, log, catalogues, freshDatabase, startService, AUTH },
      kind,
    );
  }
  if (consoleSelected) {
    try {
      section.consoleRelayers = await benchConsole(
        { options, log, catalogues, freshDatabase, startService, apiKey, AUTH },
        kind,
      );
    } catch (error) {
      log(`  FAILED: ${error.message}`);
      section.consoleRelayers = { failed: error.message };
    }
  }
  if (options.soakS) {
    section.soak = await benchSoak(
      { options, log, cleanups, catalogues, freshDatabase, startService, AUTH, JSON_HEADERS },
      kind,
    );
  }
  for (const drop of dropLater) await drop();
  section.finishedAt = new Date().toISOString();
  return section;
}

// ---------------------------------------------------------------------------------------------------------

async function main() {
  log(
    `bench: ${options.quick ? 'quick' : 'full'} run, ${options.durationS} s per measurement, ${options.connections} connections, work folder ${work}`,
  );
  const built = build();
  serviceEntry = built.entry;
  log(`built the service (${built.how}) in ${(built.ms / 1000).toFixed(1)} s`);
  if (consoleSelected) {
    // The service serves the console from dist/console beside dist/src (src/console/serve-console.ts).
    const bundled = bundleConsole(built.sourceRoot, path.dirname(path.dirname(built.entry)));
    log(`bundled the console (${bundled.how}) in ${(bundled.ms / 1000).toFixed(1)} s`);
  }

  const catalogues = {
    big: path.join(work, `catalogue-${options.signers}.json`),
    one: path.join(work, 'catalogue-1.json'),
  };
  const bigInfo = writeCatalogue(catalogues.big, options.signers);
  writeCatalogue(catalogues.one, 1);

  const results = {
    schema: 1,
    startedAt: new Date().toISOString(),
    command: `npm run bench${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(' ')}` : ''}`,
    options: { ...options, scenarios: selected },
    machine: {
      cpu: os.cpus()[0]?.model ?? 'unknown',
      cores: os.cpus().length,
      memoryGB: os.totalmem() / 2 ** 30,
      kernel: `${os.type()} ${os.release()}`,
      node: process.version,
      sqlite: sqliteVersion(),
      mysql: null,
      loadavgAtStart: os.loadavg(),
    },
    git: {
      commit: git('rev-parse', options.gitRef ?? 'HEAD'),
      // The working tree's changes are in the build unless --git-ref chose a commit.
      dirtyFiles: options.gitRef
        ? []
        : (git('status', '--porcelain', '--', 'src', 'package.json', 'package-lock.json') ?? '')
            .split('\n')
            .filter(Boolean),
    },
    service: {
      build: built.how,
      buildMs: built.ms,
      nodeFlags: options.nodeFlags,
      catalogue: { signers: bigInfo.signers, bytes: bigInfo.bytes },
    },
    databases: {},
  };

  for (const kind of options.databases) {
    if (kind === 'mysql') {
      const server = await mysqlServer(options.mysqlUrl);
      if (!server.connection) {
        log(`mysql: skipped, the server does not answer (${server.reason})`);
        results.databases.mysql = {
          database: 'mysql',
          skipped: `MySQL did not answer at ${new URL(options.mysqlUrl).host}: ${server.reason}`,
        };
        continue;
      }
      results.machine.mysql = server.version;
      cleanups.push(() => server.connection.end());
      results.databases.mysql = await benchDatabase('mysql', catalogues, server);
    } else {
      results.databases.sqlite = await benchDatabase('sqlite', catalogues, null);
    }
  }
  if (options.profile) {
    // The profiling mode writes its summaries into the work folder only (no results JSON, no docs).
    options.keep = true;
    const sections = Object.values(results.databases);
    if (options.profileCompare)
      reportCompare(
        { work },
        sections.flatMap((s) => s.compare ?? []),
      );
    else
      reportProfiles(
        { work, log },
        sections.flatMap((s) => s.profile ?? []),
      );
    return;
  }
  results.finishedAt = new Date().toISOString();
  results.machine.loadavgAtEnd = os.loadavg();
  results.elapsedS = (performance.now() - t0) / 1000;

  const file = saveResults(results, path.join(benchDir, 'results'));
  log(`results: ${path.relative(root, file)}`);
  if (options.docs) {
    const written = await writeDocs(results, file, root);
    log(`docs: ${written.map((f) => path.relative(root, f)).join(', ')}`);
  }
}

try {
  await main();
} catch (error) {
  console.error(error);
  process.exitCode = 1;
} finally {
  await cleanup();
}
