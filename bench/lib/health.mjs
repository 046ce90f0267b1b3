// The health-check scenario of `npm run bench` (src/relayer-health): one round of checks over N
// relayers (10,000; --health-relayers) against one local anvil, and what it does to GET
// /relayers/{id}. run.mjs calls benchHealth() once per database with its own plumbing (ctx); see
// docs/benchmark-results.md, "Health-check rounds".
//
// health-round  anvil (node_modules/@foundry-rs, as the e2e tests start it) on a loopback port; a
//               catalogue with one EVM network on it (chain id 31337) and N signers; N relayers on
//               that network written with SQL (the addresses the service derives from those
//               signers, funded on anvil above their min_balance, so every check passes), with their
//               relayer_checks rows not due. Then:
//                 1. a service with RELAYER_HEALTH_CHECKS=false: GET /relayers/{id} (ids rotating
//                    over the N) for --duration after a warm-up: the API without checks;
//                 2. a service with checks on and a one-day interval and retry (so a round is never
//                    followed by another): the rows are made due with one UPDATE, and the round is
//                    timed until every row has a checked_at, with the CPU of the service, anvil and
//                    (MySQL) the server over it: first the round in which every check is new (it
//                    writes each verdict), then the round alone, in which nothing changed;
//                 3. the same again, with GET /relayers/{id} at full load from the first check to
//                    the last: the round under load, and the API's latency during it;
//                 4. GET /relayers/{id} for --duration on that service, nothing due: the API with
//                    checks on but idle (drift check against 1);
//                 5. with --health-rpc-delay-ms D (20; 0 skips it): a round over the first 2,000
//                    relayers of a second network whose RPC URL is a proxy in the bench process
//                    that holds each call D ms before passing it to anvil (a remote node's round
//                    trip), counting the calls it holds at once.
//               Between 2 and 3 (unless --no-b4): B4, the floor of a round (bench/lib/b4.mjs), a
//               bare Node script making the same JSON-RPC calls for the same addresses on the same
//               anvil, in batches, timed with its CPU; the round alone of 2 is reported over it.
import Database from 'better-sqlite3';
import { Buffer } from 'node:buffer';
import mysql from 'mysql2/promise';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { privateKeyToAddress } from 'viem/accounts';
import { RELAYER_COLUMNS } from '../baselines/common.mjs';
import { signerId } from './data.mjs';
import { B4_TITLE, runB4 } from './b4.mjs';
import { runLoad } from './load.mjs';
import {
  cpuSnapshot,
  cpuUsage,
  freePort,
  httpRequest,
  memoryOf,
  sampleRss,
  startProcess,
  stopProcess,
} from './proc.mjs';

export const HEALTH_SCENARIOS = [
  {
    id: 'health-round',
    label:
      'A round of health checks over N relayers against one local anvil, and GET /relayers/{id} meanwhile',
  },
];

const API = '/api/v1';
export const CHAIN_ID = 31337;
const NETWORK = 'anvil-bench';
/** The same anvil behind the delaying proxy. */
const REMOTE_NETWORK = 'anvil-bench-remote';
/** Relayers of the round behind the delaying proxy (the first ones, moved to that network). */
const REMOTE_RELAYERS = 2000;
/** A round that writes no checked_at for this long has stalled (the rest of the scenario is skipped). */
const STALL_MS = 60_000;
export const MIN_BALANCE = 100_000_000_000_000_000n; // 0.1 ETH, the seed rows' policy
const FUNDING = 10n ** 18n; // 1 ETH each
/** A due date no round reaches: the rows wait for the bench's UPDATE. */
export const NOT_DUE = '2999-01-01 00:00:00.000';
/** A day: after its one round, no relayer is due again while the bench runs (nor retried). */
const ONE_DAY_S = '86400';
/** The scheduler's constants (src/relayer-health/relayer-health-scheduler.ts), shown beside the numbers. */
const SCHEDULER = {
  batch: 100,
  batchesAtOnce: 1,
  idlePollMs: 1000,
  rpcRequestsPerBatch: 3,
  workerConnections: 2,
};

const sha256 = (text) => createHash('sha256').update(text).digest('hex');
const healthId = (i) => `health-${String(i).padStart(6, '0')}`;
const remoteId = (i) => `health-r${String(i).padStart(5, '0')}`;
/** The rows of a round: `relayer_id LIKE` these (the ids above). */
export const MAIN_ROWS = 'health-0%';
const REMOTE_ROWS = 'health-r%';
export const sqlTime = (ms) => new Date(ms).toISOString().replace('T', ' ').replace('Z', '');
export const now = () => performance.timeOrigin + performance.now();

