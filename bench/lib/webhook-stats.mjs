// Delivery stats at 1,000,000 deliveries (`--scenarios webhook-stats`, opt-in, MySQL only): one target
// with --stats-deliveries (1,000,000) deliveries in its log, ended over the last 7 days (the log keeps
// 7 days), seeded with INSERT ... SELECT from a numbers table, 100,000 rows a statement. Then
// GET /api/v1/notifications/{id}/stats for each window, one request at a time on one connection
// (the route's own time, no queueing): p50, p95, max. Then the same for 24h with
// idx_webhook_deliveries_stats dropped, to show what the index is for. The section "Delivery stats"
// of docs/benchmark-results.md (statsMarkdown) comes from it; docs/reference/webhooks.md#9-stats.
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { analyzeMysql, withMysql } from './data.mjs';
import { latencySummary, percentile } from './load.mjs';
import { httpRequest } from './proc.mjs';

export const STATS_SCENARIOS = [
  {
    id: 'webhook-stats',
    label: 'GET /notifications/{id}/stats with 1,000,000 deliveries of one target (opt-in, MySQL only)',
    optIn: true,
  },
];

const TARGET = 'bench-stats-target';
const WEEK_MS = 7 * 24 * 3600 * 1000;
const BATCH = 100_000;
/** Requests per window, and at most this long for each (a slow window stops early). */
const WINDOWS = [
  { window: '1h', requests: 300 },
  { window: '24h', requests: 300 },
  { window: '7d', requests: 60 },
];
const WITHOUT_INDEX = { window: '24h', requests: 5 };
const MAX_SECONDS_PER_WINDOW = 90;

/** A body of about the size of a relayer event (the stats never read it; the log's size does matter). */
const BODY = JSON.stringify({
  id: '00000000-0000-4000-8000-000000000000',
  event: 'relayer_updated',
  payload: {
    payload_type: 'relayer_updated',
    relayer: { id: 'bench', name: 'x'.repeat(400) },
    changed: ['name'],
  },
  timestamp: '2026-01-01T00:00:00.000Z',
});

const stored = (ms) => new Date(ms).toISOString().replace('T', ' ').replace('Z', '');

/**
 * Rows `first`..`first + count - 1` of the log: the i-th ended i * 7 days / total before `newest`
 * (the newest first). Of every 100: 96 delivered, 3 failed, 1 pending (due in 2999: never sent); every 10th took 2 attempts;
 * latencies from 20 ms with a tail to about 2.5 s.
 */
async function seedBatch(c, first, count, total, newest) {
  const stepUs = Math.floor((WEEK_MS * 1000) / total);
  const numbers = `SELECT ? + a.d + 10 * b.d + 100 * c.d + 1000 * d.d + 10000 * e.d AS n
                     FROM digits a, digits b, digits c, digits d, digits e`;
  // Each delivery's event, with its body (src/webhooks/webhook-event.entity.ts): one target each.
  await c.query(
    `INSERT INTO webhook_events (id, body, created_at)
     SELECT CONCAT('event-', LPAD(n, 10, '0')), ?, TIMESTAMPADD(MICROSECOND, -n * ? - 1000, ?)
       FROM (${numbers}) numbers WHERE n < ?`,
    [BODY, stepUs, stored(newest), first, Math.min(first + count, total)],
  );
  await c.query(
    `INSERT INTO webhook_deliveries (id, notification_id, event_id, event, relayer_id, status, attempts,
       last_status_code, last_error, next_attempt_at, lease_owner, lease_until, created_at, delivered_at,
       ended_at, latency_ms)
     SELECT CONCAT('stats-', LPAD(n, 10, '0')), ?, CONCAT('event-', LPAD(n, 10, '0')), 'relayer_updated', NULL,
            CASE WHEN n % 100 = 0 THEN 'pending' WHEN n % 100 < 4 THEN 'failed' ELSE 'delivered' END,
            CASE WHEN n % 10 = 5 THEN 2 ELSE 1 END,
            CASE WHEN n % 100 = 0 THEN NULL WHEN n % 100 < 4 THEN 410 ELSE 200 END,
            CASE WHEN n % 100 > 0 AND n % 100 < 4 THEN 'HTTP 410' ELSE NULL END,
            CASE WHEN n % 100 = 0 THEN '2999-01-01 00:00:00.000' ELSE ended END, NULL, NULL, TIMESTAMPADD(MICROSECOND, -1000, ended),
            CASE WHEN n % 100 >= 4 THEN ended ELSE NULL END,
            CASE WHEN n % 100 = 0 THEN NULL ELSE ended END,
            CASE WHEN n % 100 = 0 THEN NULL ELSE 20 + (n * 7919) % 480 + CASE WHEN n % 50 = 7 THEN (n * 31) % 2000 ELSE 0 END END
       FROM (SELECT n, TIMESTAMPADD(MICROSECOND, -n * ?, ?) AS ended
               FROM (${numbers}) numbers
              WHERE n < ?) rows_`,
    [TARGET, stepUs, stored(newest), first, Math.min(first + count, total)],
  );
}

