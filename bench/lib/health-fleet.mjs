// The health-fleet scenario of `npm run bench` (issue 28): health checks at fleet scale, several
// instances sharing one database. Opt-in (`--scenarios health-fleet`, never in the default set: at
// 100,000 relayers it seeds for minutes and runs for (K + 1) intervals), MySQL only (SQLite has one
// writer and no server for three processes to share). run.mjs calls benchHealthFleet() once per
// database with its own plumbing (ctx); the anvil, catalogue, seeding, funding and CPU plumbing is
// health.mjs's (health-round).
//
// health-fleet  N relayers (--fleet-relayers, 100,000) on one local anvil, funded above their
//               min_balance as in health-round, so that every check passes; THREE services with
//               checks on, RELAYER_HEALTH_CHECK_INTERVAL_SECONDS = RELAYER_HEALTH_RETRY_SECONDS = S
//               (--fleet-interval, 60), on ONE MySQL database. The network's RPC URL is a counting
//               proxy in the bench process in front of anvil: it forwards each body unchanged (one
//               JSON-RPC call or a batch array of them) and records, per relayer address, the time
//               of each eth_getTransactionCount (one per check of that relayer; the EVM check makes
//               it once) and which instance's connection it came on. Once the three are ready, one
//               UPDATE makes every row due at t0; the run lasts K x S (--fleet-rounds, 3) plus one
//               interval for the last round to finish, so each relayer is checked K or K + 1 times.
//               Reported: checks per relayer; the smallest gap between two checks of one relayer
//               (a second check within a round, by another instance or the same, shows as a gap far
//               below S); per round r (the r-th check of each relayer) its first-to-last time and the
//               lag of each check behind its due time (t0 for round 0, then the previous check + S);
//               the CPU of each instance, MySQL and anvil over the run; each instance's peak RSS; the
//               relayers disabled (0 expected).
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  cpuSeconds,
  fund,
  mb,
  NOT_DUE,
  now,
  openDatabase,
  relayerRow,
  snapshot,
  sqlTime,
  startAnvil,
  startDelayProxy,
  writeHealthCatalogue,
} from './health.mjs';
import { memoryOf, sampleRss, stopProcess } from './proc.mjs';

export const FLEET_SCENARIOS = [
  {
    id: 'health-fleet',
    label:
      'Health checks at fleet scale: N relayers, three instances on one MySQL database, K rounds (opt-in, MySQL only)',
    // Never in the default set: only `--scenarios health-fleet` runs it (run.mjs).
    optIn: true,
  },
];

const INSTANCES = 3;
/** Every relayer of the fleet (health-round's 'health-0%' would miss health-100000). */
const FLEET_ROWS = 'health-%';
/**
 * Signers written into the catalogue, of the N whose addresses the relayers get. A health check
 * reads the relayer's stored `address` (RelayerHealthService.probeWith: `relayer.address`) and its
 * network's RPC URLs, never its signer; the catalogue's signers are looked up only when a relayer is
 * created or its signer used (SignersService.addressFor, holdForUse), and relayers.signer_id has no
 * foreign key (only the unique (network_type, network, signer_id) index, which distinct ids keep).
 * So the relayers keep the addresses of N deterministic keys, as in health-round, but each of the
 * three instances loads a catalogue of 1,000 signers instead of 100,000: measured on this machine, a
 * 100,000-signer catalogue (a 14 MB file) starts the service in 2.4-3.2 s instead of 1.9 s and holds
 * about 225 MB of RSS at ready instead of 135 MB, which would be counted as every instance's memory
 * over the rounds and leave no room under issue 28's 200 MB.
 */
const FLEET_SIGNERS = 1000;
/** A gap between two checks of one relayer below this share of the interval: checked twice in a round. */
const SHORT_GAP = 0.9;
/** RSS and progress: VmRSS every 50 ms (as health-round), a progress line every interval. */
const RSS_SAMPLE_MS = 50;

/**
 * The instance (0..INSTANCES-1) whose process holds the client end of a connection to the proxy:
 * the socket whose local port is the connection's remote port and whose peer is the proxy, in
 * /proc/net/tcp, found among the instances' open files. Null when it is gone or not theirs.
 */