function anvilBinary(root) {
  return path.join(
    root,
    'node_modules',
    '@foundry-rs',
    `anvil-linux-${process.arch === 'arm64' ? 'arm64' : 'amd64'}`,
    'bin',
    'anvil',
  );
}

/** One JSON-RPC POST (a call or a batch) to `url`; resolves with the parsed answer. */
function rpc(url, body) {
  const text = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      {
        method: 'POST',
        agent: false,
        timeout: 30_000,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) },
      },
      (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => {
          try {
            resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')));
          } catch (error) {
            reject(error);
          }
        });
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`${url}: no answer within 30 s`)));
    req.on('error', reject);
    req.end(text);
  });
}

/**
 * A proxy in front of anvil that holds every call `delayMs` before forwarding it (keep-alive to
 * anvil): the round trip of a remote node. Counts the calls it holds at once and the connections
 * the service opens to it. `observe(body, socket)`, when given, sees each request body (a JSON-RPC
 * call or batch array, forwarded unchanged) as it arrives: health-fleet counts checks with it, with
 * no delay (0 forwards at once, not on the next timer tick).
 */
export async function startDelayProxy(ctx, anvilUrl, delayMs, observe = null) {
  const target = new URL(anvilUrl);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  const stats = { calls: 0, inFlight: 0, maxInFlight: 0, sockets: new Set() };
  const server = http.createServer((req, res) => {
    stats.sockets.add(req.socket);
    stats.calls++;
    stats.inFlight++;
    stats.maxInFlight = Math.max(stats.maxInFlight, stats.inFlight);
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      observe?.(body, req.socket);
      const forward = () => {
        const upstream = http.request(
          {
            host: target.hostname,
            port: target.port,
            method: 'POST',
            path: '/',
            agent,
            headers: { 'content-type': 'application/json', 'content-length': body.length },
          },
          (answer) => {
            const parts = [];
            answer.on('data', (c) => parts.push(c));
            answer.on('end', () => {
              stats.inFlight--;
              const out = Buffer.concat(parts);
              res.writeHead(answer.statusCode ?? 502, {
                'content-type': 'application/json',
                'content-length': out.length,
              });
              res.end(out);
            });
          },
        );
        upstream.on('error', () => {
          stats.inFlight--;
          res.destroy();
        });
        upstream.end(body);
      };
      if (delayMs > 0) setTimeout(forward, delayMs);
      else forward();
    });
  });
  const port = await freePort();
  await new Promise((resolve) => server.listen(port, '127.0.0.1', resolve));
  const close = () =>
    new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
      agent.destroy();
    });
  ctx.cleanups.push(close);
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    server,
    stats,
    reset() {
      stats.calls = 0;
      stats.maxInFlight = stats.inFlight;
      stats.sockets = new Set();
    },
    close,
  };
}

export async function startAnvil(ctx) {
  const port = await freePort();
  const binary = anvilBinary(ctx.root);
  if (!fs.existsSync(binary)) throw new Error(`anvil not found at ${binary} (npm install @foundry-rs/anvil)`);
  const handle = startProcess({
    name: 'anvil',
    command: binary,
    args: ['--port', String(port), '--host', '127.0.0.1', '--chain-id', String(CHAIN_ID), '--silent'],
    cwd: ctx.work,
    outputFile: path.join(ctx.work, `anvil-${port}.out`),
    env: { PATH: process.env.PATH, HOME: process.env.HOME ?? os.homedir() },
  });
  ctx.cleanups.push(() => stopProcess(handle));
  const url = `http://127.0.0.1:${port}`;
  const deadline = performance.now() + 20_000;
  for (;;) {
    if (handle.exitInfo)
      throw new Error(`anvil exited (${JSON.stringify(handle.exitInfo)}); see ${handle.outputFile}`);
    const answer = await rpc(url, { jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }).catch(
      () => null,
    );
    if (answer?.result === `0x${CHAIN_ID.toString(16)}`) break;
    if (performance.now() > deadline) throw new Error('anvil did not answer eth_chainId within 20 s');
    await sleep(100);
  }
  const version = fs.existsSync(binary)
    ? (await rpc(url, { jsonrpc: '2.0', id: 1, method: 'web3_clientVersion', params: [] }).catch(() => null))
        ?.result
    : null;
  return { handle, url, version: version ?? null };
}

/** Balances above min_balance for every address, in batches of JSON-RPC calls. */
export async function fund(url, addresses) {
  for (let start = 0; start < addresses.length; start += 500) {
    const batch = addresses.slice(start, start + 500).map((address, k) => ({
      jsonrpc: '2.0',
      id: start + k,
      method: 'anvil_setBalance',
      params: [address, `0x${FUNDING.toString(16)}`],
    }));
    const answers = await rpc(url, batch);
    const failed = Array.isArray(answers) ? answers.filter((a) => a.error) : [answers];
    if (failed.length > 0) throw new Error(`anvil_setBalance: ${JSON.stringify(failed[0]).slice(0, 300)}`);
  }
}

