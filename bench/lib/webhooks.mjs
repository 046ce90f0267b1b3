// The webhook scenarios of `npm run bench`: how fast one instance delivers to a local receiver, and
// what the transactional outbox adds to POST and PATCH relayer. run.mjs calls benchWebhooks() once
// per database with its own plumbing (ctx); see docs/benchmark-results.md, "Webhook deliveries and the outbox".
//
// webhook-deliveries  one service, one receiver (bench/lib/receiver.mjs, a child process answering 200
//                     at once), one notification target with a signing key. "live": N relayers created
//                     with notification_id as fast as the API takes them (N requests on the usual
//                     connections), the receiver timing every arrival, until the outbox is empty.
//                     "backlog": the receiver holds the first delivery unanswered (a target that is
//                     down), N PATCHes queue N deliveries, then the receiver answers and the
//                     dispatcher drains the backlog with no API load: its own rate, and its CPU.
//                     "backlog across targets": the same with --webhook-targets (50) targets of their
//                     own, the PATCHed relayers spread evenly over them (one relayer names one target).
// outbox-post         POST /relayers with notification_id vs without, same service, same database,
// outbox-patch        PATCH /relayers/{id} of relayers that have one vs relayers that have none;
//                     runs alternated with, without, without, with; CPU per request counted over the
//                     run and then until the outbox is empty again (the dispatching it caused).
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { commitLatencyMs, openOutboxProbe, pairAt, seedId, seedMysql, seedSqlite } from './data.mjs';
import { latencySummary, percentile, runLoad } from './load.mjs';
import {
  cpuSnapshot,
  cpuUsage,
  freePort,
  httpRequest,
  startProcess,
  stopProcess,
  waitReady,
} from './proc.mjs';

export const WEBHOOK_SCENARIOS = [
  { id: 'webhook-deliveries', label: 'Webhook deliveries, one instance, one local receiver' },
  { id: 'outbox-post', label: 'POST /relayers, notification_id set vs not set' },
  { id: 'outbox-patch', label: 'PATCH /relayers/{id}, relayer with vs without notification_id' },
];

const API = '/api/v1';
const now = () => performance.timeOrigin + performance.now();
const SIGNING_KEY = 'bench-signing-key-0123456789abcdef0123456789';
/** Seeded relayers 1..PATCH_ROWS name the notification; PATCH_ROWS+1..2*PATCH_ROWS name none. */
const PATCH_ROWS = 1000;

async function startReceiver(ctx) {
  const port = await freePort();
  const handle = startProcess({
    name: 'webhook receiver',
    command: process.execPath,
    args: [path.join(import.meta.dirname, 'receiver.mjs')],
    cwd: ctx.work,
    outputFile: path.join(ctx.work, `receiver-${port}.out`),
    env: { PATH: process.env.PATH, PORT: String(port), HOST: '127.0.0.1' },
  });
  ctx.cleanups.push(() => stopProcess(handle));
  const url = `http://127.0.0.1:${port}`;
  await waitReady(handle, `${url}/__stats`, { timeoutMs: 20_000 });
  const control = async (method, what) => {
    const answer = await httpRequest(url, { method, path: `/__${what}` });
    if (answer.status !== 200) throw new Error(`receiver /__${what}: ${answer.status} ${answer.body}`);
    return JSON.parse(answer.body);
  };
  return {
    handle,
    url,
    stats: () => control('GET', 'stats'),
    arrivals: (from = 0) => control('GET', `arrivals?from=${from}`),
    hold: () => control('POST', 'hold'),
    release: () => control('POST', 'release'),
    reset: () => control('POST', 'reset'),
  };
}

/** CPU seconds each pid used between two snapshots (cores x seconds). */
function cpuSeconds(before, after, pids) {
  const usage = cpuUsage(before, after, os.cpus().length);
  const seconds = (after.at - before.at) / 1000;
  const out = {};
  for (const [role, pid] of Object.entries(pids)) if (pid) out[role] = (usage?.perPid[pid] ?? 0) * seconds;
  out.foreignCores = usage?.foreign ?? null;
  return out;
}