export async function seed(url, total, log) {
  const started = performance.now();
  const newest = Date.now();
  await withMysql(url, async (c) => {
    await c.query('CREATE TEMPORARY TABLE digits (d INT PRIMARY KEY)');
    await c.query('INSERT INTO digits VALUES (0), (1), (2), (3), (4), (5), (6), (7), (8), (9)');
    for (let first = 0; first < total; first += BATCH) {
      await seedBatch(c, first, BATCH, total, newest);
      if ((first / BATCH) % 2 === 1) log(`  seeded ${(first + BATCH).toLocaleString('en-US')} deliveries`);
    }
  });
  const seedMs = performance.now() - started;
  await analyzeMysql(url);
  await withMysql(url, (c) => c.query('ANALYZE TABLE webhook_deliveries'));
  return { seedMs, analyzeMs: performance.now() - started - seedMs };
}

/** One request after the other, `requests` of them (or MAX_SECONDS_PER_WINDOW), after 3 unmeasured ones. */
async function measureWindow(serviceUrl, headers, window, requests) {
  const loadavg1Before = os.loadavg()[0];
  const path = `/api/v1/notifications/${TARGET}/stats?window=${window}`;
  let answer = null;
  for (let i = 0; i < 3; i++) answer = await httpRequest(serviceUrl, { path, headers });
  if (answer.status !== 200)
    throw new Error(`stats ${window}: ${answer.status} ${answer.body.slice(0, 300)}`);
  const latencies = [];
  const deadline = performance.now() + MAX_SECONDS_PER_WINDOW * 1000;
  while (latencies.length < requests && performance.now() < deadline) {
    const started = performance.now();
    const r = await httpRequest(serviceUrl, { path, headers });
    latencies.push(performance.now() - started);
    if (r.status !== 200) throw new Error(`stats ${window}: ${r.status} ${r.body.slice(0, 300)}`);
  }
  const summary = latencySummary(latencies);
  return {
    window,
    loadavg1Before,
    requests: latencies.length,
    p50Ms: summary.p50,
    p95Ms: percentile(Float64Array.from(latencies).sort(), 95),
    maxMs: summary.max,
    meanMs: summary.mean,
    answer: JSON.parse(answer.body).data,
  };
}

/** The plans of the two statements that read the window (delivered by latency, failed): the index each reads. */
async function explain(url, since) {
  const statements = [
    `SELECT latency_ms, COUNT(*) AS n, SUM(CASE WHEN attempts > 1 THEN 1 ELSE 0 END) AS retried
       FROM webhook_deliveries
      WHERE notification_id = ? AND status = 'delivered' AND ended_at >= ?
      GROUP BY latency_ms
      ORDER BY latency_ms`,
    `SELECT COUNT(*) AS n, SUM(CASE WHEN attempts > 1 THEN 1 ELSE 0 END) AS retried
       FROM webhook_deliveries
      WHERE notification_id = ? AND status = 'failed' AND ended_at >= ?`,
  ];
  return withMysql(url, async (c) => {
    const plans = [];
    for (const sql of statements) {
      const [rows] = await c.query(`EXPLAIN ${sql}`, [TARGET, stored(since)]);
      plans.push(...rows.map((r) => ({ key: r.key, rows: Number(r.rows), extra: r.Extra })));
    }
    return plans;
  });
}

export async function benchWebhookStats(ctx, kind) {
  const { options, log, catalogues, freshDatabase, startService, JSON_HEADERS, AUTH } = ctx;
  if (kind !== 'mysql') {
    log(`${kind}: webhook-stats skipped (MySQL only)`);
    return { skipped: 'MySQL only' };
  }
  const total = options.statsDeliveries;
  const db = await freshDatabase('stats');
  const service = await startService({
    databaseUrl: db.url,
    catalogue: catalogues.one,
    label: `${kind}-stats`,
  });
  const created = await httpRequest(service.url, {
    method: 'POST',
    path: '/api/v1/notifications',
    headers: JSON_HEADERS,
    // Nothing is sent: the pending ones are due in 2999, and the port is the discard port of loopback.
    body: JSON.stringify({ id: TARGET, url: 'http://127.0.0.1:9/stats' }),
  });
  if (created.status !== 201)
    throw new Error(`webhook-stats: POST /notifications answered ${created.status}`);
  log(`${kind}: webhook-stats, seeding ${total.toLocaleString('en-US')} deliveries of one target`);
  const seeded = await seed(db.url, total, log);
  log(
    `  seeded in ${(seeded.seedMs / 1000).toFixed(1)} s (ANALYZE ${(seeded.analyzeMs / 1000).toFixed(1)} s)`,
  );
  const plan = await explain(db.url, new Date(Date.now() - 24 * 3600 * 1000));
  const windows = [];
  for (const { window, requests } of WINDOWS) {
    const measured = await measureWindow(service.url, AUTH, window, requests);
    log(
      `  window=${window}: p50 ${measured.p50Ms.toFixed(1)} ms, p95 ${measured.p95Ms.toFixed(1)} ms, max ${measured.maxMs.toFixed(1)} ms ` +
        `(${measured.requests} requests; ${measured.answer.delivered} delivered, ${measured.answer.failed} failed)`,
    );
    windows.push(measured);
  }
  await withMysql(db.url, (c) => c.query('DROP INDEX idx_webhook_deliveries_stats ON webhook_deliveries'));
  const planWithout = await explain(db.url, new Date(Date.now() - 24 * 3600 * 1000));
  let without;
  try {
    without = await measureWindow(service.url, AUTH, WITHOUT_INDEX.window, WITHOUT_INDEX.requests);
    log(`  without the index, window=24h: p95 ${without.p95Ms.toFixed(1)} ms (${without.requests} requests)`);
  } catch (error) {
    // httpRequest gives up after 10 s.
    without = { window: WITHOUT_INDEX.window, failed: error.message };
    log(`  without the index, window=24h: ${error.message}`);
  }
  return {
    deliveries: total,
    seedMs: seeded.seedMs,
    analyzeMs: seeded.analyzeMs,
    bodyBytes: BODY.length,
    plan,
    windows,
    withoutIndex: { ...without, plan: planWithout },
  };
}