function socketOwner(clientPort, proxyPort, pids) {
  const hex = (port) => `:${port.toString(16).toUpperCase().padStart(4, '0')}`;
  let inode = null;
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text;
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const f = line.trim().split(/\s+/);
      if (f.length > 9 && f[1].endsWith(hex(clientPort)) && f[2].endsWith(hex(proxyPort))) {
        inode = f[9];
        break;
      }
    }
    if (inode) break;
  }
  if (!inode) return null;
  const target = `socket:[${inode}]`;
  for (const [k, pid] of pids.entries()) {
    let fds;
    try {
      fds = fs.readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue;
    }
    for (const fd of fds) {
      try {
        if (fs.readlinkSync(`/proc/${pid}/fd/${fd}`) === target) return k;
      } catch {
        // closed meanwhile
      }
    }
  }
  return null;
}

/**
 * The counting proxy's observer: per relayer address (lower case), the time of each
 * eth_getTransactionCount, and per instance how many it sent. Bodies are parsed here only to count;
 * the proxy forwards them as they came.
 */
function checkCounter(addresses, proxyPort, pids) {
  const times = new Map(addresses.map((address) => [address.toLowerCase(), []]));
  const owners = new WeakMap();
  const stats = {
    posts: 0,
    calls: 0,
    largestBatch: 0,
    unparsed: 0,
    unknownAddresses: 0,
    byInstance: Array(INSTANCES).fill(0),
    unattributed: 0,
  };
  const observe = (body, socket) => {
    const at = now();
    let parsed;
    try {
      parsed = JSON.parse(body.toString('utf8'));
    } catch {
      stats.unparsed++;
      return;
    }
    const calls = Array.isArray(parsed) ? parsed : [parsed];
    stats.posts++;
    stats.calls += calls.length;
    stats.largestBatch = Math.max(stats.largestBatch, calls.length);
    // Resolved once per connection: the instances keep theirs open (keep-alive).
    if (!owners.has(socket)) owners.set(socket, socketOwner(socket.remotePort, proxyPort, pids));
    const owner = owners.get(socket);
    for (const call of calls) {
      if (call?.method !== 'eth_getTransactionCount') continue;
      const list = times.get(String(call.params?.[0]).toLowerCase());
      if (!list) {
        stats.unknownAddresses++;
        continue;
      }
      list.push(at);
      if (owner === null) stats.unattributed++;
      else stats.byInstance[owner]++;
    }
  };
  return { times, stats, observe };
}

/** Percentiles (nearest rank) and max of a list of numbers; nulls when it is empty. */
function percentiles(values) {
  if (values.length === 0) return { p50: null, p99: null, max: null };
  const sorted = Float64Array.from(values).sort();
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
  return { p50: at(0.5), p99: at(0.99), max: sorted[sorted.length - 1] };
}

/**
 * What the checks' times say: checks per relayer, the gaps between consecutive checks of one
 * relayer, and per round r (the r-th check of each relayer) its span and the lag of each check
 * behind its due time. Times in ms (epoch), results in seconds.
 */