function snapshot(pids) {
  return { ...cpuSnapshot(Object.values(pids).filter(Boolean)), at: performance.now() };
}

const mean = (xs) => {
  const v = xs.filter((x) => typeof x === 'number' && Number.isFinite(x));
  return v.length ? v.reduce((a, b) => a + b, 0) / v.length : null;
};

/**
 * Runs the selected webhook scenarios on one database: a fresh database and service of their own,
 * so the main scenarios' rows and the outbox do not meet. Returns the section's `webhooks` entry.
 */
export async function benchWebhooks(ctx, kind, selected) {
  const { options, log } = ctx;
  const result = {
    startedAt: new Date().toISOString(),
    events: options.webhookEvents,
    connections: options.connections,
    durationS: options.durationS,
    warmupS: options.warmupS,
  };
  const receiver = await startReceiver(ctx);
  const db = await ctx.freshDatabase('webhooks');
  // The timeout only matters to the backlog phase: the held delivery must stay in flight while the
  // backlog is written. Attempts and retry base keep their defaults (nothing fails here). Health
  // checks off: they would probe the relayers' (made-up) RPC URLs, disable the relayers and send
  // relayer_state_update events of their own to the same receiver.
  const serviceEnv = { WEBHOOK_TIMEOUT_MS: '120000', RELAYER_HEALTH_CHECKS: 'false' };
  const service = await ctx.startService({
    databaseUrl: db.url,
    catalogue: ctx.catalogues.big,
    label: `${kind}-webhooks`,
    env: serviceEnv,
  });
  result.serviceEnv = serviceEnv;
  const probe = await openOutboxProbe(kind, db);
  ctx.cleanups.push(() => probe.close());
  const pids = {
    service: service.handle.pid,
    receiver: receiver.handle.pid,
    generator: process.pid,
    ...(kind === 'mysql' && ctx.databaseServerPid ? { database: ctx.databaseServerPid } : {}),
  };

  const created = await httpRequest(service.url, {
    method: 'POST',
    path: `${API}/notifications`,
    headers: ctx.JSON_HEADERS,
    body: JSON.stringify({ url: `${receiver.url}/hooks/bench`, signing_key: SIGNING_KEY }),
  });
  if (created.status !== 201) throw new Error(`POST /notifications: ${created.status} ${created.body}`);
  const notificationId = JSON.parse(created.body).data.id;

  // Relayers for the PATCH phases, written with SQL like the main scenarios' seed rows.
  const seed = kind === 'sqlite' ? seedSqlite.bind(null, db.file) : seedMysql.bind(null, db.url);
  await seed(1, PATCH_ROWS, { notificationId });
  await seed(PATCH_ROWS + 1, 2 * PATCH_ROWS);

  // The targets of the "backlog across targets" phase, each named by PATCH_ROWS / targets relayers.
  const spread = selected.includes('webhook-deliveries') ? options.webhookTargets : 0;
  const perTarget = Math.max(1, Math.floor(PATCH_ROWS / Math.max(1, spread)));
  for (let t = 0; t < spread; t++) {
    const target = await httpRequest(service.url, {
      method: 'POST',
      path: `${API}/notifications`,
      headers: ctx.JSON_HEADERS,
      body: JSON.stringify({ url: `${receiver.url}/hooks/bench-${t}`, signing_key: SIGNING_KEY }),
    });
    if (target.status !== 201) throw new Error(`POST /notifications: ${target.status} ${target.body}`);
    const first = 2 * PATCH_ROWS + 1 + t * perTarget;
    await seed(first, first + perTarget - 1, { notificationId: JSON.parse(target.body).data.id });
  }

  // Every POST takes the next free (signer, network) pair of the catalogue, across all phases.
  const pairs = { n: 0 };
  const relayerBody = (withTarget) => {
    const k = pairs.n++;
    return JSON.stringify({
      name: `Webhook bench relayer ${k}`,
      ...pairAt(k, options.signers),
      paused: false,
      ...(withTarget ? { notification_id: notificationId } : {}),
    });
  };
  const patchCounter = { n: 0 };
  /** withTarget: a relayer naming the target; false: one naming none; 'spread': one of the spread targets'. */
  const patchRequest = (withTarget) => {
    const n = patchCounter.n++;
    const row =
      withTarget === 'spread'
        ? (n % (spread * perTarget)) + 1 + 2 * PATCH_ROWS
        : (n % PATCH_ROWS) + 1 + (withTarget ? 0 : PATCH_ROWS);
    return {
      method: 'PATCH',
      path: `${API}/relayers/${seedId(row)}`,
      headers: ctx.JSON_HEADERS,
      body: JSON.stringify({ name: `patched ${n}`, policies: { min_balance: 1000 + n } }),
    };
  };
  const postRequest = (withTarget) => ({
    method: 'POST',
    path: `${API}/relayers`,
    headers: ctx.JSON_HEADERS,
    body: relayerBody(withTarget),
  });

  /**
   * Waits until the outbox has nothing pending and the receiver got every row written since
   * `totalBefore` (stable for 300 ms: requests that were in flight when the load stopped commit
   * late). Resolves with the receiver's stats and the row counts; fails when nothing moves for
   * `stuckMs`.
   */
  const waitDrained = async (totalBefore, receivedBefore, stuckMs = 120_000) => {
    let confirmed = null;
    let progress = null;
    let progressAt = performance.now();
    for (;;) {
      const { pending } = await probe.counts(false);
      const received = (await receiver.stats()).count;
      if (progress === null || progress.pending !== pending || progress.received !== received) {
        progress = { pending, received };
        progressAt = performance.now();
      } else if (performance.now() - progressAt > stuckMs) {
        throw new Error(
          `the outbox is stuck: ${pending} pending deliveries, ${received - receivedBefore} received, ` +
            `nothing changed for ${stuckMs / 1000} s`,
        );
      }
      if (pending === 0) {
        const counts = await probe.counts(true);
        const stats = await receiver.stats();
        const done = stats.count - receivedBefore >= counts.total - totalBefore && counts.pending === 0;
        if (done && confirmed && confirmed.counts.total === counts.total) return { stats, counts };
        confirmed = done ? { counts } : null;
        await sleep(done ? 300 : 50);
        continue;
      }
      confirmed = null;
      await sleep(50);
    }
  };

  const requestsOf = (make) => [
    {
      setupRequest: (req) => {
        const r = make();
        return { ...req, ...r, headers: { ...req.headers, ...(r.headers ?? {}) } };
      },
    },
  ];

  try {
    if (selected.includes('webhook-deliveries')) {
      log(
        `${kind}: webhook-deliveries (${options.webhookEvents.toLocaleString('en-US')} events, live then backlog)`,
      );
      // What one target's drain is bound by: its deliveries go out at most one per commit.
      const commitMs = await commitLatencyMs(kind, db);
      log(
        `  one commit takes ${commitMs.toFixed(2)} ms (median of 300): one target's floor is ${(1000 / commitMs).toFixed(0)}/s`,
      );
      result.deliveries = {
        commitMs,
        live: await livePhase(),
        backlog: await backlogPhase(true),
        ...(spread > 0 ? { backlogAcross: { targets: spread, ...(await backlogPhase('spread')) } } : {}),
      };
    }
    for (const id of ['outbox-post', 'outbox-patch']) {
      if (!selected.includes(id)) continue;
      log(`${kind}: ${id} (notification_id set vs not set, same service and database)`);
      result[id === 'outbox-post' ? 'outboxPost' : 'outboxPatch'] = await outboxCost(
        id,
        id === 'outbox-post' ? postRequest : patchRequest,
        id === 'outbox-post' ? 201 : 200,
      );
    }
    const end = await probe.counts(true);
    const stats = await receiver.stats();
    result.outboxAtEnd = end;
    result.receiverAtEnd = { count: stats.count, duplicates: stats.duplicates };
  } catch (error) {
    log(`  FAILED: ${error.message}`);
    result.failed = error.message;
  } finally {
    result.serviceAliveAtEnd =
      (await httpRequest(service.url, { path: `${API}/health` }).catch(() => null))?.status === 200;
    await stopProcess(service.handle);
    await stopProcess(receiver.handle);
    await probe.close();
    if (db.drop) await db.drop();
  }
  result.finishedAt = new Date().toISOString();
  return result;

  // -------------------------------------------------------------------------------------------------------

  /** N creates with notification_id at full speed, the receiver answering at once. */
  async function livePhase() {
    await receiver.reset();
    const before = await probe.counts(true);
    const quiet = await ctx.waitQuiet([service.handle.pid, receiver.handle.pid]);
    const cpu0 = snapshot(pids);
    const startedAt = now();
    const load = await runLoad({
      url: service.url,
      connections: options.connections,
      amount: options.webhookEvents,
      requests: requestsOf(() => postRequest(true)),
      pid: service.handle.pid,
      otherPids: { receiver: receiver.handle.pid, ...(pids.database ? { database: pids.database } : {}) },
    });
    const apiDoneAt = now();
    const cpu1 = snapshot(pids);
    const { stats, counts } = await waitDrained(before.total, 0);
    const cpu2 = snapshot(pids);
    const { arrivals, ages } = await receiver.arrivals();
    const rows = counts.total - before.total;
    const deliveredDuringLoad = arrivals.filter((t) => t <= apiDoneAt).length;
    const sortedAges = Float64Array.from(ages.filter((a) => a !== null)).sort();
    const loadCpu = cpuSeconds(cpu0, cpu1, pids);
    const drainCpu = cpuSeconds(cpu1, cpu2, pids);
    const out = {
      requests: load.responses,
      created: load.statusCodes['201'] ?? 0,
      non2xx: load.non2xx,
      errors: load.errors + load.timeouts,
      rowsWritten: rows,
      received: stats.count,
      duplicates: stats.duplicates,
      outOfOrderPerRelayer: stats.outOfOrderPerRelayer,
      failed: counts.failed - before.failed,
      apiSeconds: (apiDoneAt - startedAt) / 1000,
      apiRps: load.responses / ((apiDoneAt - startedAt) / 1000),
      apiLatency: { p50: load.latency.p50, p99: load.latency.p99 },
      firstDeliveryAfterStartMs: stats.firstAt - startedAt,
      deliveriesPerSecond:
        stats.count > 1 ? ((stats.count - 1) * 1000) / (stats.lastAt - stats.firstAt) : null,
      deliveredDuringLoad,
      backlogAtApiEnd: rows - deliveredDuringLoad,
      drainAfterApiMs: Math.max(0, stats.lastAt - apiDoneAt),
      drainRate:
        stats.lastAt > apiDoneAt
          ? ((stats.count - deliveredDuringLoad) * 1000) / (stats.lastAt - apiDoneAt)
          : null,
      totalSeconds: (stats.lastAt - startedAt) / 1000,
      eventAgeMs: {
        p50: percentile(sortedAges, 50),
        p90: percentile(sortedAges, 90),
        p99: percentile(sortedAges, 99),
        max: sortedAges.length ? sortedAges[sortedAges.length - 1] : null,
      },
      cpuSeconds: { load: loadCpu, drain: drainCpu },
      serviceCpuMsPerEvent: ((loadCpu.service + drainCpu.service) * 1000) / Math.max(1, stats.count),
      quietWait: quiet,
      gaps: gapSummary(arrivals),
      rateTimeline: timeline(arrivals, startedAt),
    };
    log(
      `  live     ${out.created} created in ${out.apiSeconds.toFixed(1)} s (${out.apiRps.toFixed(0)} req/s); ` +
        `${out.received} received, ${out.deliveriesPerSecond?.toFixed(0)} deliveries/s first to last; ` +
        `${out.deliveredDuringLoad} during the load, backlog ${out.backlogAtApiEnd} drained in ` +
        `${(out.drainAfterApiMs / 1000).toFixed(1)} s; event age p50 ${out.eventAgeMs.p50?.toFixed(0)} ms, ` +
        `max ${out.eventAgeMs.max?.toFixed(0)} ms; duplicates ${out.duplicates}, failed ${out.failed}`,
    );
    return out;
  }

  /**
   * The receiver holds the first delivery (of each target); N PATCHes queue up; then it answers and
   * the backlog drains. `target`: patchRequest's choice of relayers.
   */
  async function backlogPhase(target) {
    await receiver.reset();
    await receiver.hold();
    const before = await probe.counts(true);
    await ctx.waitQuiet([service.handle.pid, receiver.handle.pid]);
    const load = await runLoad({
      url: service.url,
      connections: options.connections,
      amount: options.webhookEvents,
      requests: requestsOf(() => patchRequest(target)),
      pid: service.handle.pid,
    });
    // Every change committed and pending (the first one in flight, held by the receiver).
    const expected = load.statusCodes['200'] ?? 0;
    for (let i = 0; ; i++) {
      const c = await probe.counts(true);
      if (c.total - before.total >= expected) break;
      if (i > 200) throw new Error(`backlog: ${c.total - before.total} rows written, ${expected} expected`);
      await sleep(50);
    }
    const held = await receiver.stats();
    const queued = await probe.counts(true);
    const quiet = await ctx.waitQuiet([service.handle.pid, receiver.handle.pid]);
    const cpu0 = snapshot(pids);
    const releasedAt = now();
    await receiver.release();
    const { stats, counts } = await waitDrained(before.total, 0);
    const cpu1 = snapshot(pids);
    const cpu = cpuSeconds(cpu0, cpu1, pids);
    const { arrivals } = await receiver.arrivals();
    const drainS = (stats.lastAt - releasedAt) / 1000;
    const out = {
      patches: load.responses,
      updated: expected,
      non2xx: load.non2xx,
      errors: load.errors + load.timeouts,
      heldAtRelease: held.held,
      pendingAtRelease: queued.pending,
      received: stats.count,
      duplicates: stats.duplicates,
      outOfOrderPerRelayer: stats.outOfOrderPerRelayer,
      failed: counts.failed - before.failed,
      drainSeconds: drainS,
      deliveriesPerSecond: stats.count / drainS,
      cpuSeconds: cpu,
      // The dispatcher alone: no API load during the drain.
      serviceCpuMsPerDelivery: (cpu.service * 1000) / Math.max(1, stats.count),
      databaseCpuMsPerDelivery: cpu.database === undefined ? null : (cpu.database * 1000) / stats.count,
      receiverCpuMsPerDelivery: (cpu.receiver * 1000) / Math.max(1, stats.count),
      serviceCores: cpu.service / drainS,
      databaseCores: cpu.database === undefined ? null : cpu.database / drainS,
      quietWait: quiet,
      gaps: gapSummary(arrivals),
      rateTimeline: timeline(arrivals, releasedAt),
    };
    log(
      `  backlog${target === 'spread' ? ` across ${spread} targets` : ''}  ${out.pendingAtRelease} pending at release, ${out.received} received in ${drainS.toFixed(1)} s: ` +
        `${out.deliveriesPerSecond.toFixed(0)} deliveries/s; service ${out.serviceCpuMsPerDelivery.toFixed(2)} CPU ms per delivery` +
        (out.databaseCpuMsPerDelivery !== null ? `, mysql ${out.databaseCpuMsPerDelivery.toFixed(2)}` : '') +
        ` (${out.serviceCores.toFixed(2)} cores); longest gap ${out.gaps.maxMs?.toFixed(0)} ms; duplicates ${out.duplicates}, failed ${out.failed}`,
    );
    return out;
  }

  /** with / without notification_id, alternated; CPU over each run and the drain it caused. */
  async function outboxCost(id, make, expect) {
    for (const withTarget of [true, false]) {
      const r = make(withTarget);
      const answer = await httpRequest(service.url, r);
      if (answer.status !== expect) {
        throw new Error(
          `${id}: ${r.method} ${r.path} answered ${answer.status}: ${answer.body.slice(0, 300)}`,
        );
      }
    }
    const runs = { with: [], without: [] };
    const latencies = { with: [], without: [] };
    const warmups = {};
    const one = async (variant, durationS, warmup) => {
      const withTarget = variant === 'with';
      const before = await probe.counts(true);
      const receivedBefore = (await receiver.stats()).count;
      const quiet = warmup ? null : await ctx.waitQuiet([service.handle.pid, receiver.handle.pid]);
      const cpu0 = snapshot(pids);
      const load = await runLoad({
        url: service.url,
        connections: options.connections,
        durationS,
        requests: requestsOf(() => make(withTarget)),
        pid: service.handle.pid,
        otherPids: { receiver: receiver.handle.pid, ...(pids.database ? { database: pids.database } : {}) },
      });
      const loadEndedAt = now();
      const cpu1 = snapshot(pids);
      const { stats, counts } = await waitDrained(before.total, receivedBefore);
      const cpu2 = snapshot(pids);
      const loadCpu = cpuSeconds(cpu0, cpu1, pids);
      const allCpu = cpuSeconds(cpu0, cpu2, pids);
      const n = Math.max(1, load.responses);
      const run = {
        rps: load.rps,
        responses: load.responses,
        non2xx: load.non2xx,
        errors: load.errors + load.timeouts,
        latency: load.latency,
        deliveries: counts.total - before.total,
        received: stats.count - receivedBefore,
        drainMs: stats.count > receivedBefore ? Math.max(0, stats.lastAt - loadEndedAt) : 0,
        cpuMsPerRequest: (loadCpu.service * 1000) / n,
        cpuMsPerRequestWithDrain: (allCpu.service * 1000) / n,
        databaseCpuMsPerRequestWithDrain: allCpu.database === undefined ? null : (allCpu.database * 1000) / n,
        serviceCores: load.cpu?.target ?? null,
        generatorCores: load.cpu?.generator ?? null,
        foreignCores: load.cpu?.foreign ?? null,
        quietWait: quiet,
      };
      if (warmup) {
        warmups[variant] = { rps: run.rps, non2xx: run.non2xx };
        return;
      }
      runs[variant].push(run);
      for (const v of load.latencies) latencies[variant].push(v);
      log(
        `  ${id.padEnd(13)} ${variant.padEnd(8)} ${run.rps.toFixed(0).padStart(6)} req/s  p50 ${run.latency.p50?.toFixed(2)} ms` +
          `  p99 ${run.latency.p99?.toFixed(2)} ms  non-2xx ${run.non2xx}  cpu ${run.cpuMsPerRequest.toFixed(3)} ms/req` +
          ` (with drain ${run.cpuMsPerRequestWithDrain.toFixed(3)}` +
          (run.databaseCpuMsPerRequestWithDrain !== null
            ? `, mysql ${run.databaseCpuMsPerRequestWithDrain.toFixed(3)}`
            : '') +
          `)  deliveries ${run.received}, drained ${(run.drainMs / 1000).toFixed(1)} s after the load`,
      );
    };
    await one('with', options.warmupS, true);
    await one('without', options.warmupS, true);
    for (const variant of ['with', 'without', 'without', 'with'])
      await one(variant, options.durationS, false);
    const summary = (variant) => {
      const rs = runs[variant];
      return {
        rps: mean(rs.map((r) => r.rps)),
        latency: latencySummary(latencies[variant]),
        requests: rs.reduce((s, r) => s + r.responses, 0),
        non2xx: rs.reduce((s, r) => s + r.non2xx + r.errors, 0),
        deliveries: rs.reduce((s, r) => s + r.received, 0),
        drainMs: mean(rs.map((r) => r.drainMs)),
        cpuMsPerRequest: mean(rs.map((r) => r.cpuMsPerRequest)),
        cpuMsPerRequestWithDrain: mean(rs.map((r) => r.cpuMsPerRequestWithDrain)),
        databaseCpuMsPerRequestWithDrain: mean(rs.map((r) => r.databaseCpuMsPerRequestWithDrain)),
        foreignCoresMax: Math.max(0, ...rs.map((r) => r.foreignCores ?? 0)),
        generatorCoresMax: Math.max(0, ...rs.map((r) => r.generatorCores ?? 0)),
        warmup: warmups[variant],
        runs: rs,
      };
    };
    const w = summary('with');
    const wo = summary('without');
    const diff = (key) => (w[key] !== null && wo[key] !== null ? w[key] - wo[key] : null);
    return {
      with: w,
      without: wo,
      rpsRatio: w.rps / wo.rps,
      added: {
        cpuMsPerRequest: diff('cpuMsPerRequest'),
        cpuMsPerRequestWithDrain: diff('cpuMsPerRequestWithDrain'),
        databaseCpuMsPerRequestWithDrain: diff('databaseCpuMsPerRequestWithDrain'),
      },
    };
  }
}