// ---------------------------------------------------------------------------------------------------------
// The page's section (report.mjs calls these; no dependencies beyond node:).

const int = (x) => (Number.isFinite(x) ? Math.round(x).toLocaleString('en-US') : '–');
/** The indexes a plan reads, each once. */
const keys = (plan) =>
  [...new Set(plan.map((p) => p.key ?? 'no index'))].map((key) => `\`${key}\``).join(' and ');
const ms = (x) => (Number.isFinite(x) ? (x < 10 ? x.toFixed(2) : x.toFixed(1)) : '–');

export const hasStats = (results) =>
  Object.values(results.databases ?? {}).some((s) => s.webhookStats && !s.webhookStats.skipped);

export function statsMarkdown(results, relPath) {
  const lines = [
    '## Delivery stats',
    '',
    `Run of ${results.startedAt.replace('T', ' ').replace(/\.\d+Z$/, ' UTC')}, \`${results.command}\`, raw data in ` +
      `[\`${relPath}\`](../${relPath}); service built from commit \`${(results.git.commit ?? 'unknown').slice(0, 12)}\`` +
      (results.git.dirtyFiles.length ? ` plus ${results.git.dirtyFiles.length} uncommitted change(s)` : '') +
      '.',
    '',
    'bench/lib/webhook-stats.mjs gives one target a delivery log of a million deliveries that ended over the last ' +
      '7 days (the log keeps 7 days: [webhooks, "Retention"](reference/webhooks.md#33-retention)), 96 % delivered, ' +
      '3 % failed, 1 % pending, written with `INSERT ... SELECT` from a numbers table, then asks ' +
      '`GET /api/v1/notifications/{id}/stats` for each window one request at a time on one connection ' +
      '([webhooks, "Stats"](reference/webhooks.md#9-stats)). Last, the same for `24h` with ' +
      '`idx_webhook_deliveries_stats` dropped.',
    '',
  ];
  for (const [key, section] of Object.entries(results.databases)) {
    const s = section.webhookStats;
    if (!s || s.skipped) continue;
    lines.push(
      `### ${key === 'mysql' ? 'MySQL' : 'SQLite'}`,
      '',
      `${int(s.deliveries)} deliveries of one target (bodies of ${int(s.bodyBytes)} bytes), seeded in ` +
        `${(s.seedMs / 1000).toFixed(1)} s. The delivered ones by latency and the failed ones read ` +
        s.plan.map((p) => `\`${p.key}\` (${p.extra})`).join(' and ') +
        '.',
      '',
      `Load average of the machine before each window: ${s.windows.map((w) => w.loadavg1Before.toFixed(1)).join(', ')} ` +
        `(${results.machine.cores} cores, shared with the benchmark and with whatever else ran).`,
      '',
      '| Window | Deliveries in it | Requests | p50 ms | p95 ms | max ms |',
      '| --- | ---: | ---: | ---: | ---: | ---: |',
      ...s.windows.map(
        (w) =>
          `| \`${w.window}\` | ${int(w.answer.delivered + w.answer.failed)} | ${w.requests} | ${ms(w.p50Ms)} | ` +
          `**${ms(w.p95Ms)}** | ${ms(w.maxMs)} |`,
      ),
      s.withoutIndex.failed
        ? `| \`${s.withoutIndex.window}\` without the index (reads ${keys(s.withoutIndex.plan)}) | ` +
            `${int(s.windows.find((w) => w.window === s.withoutIndex.window)?.answer.delivered + s.windows.find((w) => w.window === s.withoutIndex.window)?.answer.failed)} | – | ` +
            `no answer within 10 s | | |`
        : `| \`${s.withoutIndex.window}\` without the index (reads ${keys(s.withoutIndex.plan)}) | ` +
            `${int(s.withoutIndex.answer.delivered + s.withoutIndex.answer.failed)} | ${s.withoutIndex.requests} | ` +
            `${ms(s.withoutIndex.p50Ms)} | ${ms(s.withoutIndex.p95Ms)} | ${ms(s.withoutIndex.maxMs)} |`,
      '',
    );
  }
  return lines;
}