export function analyseChecks(times, t0, intervalMs, rounds) {
  const counts = {};
  let minChecks = Infinity;
  let maxChecks = -Infinity;
  let smallestGap = Infinity;
  let smallestGapAddress = null;
  let relayersWithShortGap = 0;
  const perRound = [];
  for (const [address, list] of times) {
    counts[list.length] = (counts[list.length] ?? 0) + 1;
    minChecks = Math.min(minChecks, list.length);
    maxChecks = Math.max(maxChecks, list.length);
    let short = false;
    for (let r = 0; r < list.length; r++) {
      perRound[r] ??= { first: Infinity, last: -Infinity, lags: [] };
      const round = perRound[r];
      round.first = Math.min(round.first, list[r]);
      round.last = Math.max(round.last, list[r]);
      // Due at the UPDATE, then one interval after the previous check (the service writes
      // next_check_at = checked_at + interval once the batch's calls are answered).
      round.lags.push(list[r] - (r === 0 ? t0 : list[r - 1] + intervalMs));
      if (r > 0) {
        const gap = list[r] - list[r - 1];
        if (gap < smallestGap) {
          smallestGap = gap;
          smallestGapAddress = address;
        }
        if (gap < intervalMs * SHORT_GAP) short = true;
      }
    }
    if (short) relayersWithShortGap++;
  }
  return {
    relayers: times.size,
    checks: Object.entries(counts).reduce((sum, [k, v]) => sum + Number(k) * v, 0),
    checksPerRelayer: {
      min: times.size ? minChecks : null,
      max: times.size ? maxChecks : null,
      relayersByCount: counts,
      expected: [rounds, rounds + 1],
    },
    gaps: {
      smallestSeconds: Number.isFinite(smallestGap) ? smallestGap / 1000 : null,
      smallestAddress: smallestGapAddress,
      shortBelowSeconds: (intervalMs * SHORT_GAP) / 1000,
      relayersWithShortGap,
    },
    // Not `rounds` (the entry's K).
    roundStats: perRound.map((round, r) => {
      const lag = percentiles(round.lags);
      const spanMs = round.last - round.first;
      return {
        round: r,
        // Rounds 0..K-1 are complete; round K, begun within the margin, may not be.
        complete: r < rounds,
        relayers: round.lags.length,
        firstAfterSeconds: (round.first - t0) / 1000,
        lastAfterSeconds: (round.last - t0) / 1000,
        firstToLastSeconds: spanMs / 1000,
        withinInterval: spanMs <= intervalMs,
        lagSeconds: { p50: lag.p50 / 1000, p99: lag.p99 / 1000, max: lag.max / 1000 },
      };
    }),
  };
}

/**
 * Runs the health-fleet scenario on one database (MySQL; on SQLite it logs and returns a skip).
 * Returns the section's `healthFleet` entry.
 */