/** Deliveries per second in each 1 s bucket from `from` (epoch ms) to the last arrival. */
function timeline(arrivals, from) {
  if (arrivals.length === 0) return [];
  const buckets = new Array(Math.max(1, Math.ceil((arrivals[arrivals.length - 1] - from) / 1000))).fill(0);
  for (const t of arrivals)
    buckets[Math.min(buckets.length - 1, Math.max(0, Math.floor((t - from) / 1000)))]++;
  return buckets;
}

/** The dispatcher's batch (src/webhooks/delivery-dispatcher.ts): it claims this many rows, then sends them. */
const DISPATCH_BATCH = 32;

/**
 * Time between consecutive arrivals: the median, the longest (a stall of the dispatcher), and
 * where the long ones fall: the share of the longest 1/BATCH of the gaps that sit at one position
 * modulo the batch size (near 1 when each batch starts with a pause, e.g. its claims).
 */
function gapSummary(arrivals) {
  const gaps = [];
  for (let i = 1; i < arrivals.length; i++) gaps.push(arrivals[i] - arrivals[i - 1]);
  const sorted = Float64Array.from(gaps).sort();
  const longest = gaps
    .map((gap, i) => [gap, i + 1])
    .sort((a, b) => b[0] - a[0])
    .slice(0, Math.max(1, Math.floor(gaps.length / DISPATCH_BATCH)));
  const residues = new Map();
  for (const [, i] of longest) residues.set(i % DISPATCH_BATCH, (residues.get(i % DISPATCH_BATCH) ?? 0) + 1);
  const top = Math.max(0, ...residues.values());
  const p50 = percentile(sorted, 50);
  return {
    p50Ms: p50,
    p99Ms: percentile(sorted, 99),
    maxMs: sorted.length ? sorted[sorted.length - 1] : null,
    over100Ms: gaps.filter((g) => g > 100).length,
    longestGaps: longest.length,
    longestGapsMeanMs: longest.length ? longest.reduce((sum, [g]) => sum + g, 0) / longest.length : null,
    longestGapsAtOneBatchPosition: longest.length ? top / longest.length : null,
    // Time in the long gaps vs in all of them: how much of the drain the batch pauses take.
    longestGapsShareOfTime:
      gaps.length && longest.length
        ? longest.reduce((sum, [g]) => sum + g, 0) / gaps.reduce((sum, g) => sum + g, 0)
        : null,
  };
}
