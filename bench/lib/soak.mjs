// Soak mode (`npm run bench -- --soak 600`): one service per database under a long mixed load (GET
// by id, PATCH, list pages, POST relayer) at a fixed request rate, with its RSS (/proc) and V8 heap
// (the service's own nodejs_heap_size_used_bytes, from /debug/metrics/scrape) sampled every
// --soak-interval seconds. The report is the series and the least-squares slope of RSS and heap
// used in MB per minute over the samples after the warm-up: a leak shows as a steady positive
// slope, a heap that settles at its working size as a slope near 0.
//
// The markdown half (soakMarkdown, hasSoak) has no dependencies beyond Node, so that report.mjs can
// rebuild the page without the database drivers; benchSoak imports them lazily.
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';

export const hasSoak = (results) => Object.values(results.databases ?? {}).some((s) => s?.soak);

/** The mixed load, one slot per request in turn: 5 reads by id, 2 patches, 2 list pages, 1 create. */
export const SOAK_MIX = ['get', 'patch', 'get', 'list', 'get', 'create', 'get', 'patch', 'get', 'list'];

/** Least-squares slope of y over x (null with fewer than 2 points or no spread in x). */
export function leastSquaresSlope(points) {
  const n = points.length;
  if (n < 2) return null;
  let sx = 0;
  let sy = 0;
  for (const [x, y] of points) {
    sx += x;
    sy += y;
  }
  const mx = sx / n;
  const my = sy / n;
  let sxy = 0;
  let sxx = 0;
  for (const [x, y] of points) {
    sxy += (x - mx) * (y - my);
    sxx += (x - mx) ** 2;
  }
  return sxx > 0 ? sxy / sxx : null;
}

/** The seconds kept out of the slope: 2 minutes, or a third of a shorter soak. */
export function soakWarmupS(durationS) {
  return Math.min(120, Math.floor(durationS / 3));
}

/** Slopes (MB per minute) of RSS and heap used over the samples at or after `warmupS`. */
export function soakSlopes(samples, warmupS) {
  const after = samples.filter((s) => s.t >= warmupS);
  const series = (key) => after.filter((s) => typeof s[key] === 'number').map((s) => [s.t / 60, s[key]]);
  return {
    samplesAfterWarmup: after.length,
    rssMBPerMin: leastSquaresSlope(series('rssMB')),
    heapUsedMBPerMin: leastSquaresSlope(series('heapUsedMB')),
  };
}

function promValue(text, name) {
  const m = new RegExp(`^${name}(?:\\{[^}]*\\})?\\s+(\\S+)`, 'm').exec(text);
  return m ? Number(m[1]) : null;
}

/**
 * One soak on `kind`: a fresh database with 1,000 seeded relayers, the service with the bench's
 * settings, then `options.soakS` seconds of SOAK_MIX at `options.soakRate` requests per second.
 * ctx: the pieces of run.mjs (options, log, cleanups, catalogues, freshDatabase, startService,
 * AUTH, JSON_HEADERS).
 */