/**
 * The catalogue: one EVM network on anvil (and, with a delay proxy, a second one on it: same chain)
 * and N signers (deterministic keys); their addresses. With `written` < N, the addresses of all N
 * keys but only the first `written` signers in the file (health-fleet: see FLEET_SIGNERS there).
 */
export function writeHealthCatalogue(file, anvilUrl, proxyUrl, count, written = count) {
  const signers = [];
  const addresses = [];
  for (let i = 1; i <= count; i++) {
    const key = sha256(`relayer-bench-health-signer-${i}`);
    if (i <= written)
      signers.push({ id: signerId(i, count), type: 'plain', config: { key: { type: 'plain', value: key } } });
    addresses.push(privateKeyToAddress(`0x${key}`));
  }
  const networks = [{ type: 'evm', network: NETWORK, chain_id: CHAIN_ID, rpc_urls: [anvilUrl] }];
  if (proxyUrl)
    networks.push({ type: 'evm', network: REMOTE_NETWORK, chain_id: CHAIN_ID, rpc_urls: [proxyUrl] });
  fs.writeFileSync(file, JSON.stringify({ networks, signers }));
  return addresses;
}

export function relayerRow(i, count, address, remote = false) {
  const at = sqlTime(Date.UTC(remote ? 2022 : 2021, 0, 1) + i * 1000);
  const policies = { eip1559_pricing: true, min_balance: Number(MIN_BALANCE), gas_price_cap: 300000000000 };
  const values = {
    id: remote ? remoteId(i) : healthId(i),
    name: `Health bench relayer ${remote ? 'r' : ''}${i}`,
    network: remote ? REMOTE_NETWORK : NETWORK,
    network_type: 'evm',
    address,
    signer_id: signerId(i, count),
    notification_id: null,
    paused: 0,
    system_disabled: 0,
    disabled_reason: null,
    custom_rpc_urls: null,
    policies: JSON.stringify(policies),
    version: 1,
    created_at: at,
    updated_at: at,
  };
  return RELAYER_COLUMNS.map((column) => {
    if (!(column in values)) throw new Error(`health bench: no value for relayers.${column}`);
    return values[column];
  });
}

const CHECK_COLUMNS = ['relayer_id', 'next_check_at', 'failures'];
/** The MariaDB status counters of `statements()`: all the statements, and some kinds of them. */
const STATEMENT_COUNTERS = {
  total: 'Questions',
  select: 'Com_select',
  update: 'Com_update',
  insert: 'Com_insert',
  begin: 'Com_begin',
  commit: 'Com_commit',
};

/**
 * The database beside the service: seeding, the UPDATE that starts a round, and the count of
 * relayers checked (with the first and last checked_at, the service's own clock).
 */
