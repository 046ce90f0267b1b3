// One load run with autocannon: closed loop, N keep-alive connections, fixed duration. Latency
// percentiles come from every response's own time (sub-millisecond, from autocannon's 'response'
// event) rather than autocannon's 1 ms histogram, so fast baselines are not rounded.
import autocannon from 'autocannon';
import { performance } from 'node:perf_hooks';
import os from 'node:os';
import { cpuSnapshot, cpuUsage, sampleRss } from './proc.mjs';

const running = new Set();

/** Stops every load run in progress (on a fatal error or a signal). */
export function stopAllLoad() {
  for (const instance of running) instance.stop();
}

export function percentile(sorted, p) {
  if (sorted.length === 0) return null;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank];
}

export function latencySummary(values) {
  const sorted = Float64Array.from(values).sort();
  let sum = 0;
  for (const v of sorted) sum += v;
  return {
    count: sorted.length,
    mean: sorted.length ? sum / sorted.length : null,
    p50: percentile(sorted, 50),
    p90: percentile(sorted, 90),
    p99: percentile(sorted, 99),
    max: sorted.length ? sorted[sorted.length - 1] : null,
  };
}

/**
 * Runs `requests` (autocannon request objects; setupRequest allowed) against `url` for
 * `durationS` seconds (or `amount` requests) on `connections` connections, sampling the RSS of `pid`
 * meanwhile.
 * Returns the numbers and the raw latencies (ms) for merging.
 */
export async function runLoad({
  url,
  connections,
  durationS,
  amount,
  requests,
  pid,
  otherPids = {},
  timeoutS = 10,
  shouldStop = () => false,
}) {
  const latencies = [];
  const firstLatencies = [];
  const perClient = new Map();
  let stopped = false;
  const statusCodes = {};
  const rss = pid ? sampleRss(pid) : null;
  // CPU: the target, the load generator (this process), the other named processes, and the rest.
  const roles = { target: pid, generator: process.pid, ...otherPids };
  const cpuBefore = cpuSnapshot(Object.values(roles));
  const started = performance.now();
  const instance = autocannon({
    url,
    connections,
    // A fixed number of requests instead of a duration, when given (autocannon then ignores duration).
    ...(amount ? { amount } : { duration: durationS }),
    requests,
    timeout: timeoutS,
    // The bench reads latencies from the events below; autocannon's own table is not printed.
    renderProgressBar: false,
    renderResultsTable: false,
    renderLatencyTable: false,
  });
  running.add(instance);
  instance.on('response', (client, statusCode, _bytes, responseTime) => {
    // A connection's first answer also waits for the connection to be accepted, which a saturated
    // server does late (measured: up to ~1 s). Kept apart, so that p50/p99 describe the steady state.
    const seen = perClient.get(client) ?? 0;
    perClient.set(client, seen + 1);
    if (seen === 0) firstLatencies.push(responseTime);
    else latencies.push(responseTime);
    if (!stopped && shouldStop()) {
      stopped = true;
      instance.stop();
    }
    statusCodes[statusCode] = (statusCodes[statusCode] ?? 0) + 1;
  });
  let result;
  try {
    result = await instance;
  } finally {
    running.delete(instance);
  }
  const elapsedS = (performance.now() - started) / 1000;
  const usage = cpuUsage(cpuBefore, cpuSnapshot(Object.values(roles)), os.cpus().length);
  const cpu = usage && {
    machine: usage.machine,
    foreign: usage.foreign,
    ...Object.fromEntries(
      Object.entries(roles)
        .filter(([, p]) => p)
        .map(([role, p]) => [role, usage.perPid[p] ?? 0]),
    ),
  };
  const peakRss = rss ? rss.stop() : null;
  let ok = 0;
  for (const [code, count] of Object.entries(statusCodes))
    if (Number(code) >= 200 && Number(code) < 300) ok += count;
  const responses = latencies.length + firstLatencies.length;
  const durationS2 = result.duration || elapsedS;
  return {
    stoppedEarly: stopped,
    durationS: durationS2,
    responses,
    ok,
    rps: ok / durationS2,
    non2xx: responses - ok,
    errors: result.errors,
    timeouts: result.timeouts,
    resets: result.resets ?? 0,
    statusCodes,
    latency: latencySummary(latencies),
    latencyAll: latencySummary([...latencies, ...firstLatencies]),
    firstOnConnection: latencySummary(firstLatencies),
    peakRssBytes: peakRss,
    cpu,
    // CPU time of the target per answered request: less sensitive than req/s to other load.
    cpuMsPerRequest: cpu && responses ? (cpu.target * elapsedS * 1000) / responses : null,
    latencies,
    firstLatencies,
  };
}