export async function benchSoak(ctx, kind) {
  const { options, log } = ctx;
  const [{ default: autocannon }, data, proc] = await Promise.all([
    import('autocannon'),
    import('./data.mjs'),
    import('./proc.mjs'),
  ]);
  const durationS = options.soakS;
  const intervalS = options.soakIntervalS;
  const warmupS = soakWarmupS(durationS);
  const rows = options.listSmall;
  const out = {
    durationS,
    intervalS,
    warmupS,
    rate: options.soakRate,
    connections: options.soakConnections,
    mix: SOAK_MIX,
    nodeFlags: options.nodeFlags,
  };
  log(
    `${kind}: soak, ${durationS} s of mixed load at ${options.soakRate || 'unlimited'} req/s on ${options.soakConnections} connections, ` +
      `samples every ${intervalS} s, slope after ${warmupS} s`,
  );
  let service = null;
  try {
    const db = await ctx.freshDatabase('soak');
    service = await ctx.startService({
      databaseUrl: db.url,
      catalogue: ctx.catalogues.big,
      label: `${kind}-soak`,
    });
    if (kind === 'sqlite') data.seedSqlite(db.file, 1, rows);
    else {
      await data.seedMysql(db.url, 1, rows);
      await data.analyzeMysql(db.url);
    }
    out.rssAtReadyMB = service.rssAtReady / 2 ** 20;

    const pairs = options.signers * 3;
    const counts = { get: 0, patch: 0, list: 0, create: 0, createsAsGet: 0 };
    let n = 0;
    const next = () => {
      let slot = SOAK_MIX[n++ % SOAK_MIX.length];
      if (slot === 'create' && counts.create >= pairs) {
        slot = 'get';
        counts.createsAsGet++;
      }
      counts[slot]++;
      const k = counts[slot];
      switch (slot) {
        case 'get':
          return {
            method: 'GET',
            path: `/api/v1/relayers/${data.seedId((k % rows) + 1)}`,
            headers: ctx.AUTH,
          };
        case 'list':
          return {
            method: 'GET',
            path: `/api/v1/relayers?page=${(k % 100) + 1}&per_page=10`,
            headers: ctx.AUTH,
          };
        case 'patch':
          return {
            method: 'PATCH',
            path: `/api/v1/relayers/${data.seedId((k % rows) + 1)}`,
            headers: ctx.JSON_HEADERS,
            body: JSON.stringify({ name: `soaked ${k}`, policies: { min_balance: 1000 + k } }),
          };
        default:
          return {
            method: 'POST',
            path: '/api/v1/relayers',
            headers: ctx.JSON_HEADERS,
            body: JSON.stringify({
              name: `Soak relayer ${k}`,
              ...data.pairAt(k - 1, options.signers),
              paused: false,
            }),
          };
      }
    };

    const samples = [];
    const started = performance.now();
    const sample = async () => {
      const t = (performance.now() - started) / 1000;
      const { rss } = proc.memoryOf(service.handle.pid);
      let heapUsedMB = null;
      let heapTotalMB = null;
      try {
        const r = await proc.httpRequest(service.url, {
          path: '/debug/metrics/scrape',
          headers: ctx.AUTH,
        });
        if (r.status === 200) {
          heapUsedMB = promValue(r.body, 'nodejs_heap_size_used_bytes') / 2 ** 20;
          heapTotalMB = promValue(r.body, 'nodejs_heap_size_total_bytes') / 2 ** 20;
        }
      } catch {
        // no heap numbers for this sample
      }
      samples.push({
        t: Math.round(t),
        rssMB: rss === null ? null : rss / 2 ** 20,
        heapUsedMB,
        heapTotalMB,
        requests: n,
      });
    };
    await sample();
    const statusCodes = {};
    const instance = autocannon({
      url: service.url,
      connections: options.soakConnections,
      duration: durationS,
      ...(options.soakRate > 0 ? { overallRate: options.soakRate } : {}),
      requests: [
        {
          setupRequest: (req) => {
            const r = next();
            return { ...req, ...r, headers: { ...req.headers, ...r.headers } };
          },
        },
      ],
      timeout: 10,
      renderProgressBar: false,
      renderResultsTable: false,
      renderLatencyTable: false,
    });
    ctx.cleanups.push(() => instance.stop());
    instance.on('response', (_client, statusCode) => {
      statusCodes[statusCode] = (statusCodes[statusCode] ?? 0) + 1;
    });
    const peak = proc.sampleRss(service.handle.pid, 1000);
    let done = false;
    const finished = instance.then((result) => {
      done = true;
      return result;
    });
    const sampler = (async () => {
      let k = 1;
      while (!done) {
        const wait = started + k * intervalS * 1000 - performance.now();
        await Promise.race([sleep(Math.max(0, wait)), finished]);
        if (done) break;
        await sample();
        const s = samples[samples.length - 1];
        log(
          `  ${String(s.t).padStart(4)} s  rss ${s.rssMB?.toFixed(1)} MB  heap used ${s.heapUsedMB?.toFixed(1) ?? '–'} MB` +
            `  of ${s.heapTotalMB?.toFixed(1) ?? '–'} MB  (${s.requests.toLocaleString('en-US')} requests)`,
        );
        k++;
      }
    })();
    const result = await finished;
    await sampler;
    await sample(); // the end of the load
    out.peakRssMB = peak.stop() / 2 ** 20;
    out.vmHwmMB = (proc.memoryOf(service.handle.pid).hwm ?? 0) / 2 ** 20;
    const ok = Object.entries(statusCodes)
      .filter(([code]) => Number(code) >= 200 && Number(code) < 300)
      .reduce((s, [, c]) => s + c, 0);
    const answered = Object.values(statusCodes).reduce((s, c) => s + c, 0);
    Object.assign(out, {
      requests: answered,
      rps: ok / (result.duration || durationS),
      non2xx: answered - ok,
      errors: result.errors + result.timeouts,
      statusCodes,
      counts,
      latencyMs: { p50: result.latency.p50, p99: result.latency.p99 },
      samples,
      ...soakSlopes(samples, warmupS),
    });
    out.serviceAliveAtEnd = (await proc.probe(`${service.url}/api/v1/health`)) === 200;
    log(
      `  ${kind}: ${out.rps.toFixed(0)} req/s, non-2xx ${out.non2xx}, peak RSS ${out.peakRssMB.toFixed(0)} MB; ` +
        `after ${warmupS} s: RSS ${slopeText(out.rssMBPerMin)} MB/min, heap used ${slopeText(out.heapUsedMBPerMin)} MB/min`,
    );
  } catch (error) {
    log(`  FAILED: ${error.message}`);
    out.failed = error.message;
  } finally {
    if (service) await proc.stopProcess(service.handle);
  }
  return out;
}