export async function openDatabase(kind, db) {
  if (kind === 'sqlite') {
    const handle = new Database(db.file, { timeout: 10_000 });
    const progress = handle.prepare(
      'SELECT COUNT(*) AS n, MIN(checked_at) AS first, MAX(checked_at) AS last FROM relayer_checks WHERE checked_at IS NOT NULL AND relayer_id LIKE ?',
    );
    return {
      seed(rows, checks) {
        const insertRelayer = handle.prepare(
          `INSERT INTO relayers (${RELAYER_COLUMNS.join(', ')}) VALUES (${RELAYER_COLUMNS.map(() => '?').join(', ')})`,
        );
        const insertCheck = handle.prepare(
          `INSERT INTO relayer_checks (${CHECK_COLUMNS.join(', ')}) VALUES (?, ?, ?)`,
        );
        handle.transaction(() => {
          for (const row of rows) insertRelayer.run(row);
          for (const row of checks) insertCheck.run(row);
        })();
        handle.pragma('wal_checkpoint(TRUNCATE)');
      },
      makeDue(at, rows) {
        return handle
          .prepare(
            'UPDATE relayer_checks SET next_check_at = ?, checked_at = NULL, lease_owner = NULL, lease_until = NULL WHERE relayer_id LIKE ?',
          )
          .run(at, rows).changes;
      },
      progress(rows) {
        const r = progress.get(rows);
        return { n: r.n, first: parseTime(r.first), last: parseTime(r.last) };
      },
      disabled() {
        return handle.prepare('SELECT COUNT(*) FROM relayers WHERE system_disabled = 1').pluck().get();
      },
      connections() {
        return null;
      },
      /** No server to count them: the service's statements are counted on MySQL only. */
      statements() {
        return null;
      },
      close() {
        handle.close();
      },
    };
  }
  const connection = await mysql.createConnection({ uri: db.url, connectTimeout: 5000, dateStrings: true });
  await connection.query("SET time_zone = '+00:00'");
  return {
    async seed(rows, checks) {
      await connection.beginTransaction();
      for (let start = 0; start < rows.length; start += 1000) {
        await connection.query(`INSERT INTO relayers (${RELAYER_COLUMNS.join(', ')}) VALUES ?`, [
          rows.slice(start, start + 1000),
        ]);
      }
      for (let start = 0; start < checks.length; start += 1000) {
        await connection.query(`INSERT INTO relayer_checks (${CHECK_COLUMNS.join(', ')}) VALUES ?`, [
          checks.slice(start, start + 1000),
        ]);
      }
      await connection.commit();
      await connection.query('ANALYZE TABLE relayers, relayer_checks');
    },
    async makeDue(at, rows) {
      const [result] = await connection.query(
        'UPDATE relayer_checks SET next_check_at = ?, checked_at = NULL, lease_owner = NULL, lease_until = NULL WHERE relayer_id LIKE ?',
        [at, rows],
      );
      return result.affectedRows;
    },
    async progress(rows) {
      const [[r]] = await connection.query(
        'SELECT COUNT(*) AS n, MIN(checked_at) AS first, MAX(checked_at) AS last FROM relayer_checks WHERE checked_at IS NOT NULL AND relayer_id LIKE ?',
        [rows],
      );
      return { n: Number(r.n), first: parseTime(r.first), last: parseTime(r.last) };
    },
    async disabled() {
      const [[r]] = await connection.query('SELECT COUNT(*) AS n FROM relayers WHERE system_disabled = 1');
      return Number(r.n);
    },
    /** The service's connections to this database (not ours): how many, running what, idle how long. */
    async connections() {
      const [[{ id }]] = await connection.query('SELECT CONNECTION_ID() AS id');
      const [rows] = await connection.query('SHOW PROCESSLIST');
      const name = new URL(db.url).pathname.slice(1);
      const theirs = rows.filter((r) => r.db === name && Number(r.Id) !== Number(id));
      return {
        total: theirs.length,
        running: theirs.filter((r) => r.Command !== 'Sleep').length,
        sleepingSeconds: theirs.filter((r) => r.Command === 'Sleep').map((r) => Number(r.Time)),
      };
    },
    /**
     * The statements of every client of the server but this connection, so far (issue 28 counts them
     * at the driver): the difference between two readings is the service's over that span, the
     * seeding, progress polls and these readings themselves left out. `Questions` counts each
     * statement a client sends (BEGIN or START TRANSACTION and COMMIT each count once; not the
     * statements inside stored programs, which the service has none of); the `Com_*` counters split
     * them by kind. The global value sums every connection and the session one is this connection's,
     * both including the SHOW that reads them, so subtracting the two readings' SHOWs cancels out.
     * Any other client of the same server (another database's tests) would count too: the bench
     * wants a quiet machine anyway.
     */
    async statements() {
      const read = async (scope) => {
        const [rows] = await connection.query(`SHOW ${scope} STATUS WHERE Variable_name IN (?)`, [
          Object.values(STATEMENT_COUNTERS),
        ]);
        const byName = new Map(rows.map((r) => [r.Variable_name.toLowerCase(), Number(r.Value)]));
        return Object.fromEntries(
          Object.entries(STATEMENT_COUNTERS).map(([key, name]) => [key, byName.get(name.toLowerCase()) ?? 0]),
        );
      };
      const global = await read('GLOBAL');
      const session = await read('SESSION');
      return Object.fromEntries(
        Object.keys(STATEMENT_COUNTERS).map((key) => [key, global[key] - session[key]]),
      );
    },
    close() {
      return connection.end();
    },
  };
}

/**
 * The service's statements between two readings of `statements()` over the `checks` of a round:
 * the total, per check, and by kind (`other`: what the Com_* counters read here leave, e.g. SET,
 * ROLLBACK or DELETE).
 */
function statementsOf(before, after, checks) {
  const diff = Object.fromEntries(
    Object.keys(STATEMENT_COUNTERS).map((key) => [key, after[key] - before[key]]),
  );
  const { total, ...kinds } = diff;
  const counted = Object.values(kinds).reduce((sum, x) => sum + x, 0);
  return { total, perCheck: total / checks, byKind: { ...kinds, other: total - counted } };
}

/** Bytes (memoryOf, sampleRss) to MB; null stays null (the process is gone). */
export const mb = (bytes) => (bytes === null || bytes === undefined ? null : bytes / 2 ** 20);