export async function benchHealthFleet(ctx, kind) {
  const { options, log } = ctx;
  if (kind !== 'mysql') {
    log(`${kind}: health-fleet skipped (MySQL only: ${INSTANCES} instances share one database server)`);
    return { skipped: `MySQL only (${INSTANCES} instances on one database)` };
  }
  const n = options.fleetRelayers;
  const intervalS = options.fleetIntervalS;
  const rounds = options.fleetRounds;
  const intervalMs = intervalS * 1000;
  const result = {
    startedAt: new Date().toISOString(),
    relayers: n,
    instances: INSTANCES,
    intervalSeconds: intervalS,
    rounds,
    catalogueSigners: Math.min(n, FLEET_SIGNERS),
    shortGapShare: SHORT_GAP,
  };
  log(
    `${kind}: health-fleet (${n.toLocaleString('en-US')} relayers, ${INSTANCES} instances on one database, ` +
      `interval ${intervalS} s, ${rounds} rounds + 1 interval)`,
  );
  const anvil = await startAnvil(ctx);
  result.anvil = { version: anvil.version };
  const pids = [];
  // The counter needs the addresses and the proxy's port; the proxy needs the counter's observer.
  let counter = null;
  const proxy = await startDelayProxy(ctx, anvil.url, 0, (body, socket) => counter?.observe(body, socket));
  const catalogue = path.join(ctx.work, `catalogue-fleet-${n}.json`);
  let started = performance.now();
  const addresses = writeHealthCatalogue(catalogue, proxy.url, null, n, result.catalogueSigners);
  result.catalogueMs = performance.now() - started;
  counter = checkCounter(addresses, proxy.port, pids);
  started = performance.now();
  await fund(anvil.url, addresses);
  result.fundMs = performance.now() - started;
  log(
    `  ${n} addresses derived and a catalogue of ${result.catalogueSigners} signers written in ${(result.catalogueMs / 1000).toFixed(1)} s, ` +
      `the addresses funded in ${(result.fundMs / 1000).toFixed(1)} s`,
  );

  const db = await ctx.freshDatabase('fleet');
  const serviceEnv = {
    RELAYER_HEALTH_CHECKS: 'true',
    RELAYER_HEALTH_CHECK_INTERVAL_SECONDS: String(intervalS),
    RELAYER_HEALTH_RETRY_SECONDS: String(intervalS),
  };
  result.serviceEnv = serviceEnv;
  const services = [];
  let database = null;
  try {
    // The first instance runs the migrations; the rows are seeded not due, so it idles meanwhile.
    const start = async (k) => {
      const s = await ctx.startService({
        databaseUrl: db.url,
        catalogue,
        label: `${kind}-fleet-${k + 1}`,
        env: serviceEnv,
      });
      services.push(s);
      pids.push(s.handle.pid);
      return s;
    };
    await start(0);
    database = await openDatabase(kind, db);
    started = performance.now();
    const rows = addresses.map((address, k) => relayerRow(k + 1, n, address));
    await database.seed(
      rows,
      rows.map((row) => [row[0], NOT_DUE, 0]),
    );
    result.seedMs = performance.now() - started;
    log(`  seeded ${n} relayers and their relayer_checks rows in ${(result.seedMs / 1000).toFixed(1)} s`);
    // The others start on the seeded database, one after the other (their start times alone).
    for (let k = 1; k < INSTANCES; k++) await start(k);
    result.serviceReadyMs = services.map((s) => s.readyMs);
    result.rssAtReadyMb = services.map((s) => mb(s.rssAtReady));
    log(
      `  ${INSTANCES} instances ready in ${services.map((s) => `${(s.readyMs / 1000).toFixed(1)} s`).join(', ')} ` +
        `(the first on an empty database), RSS ${services.map((s) => `${mb(s.rssAtReady).toFixed(0)} MB`).join(', ')}`,
    );

    const roles = {
      ...Object.fromEntries(services.map((s, k) => [`instance${k + 1}`, s.handle.pid])),
      anvil: anvil.handle.pid,
      ...(ctx.databaseServerPid ? { database: ctx.databaseServerPid } : {}),
      // This process: the counting proxy (a parse of every body) and the RSS samplers, which would
      // otherwise count as other people's load.
      bench: process.pid,
    };
    result.quietWait = await ctx.waitQuiet([...pids, anvil.handle.pid]);
    const cpu0 = snapshot(roles);
    const rssBefore = services.map((s) => memoryOf(s.handle.pid).rss);
    const samplers = services.map((s) => sampleRss(s.handle.pid, RSS_SAMPLE_MS));
    const t0 = now();
    const made = await database.makeDue(sqlTime(t0), FLEET_ROWS);
    if (made !== n) throw new Error(`made ${made} rows due, expected ${n}`);
    // K rounds, and one interval more for the last one (and the start of round K) to finish.
    const endAt = t0 + (rounds + 1) * intervalMs;
    // A progress line per interval; the last sleep ends at endAt (a timer may fire a little early:
    // what is left below 50 ms is not another interval).
    while (endAt - now() > 50) {
      await sleep(Math.min(intervalMs, endAt - now()));
      const gone = services.find((s) => s.handle.exitInfo);
      if (gone) throw new Error(`${gone.handle.name} exited (${JSON.stringify(gone.handle.exitInfo)})`);
      const s = counter.stats;
      log(
        `  after ${((now() - t0) / 1000).toFixed(0).padStart(4)} s: ${s.byInstance.reduce((a, b) => a + b, s.unattributed)} checks ` +
          `(${s.byInstance.map((c, k) => `instance ${k + 1}: ${c}`).join(', ')}${s.unattributed ? `, unattributed ${s.unattributed}` : ''}), ` +
          `${s.posts} POSTs to the RPC URL`,
      );
    }
    const cpu1 = snapshot(roles);
    const peaks = samplers.map((sampler) => sampler.stop());
    const runS = (cpu1.at - cpu0.at) / 1000;
    const cpu = cpuSeconds(cpu0, cpu1, roles);
    const analysis = analyseChecks(counter.times, t0, intervalMs, rounds);
    const s = counter.stats;
    Object.assign(result, analysis, {
      runSeconds: runS,
      rpc: {
        posts: s.posts,
        calls: s.calls,
        largestBatch: s.largestBatch,
        unparsed: s.unparsed,
        unknownAddresses: s.unknownAddresses,
      },
      instanceStats: services.map((svc, k) => ({
        checks: s.byInstance[k],
        cpuSeconds: cpu[`instance${k + 1}`],
        cores: cpu[`instance${k + 1}`] / runS,
        cpuMsPerCheck: s.byInstance[k] ? (cpu[`instance${k + 1}`] * 1000) / s.byInstance[k] : null,
        rssBeforeMb: mb(rssBefore[k]),
        peakRssMb: mb(peaks[k]),
        alive: svc.handle.exitInfo === null,
      })),
      unattributedChecks: s.unattributed,
      // All the instances' CPU over all the checks: what a check costs the fleet.
      fleetCpuMsPerCheck: analysis.checks
        ? (services.reduce((sum, _, k) => sum + cpu[`instance${k + 1}`], 0) * 1000) / analysis.checks
        : null,
      anvil: { ...result.anvil, cores: cpu.anvil / runS, cpuSeconds: cpu.anvil },
      proxy: { cores: cpu.bench / runS, cpuSeconds: cpu.bench },
      databaseServer:
        cpu.database === undefined ? null : { cores: cpu.database / runS, cpuSeconds: cpu.database },
      foreignCores: cpu.foreignCores,
      disabledAfter: await database.disabled(),
    });
    reportLines(result, log);
  } catch (error) {
    log(`  FAILED: ${error.message}`);
    result.failed = error.message;
  } finally {
    for (const s of services) await stopProcess(s.handle);
    await stopProcess(anvil.handle);
    await proxy.close();
    await database?.close();
    if (db.drop) await db.drop();
  }
  result.finishedAt = new Date().toISOString();
  return result;
}