const slopeText = (x) =>
  x === null || x === undefined || !Number.isFinite(x) ? '–' : `${x >= 0 ? '+' : ''}${x.toFixed(2)}`;
const dec = (x, d = 0) => (x === null || x === undefined || !Number.isFinite(x) ? '–' : x.toFixed(d));
const int = (x) =>
  x === null || x === undefined || !Number.isFinite(x) ? '–' : Math.round(x).toLocaleString('en-US');
const TITLES = { sqlite: 'SQLite', mysql: 'MySQL' };

/** The goal rows of the soak: slope after warm-up within +-1 MB/min, peak RSS <= 200 MB. */
export function soakGoals(results) {
  const goals = [];
  for (const key of ['sqlite', 'mysql']) {
    const soak = results.databases?.[key]?.soak;
    if (!soak || soak.failed) continue;
    goals.push({
      goal: `soak RSS slope after ${soak.warmupS} s warm-up (${TITLES[key]})`,
      target: '±1 MB/min',
      measured: `${slopeText(soak.rssMBPerMin)} MB/min over ${soak.samplesAfterWarmup} samples (heap used ${slopeText(soak.heapUsedMBPerMin)})`,
      pass: soak.rssMBPerMin === null ? null : Math.abs(soak.rssMBPerMin) <= 1,
    });
    goals.push({
      goal: `soak peak RSS (${TITLES[key]})`,
      target: '<= 200 MB',
      measured: `${dec(soak.peakRssMB)} MB`,
      pass: soak.peakRssMB <= 200,
    });
  }
  return goals;
}

/** The section "Memory soak" of docs/benchmark-results.md. */
export function soakMarkdown(results, relPath) {
  const o = results.options;
  const sections = ['sqlite', 'mysql']
    .map((key) => [key, results.databases[key]?.soak])
    .filter(([, soak]) => soak);
  const lines = [
    '## Memory soak',
    '',
    `Run of ${results.startedAt.replace('T', ' ').replace(/\.\d+Z$/, ' UTC')} ` +
      `(${o.quick || o.soakS < 600 ? '**short run**: ' : ''}${int(o.soakS)} s per database), \`${results.command}\`, raw data in ` +
      `[\`${relPath}\`](../${relPath}); service built from commit \`${(results.git.commit ?? 'unknown').slice(0, 12)}\`` +
      (results.git.dirtyFiles.length ? ` plus ${results.git.dirtyFiles.length} uncommitted change(s)` : '') +
      '.',
    '',
    `One service per database, as in the tables above (same flags, catalogue and log settings), on a fresh database with ` +
      `${int(o.listSmall)} seeded relayers, under a mixed load at a fixed rate of ${o.soakRate ? `${int(o.soakRate)} req/s` : 'as fast as it answers'} ` +
      `on ${o.soakConnections} connections: of every 10 requests, 5 GET /relayers/{id}, 2 PATCH /relayers/{id}, 2 list pages ` +
      '(`per_page=10`) and 1 POST /relayers (the next free signer and network). Every ' +
      `${o.soakIntervalS} s the service's RSS (VmRSS, \`/proc/<pid>/status\`) and V8 heap used ` +
      '(`nodejs_heap_size_used_bytes` from `/debug/metrics/scrape`) are sampled; the slope is the least-squares line ' +
      'through the samples after the warm-up, in MB per minute. Heap used is sampled at an arbitrary point of the garbage ' +
      "collector's cycle, so it saws; its slope matters, not its single values.",
    '',
    '| Database | req/s | Non-2xx | Peak RSS MB | RSS at ready MB | RSS slope MB/min | Heap used slope MB/min | Samples after warm-up |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ];
  for (const [key, s] of sections) {
    if (s.failed) {
      lines.push(`| ${TITLES[key]} | failed: ${s.failed} | | | | | | |`);
      continue;
    }
    lines.push(
      `| ${TITLES[key]} | ${int(s.rps)} | ${int(s.non2xx)} | ${dec(s.peakRssMB)} | ${dec(s.rssAtReadyMB)} | ` +
        `${slopeText(s.rssMBPerMin)} | ${slopeText(s.heapUsedMBPerMin)} | ${s.samplesAfterWarmup} |`,
    );
  }
  lines.push('');
  for (const [key, s] of sections) {
    if (s.failed || !s.samples?.length) continue;
    lines.push(
      `${TITLES[key]}, RSS / heap used in MB every ${s.intervalS} s (warm-up: the first ${s.warmupS} s):`,
      '',
      '```text',
      ...s.samples.map(
        (p) =>
          `${String(p.t).padStart(5)} s  ${dec(p.rssMB, 1).padStart(6)}  ${dec(p.heapUsedMB, 1).padStart(6)}` +
          (p.t < s.warmupS ? '  (warm-up)' : ''),
      ),
      '```',
      '',
    );
  }
  return lines;
}