/** 'YYYY-MM-DD HH:MM:SS.mmm' (UTC, as the service writes it) to epoch ms. */
function parseTime(text) {
  if (text === null || text === undefined) return null;
  return Date.parse(`${String(text).replace(' ', 'T')}Z`);
}

/** CPU seconds each named pid used between two snapshots, and the cores of everything else. */
export function snapshot(pids) {
  return { ...cpuSnapshot(Object.values(pids).filter(Boolean)), at: performance.now() };
}
export function cpuSeconds(before, after, pids) {
  const usage = cpuUsage(before, after, os.cpus().length);
  const seconds = (after.at - before.at) / 1000;
  const out = {};
  for (const [role, pid] of Object.entries(pids)) if (pid) out[role] = (usage?.perPid[pid] ?? 0) * seconds;
  out.foreignCores = usage?.foreign ?? null;
  return out;
}

/**
 * Runs the health-round scenario on one database (a fresh database, anvil, and services of its
 * own). Returns the section's `healthRound` entry.
 */
export async function benchHealth(ctx, kind) {
  const { options, log } = ctx;
  const n = options.healthRelayers;
  const result = {
    startedAt: new Date().toISOString(),
    relayers: n,
    connections: options.connections,
    durationS: options.durationS,
    warmupS: options.warmupS,
    scheduler: SCHEDULER,
    chainId: CHAIN_ID,
    stallSeconds: STALL_MS / 1000,
  };
  log(`${kind}: health-round (${n.toLocaleString('en-US')} relayers, one local anvil)`);
  const anvil = await startAnvil(ctx);
  result.anvil = { version: anvil.version };
  const delayMs = options.healthRpcDelayMs;
  const remoteN = delayMs > 0 ? Math.min(n, REMOTE_RELAYERS) : 0;
  const proxy = remoteN > 0 ? await startDelayProxy(ctx, anvil.url, delayMs) : null;
  const catalogue = path.join(ctx.work, `catalogue-health-${n}.json`);
  let started = performance.now();
  const addresses = writeHealthCatalogue(catalogue, anvil.url, proxy?.url, n);
  await fund(anvil.url, addresses);
  log(
    `  catalogue of ${n} signers written and their addresses funded in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );

  const db = await ctx.freshDatabase('health');
  const serviceEnv = {
    RELAYER_HEALTH_CHECK_INTERVAL_SECONDS: ONE_DAY_S,
    RELAYER_HEALTH_RETRY_SECONDS: ONE_DAY_S,
  };
  result.serviceEnv = serviceEnv;
  // Checks off: the migrations, the seed, and the API's numbers without checks.
  let service = await ctx.startService({
    databaseUrl: db.url,
    catalogue,
    label: `${kind}-health-off`,
    env: { ...serviceEnv, RELAYER_HEALTH_CHECKS: 'false' },
  });
  const database = await openDatabase(kind, db);
  ctx.cleanups.push(() => database.close());
  try {
    started = performance.now();
    // The relayers of the remote round use the first signers again, on the other network.
    const rows = [
      ...addresses.map((address, k) => relayerRow(k + 1, n, address)),
      ...addresses.slice(0, remoteN).map((address, k) => relayerRow(k + 1, n, address, true)),
    ];
    await database.seed(
      rows,
      rows.map((row) => [row[0], NOT_DUE, 0]),
    );
    log(
      `  seeded ${rows.length} relayers and their relayer_checks rows in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );

    const get = { n: 0 };
    const getRequest = () => ({
      method: 'GET',
      path: `${API}/relayers/${healthId((get.n++ % n) + 1)}`,
      headers: ctx.AUTH,
    });
    const requests = [
      {
        setupRequest: (req) => {
          const r = getRequest();
          return { ...req, ...r, headers: { ...req.headers, ...r.headers } };
        },
      },
    ];
    const first = await httpRequest(service.url, getRequest());
    if (first.status !== 200)
      throw new Error(`GET /relayers/{id}: ${first.status} ${first.body.slice(0, 300)}`);
    const pidsOf = (s) => ({
      service: s.handle.pid,
      anvil: anvil.handle.pid,
      ...(kind === 'mysql' && ctx.databaseServerPid ? { database: ctx.databaseServerPid } : {}),
    });

    const getLoad = async (s, label, extra = {}) => {
      const pids = pidsOf(s);
      const quiet = extra.noQuietWait ? null : await ctx.waitQuiet([s.handle.pid, anvil.handle.pid]);
      const load = await runLoad({
        url: s.url,
        connections: options.connections,
        durationS: extra.durationS ?? options.durationS,
        requests,
        pid: s.handle.pid,
        otherPids: { anvil: pids.anvil, ...(pids.database ? { database: pids.database } : {}) },
        shouldStop: extra.shouldStop,
      });
      const out = {
        rps: load.rps,
        durationS: load.durationS,
        responses: load.responses,
        non2xx: load.non2xx,
        errors: load.errors + load.timeouts,
        latency: load.latency,
        latencyAll: load.latencyAll,
        serviceCores: load.cpu?.target ?? null,
        databaseCores: load.cpu?.database ?? null,
        generatorCores: load.cpu?.generator ?? null,
        foreignCores: load.cpu?.foreign ?? null,
        cpuMsPerRequest: load.cpuMsPerRequest,
        quietWait: quiet,
      };
      if (label) {
        log(
          `  ${label.padEnd(26)} ${out.rps.toFixed(0).padStart(6)} req/s  p50 ${out.latency.p50?.toFixed(2)} ms` +
            `  p99 ${out.latency.p99?.toFixed(2)} ms  non-2xx ${out.non2xx}  service ${out.serviceCores?.toFixed(2)} cores` +
            `  others ${out.foreignCores?.toFixed(2)}`,
        );
      }
      return out;
    };

    // 1. Checks off.
    await getLoad(service, null, { durationS: options.warmupS, noQuietWait: true });
    result.getWithoutChecks = await getLoad(service, 'GET by id, checks off');
    await stopProcess(service.handle);

    // 2-4. Checks on.
    service = await ctx.startService({
      databaseUrl: db.url,
      catalogue,
      label: `${kind}-health-on`,
      env: { ...serviceEnv, RELAYER_HEALTH_CHECKS: 'true' },
    });
    result.serviceReadyMs = service.readyMs;
    await getLoad(service, null, { durationS: options.warmupS, noQuietWait: true });

    /** Makes every row of the round due, then times the round until all have a checked_at. */
    const round = async (label, withLoad, { rowsLike = MAIN_ROWS, count = n } = {}) => {
      const pids = pidsOf(service);
      const quiet = await ctx.waitQuiet([service.handle.pid, anvil.handle.pid]);
      proxy?.reset();
      // The service's statements over the round, from here to its end: only without the GET load,
      // whose requests run statements of their own on the same server.
      const statements0 = withLoad ? null : await database.statements();
      const cpu0 = snapshot(pids);
      // The service's VmRSS every 50 ms from the UPDATE to the end of the round (issue 28: at most
      // 200 MB over a round of 10,000): what a batch's rows, calls and answers hold at their peak.
      const rssBefore = memoryOf(service.handle.pid).rss;
      const rss = sampleRss(service.handle.pid, 50);
      const dueAt = now();
      const made = await database.makeDue(sqlTime(dueAt), rowsLike);
      if (made !== count) throw new Error(`made ${made} rows due, expected ${count}`);
      const timeline = [];
      let done = false;
      let firstSeenAt = null;
      // Done when every row has a checked_at; stalled when none was added for STALL_MS.
      let moved = { n: -1, at: dueAt };
      const poll = (async () => {
        for (;;) {
          const p = await database.progress(rowsLike);
          const t = now();
          timeline.push([Math.round(t - dueAt), p.n]);
          if (p.n > 0 && firstSeenAt === null) firstSeenAt = t;
          if (p.n !== moved.n) moved = { n: p.n, at: t };
          if (p.n >= count || t - moved.at > STALL_MS) {
            done = true;
            return { at: t, progress: p, stalled: p.n < count ? { sinceMs: t - moved.at } : null };
          }
          await sleep(firstSeenAt === null ? 20 : 100);
        }
      })().catch((error) => {
        done = true;
        return { error };
      });
      let load = null;
      if (withLoad) {
        // From the first check on (the scheduler looks for due rows once a second), to the last.
        while (firstSeenAt === null && !done) await sleep(5);
        load = await getLoad(service, null, { durationS: 3600, noQuietWait: true, shouldStop: () => done });
      }
      const end = await poll;
      const peakRss = rss.stop();
      if (end.error) throw end.error;
      const memory = { rssBeforeMb: mb(rssBefore), peakRssMb: mb(peakRss) };
      if (end.stalled) {
        // Nothing moved for STALL_MS: what the service still answers, for the report.
        const answers = async (p) =>
          (await Promise.race([
            httpRequest(service.url, { path: `${API}${p}`, headers: ctx.AUTH }).then((a) => a.status),
            sleep(5000).then(() => 'no answer within 5 s'),
          ]).catch((error) => error.message)) ?? null;
        const out = {
          stalled: {
            checked: end.progress.n,
            of: count,
            afterSeconds: (end.at - dueAt) / 1000,
            noProgressForSeconds: end.stalled.sinceMs / 1000,
            health: await answers('/health'),
            getById: await answers(`/relayers/${healthId(1)}`),
            databaseConnections: await database.connections(),
          },
          timeline: thin(timeline),
          get: load,
          ...memory,
        };
        log(
          `  ${label.padEnd(26)} STALLED: ${out.stalled.checked} of ${count} checked, none for ${out.stalled.noProgressForSeconds.toFixed(0)} s; ` +
            `GET /health: ${out.stalled.health}, GET /relayers/{id}: ${out.stalled.getById}` +
            (out.stalled.databaseConnections
              ? `; the service's MySQL connections: ${out.stalled.databaseConnections.total}, ${out.stalled.databaseConnections.running} running a statement, idle for ${out.stalled.databaseConnections.sleepingSeconds.join(', ')} s`
              : '') +
            (load
              ? `; GET by id meanwhile ${load.rps.toFixed(0)} req/s, ${load.non2xx + load.errors} errors or non-2xx`
              : '') +
            `; peak RSS ${memory.peakRssMb.toFixed(0)} MB (${memory.rssBeforeMb?.toFixed(0)} MB before)`,
        );
        return out;
      }
      const cpu1 = snapshot(pids);
      // Read once the last checked_at was seen (within the poll's 100 ms): besides the checks, the
      // round's statements include the scheduler's idle polls for due rows before the first check
      // and until this reading.
      const statements1 = statements0 ? await database.statements() : null;
      const cpu = cpuSeconds(cpu0, cpu1, pids);
      const p = end.progress;
      const roundS = (p.last - dueAt) / 1000;
      const out = {
        checked: p.n,
        disabledAfter: await database.disabled(),
        // From the UPDATE that made the rows due to the last checked_at (written by the service).
        seconds: roundS,
        // From the first checked_at to the last: the round without the scheduler's idle poll.
        firstToLastSeconds: (p.last - p.first) / 1000,
        firstCheckAfterMs: p.first - dueAt,
        checksPerSecond: count / roundS,
        cpuSeconds: cpu,
        serviceCores: cpu.service / ((end.at - dueAt) / 1000),
        anvilCores: cpu.anvil / ((end.at - dueAt) / 1000),
        databaseCores: cpu.database === undefined ? null : cpu.database / ((end.at - dueAt) / 1000),
        serviceCpuMsPerCheck: (cpu.service * 1000) / count,
        anvilCpuMsPerCheck: (cpu.anvil * 1000) / count,
        databaseCpuMsPerCheck: cpu.database === undefined ? null : (cpu.database * 1000) / count,
        foreignCores: cpu.foreignCores,
        // null on SQLite (no server to count them) and under the GET load (its statements would count).
        statements: statements1 ? statementsOf(statements0, statements1, count) : null,
        quietWait: quiet,
        timeline: thin(timeline),
        get: load,
        ...memory,
        ...(rowsLike === REMOTE_ROWS
          ? {
              rpcDelayMs: delayMs,
              rpcCalls: proxy.stats.calls,
              rpcMaxInFlight: proxy.stats.maxInFlight,
              rpcConnections: proxy.stats.sockets.size,
            }
          : {}),
      };
      log(
        `  ${label.padEnd(26)} ${out.checked} checked in ${out.seconds.toFixed(1)} s (${out.checksPerSecond.toFixed(0)}/s; first after ${out.firstCheckAfterMs.toFixed(0)} ms), ` +
          `service ${out.serviceCores.toFixed(2)} cores (${out.serviceCpuMsPerCheck.toFixed(2)} ms/check), anvil ${out.anvilCores.toFixed(2)}` +
          (out.databaseCores !== null ? `, mysql ${out.databaseCores.toFixed(2)}` : '') +
          `, others ${out.foreignCores?.toFixed(2)}; disabled ${out.disabledAfter}` +
          `; peak RSS ${out.peakRssMb.toFixed(0)} MB (${out.rssBeforeMb?.toFixed(0)} MB before)` +
          (out.statements
            ? `; DB statements ${out.statements.perCheck.toFixed(2)}/check (${out.statements.total}: ` +
              `${Object.entries(out.statements.byKind)
                .map(([kind, k]) => `${kind} ${k}`)
                .join(', ')})`
            : '') +
          (out.rpcCalls !== undefined
            ? `; ${out.rpcCalls} RPC calls, at most ${out.rpcMaxInFlight} at once on ${out.rpcConnections} connections`
            : '') +
          (load
            ? `; GET by id meanwhile ${load.rps.toFixed(0)} req/s p50 ${load.latency.p50?.toFixed(2)} ms p99 ${load.latency.p99?.toFixed(2)} ms non-2xx ${load.non2xx}`
            : ''),
      );
      return out;
    };

    /** B4 over the same addresses on the same anvil, beside the round alone (the service idles). */
    const floorRound = async () => {
      const quiet = await ctx.waitQuiet([service.handle.pid, anvil.handle.pid]);
      try {
        const b4 = await runB4(ctx, {
          anvilUrl: anvil.url,
          anvilPid: anvil.handle.pid,
          addresses,
          chainId: CHAIN_ID,
          minBalance: MIN_BALANCE,
        });
        const m = b4.measured;
        const r = result.roundAlone;
        const seconds = m.wallMs / 1000;
        const cpuSeconds = m.cpuMs / 1000;
        const out = {
          title: B4_TITLE,
          ...b4,
          quietWait: quiet,
          // The last round of B4's process (the first, a warm-up, is in `rounds`).
          seconds,
          cpuSeconds,
          checksPerSecond: n / seconds,
          cpuMsPerCheck: m.cpuMs / n,
          anvilCpuMsPerCheck: m.anvilCpuMs === null ? null : m.anvilCpuMs / n,
          // The service's round alone over B4's: time (from the UPDATE, and first to last
          // checked_at) and CPU, as factors.
          serviceOverB4: {
            time: r.seconds / seconds,
            firstToLast: r.firstToLastSeconds / seconds,
            cpu: r.cpuSeconds.service / cpuSeconds,
          },
        };
        const first = b4.rounds[0];
        log(
          `  ${'B4, the floor'.padEnd(26)} ${m.checked} checked in ${seconds.toFixed(3)} s (${out.checksPerSecond.toFixed(0)}/s; ` +
            `${m.requests} batches of up to ${b4.batchCalls} calls, up to ${b4.inFlight} in flight), CPU ${cpuSeconds.toFixed(3)} s ` +
            `(${out.cpuMsPerCheck.toFixed(3)} ms/check), anvil ${m.anvilCpuMs === null ? '–' : `${(m.anvilCpuMs / 1000).toFixed(2)} s`}; ` +
            `passed ${m.passed}${m.passed === n ? '' : ` of ${n}: ${JSON.stringify(m.failed)}`}; ` +
            `first (warm-up) round ${(first.wallMs / 1000).toFixed(3)} s, CPU ${(first.cpuMs / 1000).toFixed(3)} s`,
        );
        log(
          `  ${'service ÷ B4'.padEnd(26)} time ${r.seconds.toFixed(2)} s / ${seconds.toFixed(3)} s = ${out.serviceOverB4.time.toFixed(1)}x ` +
            `(first to last check ${r.firstToLastSeconds.toFixed(2)} s: ${out.serviceOverB4.firstToLast.toFixed(1)}x), ` +
            `CPU ${r.cpuSeconds.service.toFixed(2)} s / ${cpuSeconds.toFixed(3)} s = ${out.serviceOverB4.cpu.toFixed(1)}x`,
        );
        return out;
      } catch (error) {
        log(`  B4 FAILED: ${error.message}`);
        return { title: B4_TITLE, failed: error.message };
      }
    };

    const stalled = () =>
      [result.roundFirst, result.roundAlone, result.roundUnderLoad].find((r) => r?.stalled);
    // The seeded rows have no balance or nonce yet: every check of the first round writes its
    // verdict. The round measured after it is a steady one, in which nothing changed.
    result.roundFirst = await round('first round, all new', false);
    if (!stalled()) result.roundAlone = await round('round, no API load', false);
    if (options.b4 && !stalled()) result.b4 = await floorRound();
    if (!stalled()) result.roundUnderLoad = await round('round under GET by id load', true);
    if (stalled()) throw new Error(`a round stalled: the rest of the scenario was skipped`);
    result.getChecksOnIdle = await getLoad(service, 'GET by id, checks on, idle');
    if (remoteN > 0) {
      result.roundRemote = await round(`round, ${delayMs} ms per RPC call`, false, {
        rowsLike: REMOTE_ROWS,
        count: remoteN,
      });
    }
    result.serviceAliveAtEnd =
      (await httpRequest(service.url, { path: `${API}/health` }).catch(() => null))?.status === 200;
  } catch (error) {
    log(`  FAILED: ${error.message}`);
    result.failed = error.message;
  } finally {
    await stopProcess(service.handle);
    await stopProcess(anvil.handle);
    await proxy?.close();
    await database.close();
    if (db.drop) await db.drop();
  }
  result.finishedAt = new Date().toISOString();
  return result;
}

/** At most ~200 points of [ms since due, checked], evenly spread, the last one kept. */
function thin(points) {
  if (points.length <= 200) return points;
  const step = points.length / 200;
  const out = [];
  for (let i = 0; i < 200; i++) out.push(points[Math.floor(i * step)]);
  out.push(points[points.length - 1]);
  return out;
}