/** The console lines of a finished run (health-fleet-report.mjs writes the same as markdown). */
function reportLines(r, log) {
  const c = r.checksPerRelayer;
  const byCount = Object.entries(c.relayersByCount)
    .map(([k, v]) => `${v} relayers ${k}`)
    .join(', ');
  log(
    `  ${'checks per relayer'.padEnd(26)} min ${c.min}, max ${c.max} (${byCount}; expected ${c.expected.join(' or ')}); ` +
      `${r.checks} checks in ${r.runSeconds.toFixed(0)} s, ${r.rpc.posts} POSTs of up to ${r.rpc.largestBatch} calls` +
      (r.rpc.unknownAddresses ? `, ${r.rpc.unknownAddresses} calls for unknown addresses` : ''),
  );
  log(
    `  ${'once per round'.padEnd(26)} smallest gap between two checks of a relayer ${r.gaps.smallestSeconds?.toFixed(2) ?? '–'} s ` +
      `(interval ${r.intervalSeconds} s); ${r.gaps.relayersWithShortGap} relayers with a gap < ${r.gaps.shortBelowSeconds.toFixed(1)} s`,
  );
  for (const round of r.roundStats) {
    log(
      `  ${`round ${round.round}${round.complete ? '' : ' (margin)'}`.padEnd(26)} ${round.relayers} relayers, ` +
        `first to last ${round.firstToLastSeconds.toFixed(1)} s (${round.withinInterval ? 'within' : 'LONGER than'} the interval), ` +
        `${round.firstAfterSeconds.toFixed(1)}-${round.lastAfterSeconds.toFixed(1)} s after t0; lag behind due ` +
        `p50 ${round.lagSeconds.p50.toFixed(2)} s, p99 ${round.lagSeconds.p99.toFixed(2)} s, max ${round.lagSeconds.max.toFixed(2)} s`,
    );
  }
  r.instanceStats.forEach((i, k) => {
    log(
      `  ${`instance ${k + 1}`.padEnd(26)} ${i.checks} checks, ${i.cores.toFixed(2)} cores (${i.cpuMsPerCheck?.toFixed(2) ?? '–'} ms/check), ` +
        `peak RSS ${i.peakRssMb?.toFixed(0)} MB (${i.rssBeforeMb?.toFixed(0)} MB before)${i.alive ? '' : '; EXITED'}`,
    );
  });
  log(
    `  ${'fleet'.padEnd(26)} ${r.fleetCpuMsPerCheck?.toFixed(2) ?? '–'} ms/check over the ${r.instances} instances` +
      (r.unattributedChecks ? ` (${r.unattributedChecks} checks not attributed to an instance)` : '') +
      `; mysql ${r.databaseServer ? `${r.databaseServer.cores.toFixed(2)} cores` : '–'}, anvil ${r.anvil.cores.toFixed(2)} cores, ` +
      `the bench process (proxy) ${r.proxy.cores.toFixed(2)} cores, ` +
      `others ${r.foreignCores?.toFixed(2)}; disabled ${r.disabledAfter}`,
  );
}
