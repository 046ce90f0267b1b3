// Writes a benchmark run: bench/results/<timestamp>.json (everything measured), docs/benchmark-results.md
// (tables, goal checks) and docs/benchmarks.svg (service vs baseline req/s per scenario).
// run.mjs calls it at the end of a run; on its own it rebuilds the docs from a saved run:
//
//   node bench/report.mjs [bench/results/<file>.json]     (default: the newest)
//
// A run of only the webhook scenarios (--scenarios webhooks) replaces the page's section "Webhook
// deliveries and the outbox" and keeps the rest from the run the page was made from; a run without
// them keeps that section from the newest saved run that has it. The same for the section
// "Health-check rounds" (--scenarios health-round; bench/lib/health-report.mjs writes it), and for
// "Memory soak" (--soak S; bench/lib/soak.mjs writes it; a 600 s soak is preferred to a shorter one),
// and for "Health checks at fleet scale" (--scenarios health-fleet; bench/lib/health-fleet-report.mjs),
// and for "Hostile bodies" (--scenarios hostile-bodies; bench/lib/hostile-bodies.mjs), and for "Delivery
// stats" (--scenarios webhook-stats; bench/lib/webhook-stats.mjs), and for "Console: the relayers table"
// (--scenarios console-relayers; bench/lib/console.mjs).
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { writeFigures } from './figures.mjs';
import { hasHealth, healthMarkdown } from './lib/health-report.mjs';
import { fleetMarkdown, hasFleet } from './lib/health-fleet-report.mjs';
import { hasHostile, hostileMarkdown } from './lib/hostile-bodies.mjs';
import { hasStats, statsMarkdown } from './lib/webhook-stats.mjs';
import { consoleMarkdown, hasConsole } from './lib/console.mjs';
import { hasSoak, soakGoals, soakMarkdown } from './lib/soak.mjs';
import { B3_METHOD, b3Goals, b3SectionMarkdown } from './lib/b3-report.mjs';

const DB_TITLES = { sqlite: 'SQLite', mysql: 'MySQL' };
const BASELINE_TITLES = {
  B0: 'B0 (node:http)',
  B1: 'B1 (node:http + better-sqlite3)',
  B2: 'B2 (node:http + mysql2)',
};

export function saveResults(results, dir) {
  fs.mkdirSync(dir, { recursive: true });
  const name = `${results.startedAt.replace(/[:.]/g, '-').replace(/-\d{3}Z$/, 'Z')}${results.options.quick ? '-quick' : ''}.json`;
  const file = path.join(dir, name);
  fs.writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
  return file;
}

// ---------------------------------------------------------------------------------------------------------
// Formatting

const int = (n) =>
  n === null || n === undefined || Number.isNaN(n) ? '–' : Math.round(n).toLocaleString('en-US');
const ms = (x) => (x === null || x === undefined ? '–' : x < 10 ? x.toFixed(2) : x.toFixed(1));
const pct = (r) => (r === null || r === undefined || !Number.isFinite(r) ? '–' : `${(r * 100).toFixed(0)} %`);
const mb = (x) => (x === null || x === undefined ? '–' : x.toFixed(0));
const cpuMs = (x) => (x === null || x === undefined ? '–' : x.toFixed(3));
const cores = (x) => (x === null || x === undefined ? '–' : x.toFixed(2));
const mark = (pass) => (pass === null ? '–' : pass ? '✓' : '✗');
const escapeXml = (s) => String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

const generatorBound = (s) => (s.baseline.generatorCpuMax ?? 0) >= 0.9;

function scenario(section, id) {
  return section?.scenarios?.find((s) => s.id === id && !s.failed) ?? null;
}

function measuredSections(results) {
  return Object.values(results.databases).filter((s) => !s.skipped);
}

// ---------------------------------------------------------------------------------------------------------
// Goals (reported, not asserted)

export function evaluateGoals(results) {
  const goals = [];
  const sqlite =
    results.databases.sqlite && !results.databases.sqlite.skipped ? results.databases.sqlite : null;
  const mysql = results.databases.mysql && !results.databases.mysql.skipped ? results.databases.mysql : null;
  const ratioGoal = (section, id, min, text) => {
    const s = scenario(section, id);
    goals.push({
      goal: text,
      target: `>= ${pct(min)}`,
      measured: s
        ? `${pct(s.ratio)} (${int(s.service.rps)} vs ${int(s.baseline.rps)} req/s)`
        : 'not measured',
      pass: s ? s.ratio >= min : null,
    });
  };
  for (const section of [sqlite, mysql].filter(Boolean)) {
    ratioGoal(section, 'health', 0.5, `health vs B0, req/s (${DB_TITLES[section.database]} run)`);
  }
  if (sqlite) ratioGoal(sqlite, 'get-by-id', 0.4, 'GET relayer by id vs B1 (SQLite)');
  if (mysql) ratioGoal(mysql, 'get-by-id', 0.5, 'GET relayer by id vs B2 (MySQL)');
  if (sqlite) ratioGoal(sqlite, 'post-relayer', 0.4, 'POST relayer vs B1 insert (SQLite)');
  if (mysql) ratioGoal(mysql, 'post-relayer', 0.6, 'POST relayer vs B2 insert (MySQL)');
  for (const section of [sqlite, mysql].filter(Boolean)) {
    const small = scenario(section, 'list-1k');
    const large = scenario(section, 'list-100k');
    const timeRatio = small && large ? small.service.rps / large.service.rps : null;
    goals.push({
      goal: `list page with 100,000 stored vs 1,000, time per request (${DB_TITLES[section.database]})`,
      target: '<= 1.5x',
      measured:
        timeRatio === null
          ? 'not measured'
          : `${timeRatio.toFixed(2)}x (p50 ${ms(small.service.latency.p50)} -> ${ms(large.service.latency.p50)} ms; baseline ${large.baseline.rps > 0 ? `${(small.baseline.rps / large.baseline.rps).toFixed(2)}x` : 'no answers'})`,
      pass: timeRatio === null ? null : timeRatio <= 1.5,
    });
  }
  if (sqlite) {
    const measured = sqlite.scenarios.filter((s) => !s.failed);
    const worst = measured.reduce(
      (w, s) => (w === null || s.service.latency.p99 > w.service.latency.p99 ? s : w),
      null,
    );
    const over = measured.filter((s) => s.service.latency.p99 >= 25).map((s) => s.id);
    goals.push({
      goal: 'p99 latency at 50 connections, every scenario (SQLite)',
      target: '< 25 ms',
      measured: worst
        ? `worst ${ms(worst.service.latency.p99)} ms (${worst.id})${over.length ? `; over: ${over.join(', ')}` : ''}` +
          (worst.service.latencyAll
            ? `; counting each connection's first answer too: ${ms(worst.service.latencyAll.p99)} ms`
            : '')
        : 'not measured',
      pass: worst ? over.length === 0 : null,
    });
  }
  {
    let bad = 0;
    let total = 0;
    const where = [];
    for (const section of measuredSections(results)) {
      for (const s of section.scenarios.filter((x) => !x.failed)) {
        const n = s.service.non2xx + s.service.errors;
        total += s.service.requests;
        bad += n;
        if (n > 0) where.push(`${DB_TITLES[section.database]} ${s.id}: ${n}`);
      }
    }
    const failed = measuredSections(results).flatMap((section) =>
      section.scenarios.filter((x) => x.failed).map((x) => `${DB_TITLES[section.database]} ${x.id}`),
    );
    goals.push({
      goal: 'no non-2xx answers or socket errors from the service',
      target: '0',
      measured: `${int(bad)} of ${int(total)}${where.length ? ` (${where.join('; ')})` : ''}${failed.length ? `; failed to run: ${failed.join(', ')}` : ''}`,
      pass: total > 0 ? bad === 0 && failed.length === 0 : null,
    });
  }
  if (sqlite) {
    goals.push({
      goal: `cold start to ready, SQLite, ${int(sqlite.coldStart.signers)} signers (median)`,
      target: '<= 1,500 ms',
      measured: `${int(sqlite.coldStart.medianMs)} ms`,
      pass: sqlite.coldStart.medianMs <= 1500,
    });
  }
  {
    let peak = null;
    for (const section of measuredSections(results)) {
      for (const s of section.scenarios.filter((x) => !x.failed)) {
        if (peak === null || s.service.peakRssMB > peak.mb)
          peak = { mb: s.service.peakRssMB, where: `${DB_TITLES[section.database]} ${s.id}` };
      }
    }
    goals.push({
      goal: 'peak RSS of the service under load',
      target: '<= 200 MB',
      measured: peak ? `${mb(peak.mb)} MB (${peak.where})` : 'not measured',
      pass: peak ? peak.mb <= 200 : null,
    });
  }
  goals.push(...b3Goals(results));
  return goals;
}

// ---------------------------------------------------------------------------------------------------------
// Markdown
function sectionMarkdown(section, options) {
  const title = DB_TITLES[section.database];
  if (section.skipped) return [`## ${title}`, '', `Not measured: ${section.skipped}.`, ''];
  const dbBaseline = section.database === 'sqlite' ? 'B1' : 'B2';
  const lines = [
    `## ${title}`,
    '',
    `Baselines: ${BASELINE_TITLES.B0} for health, ${BASELINE_TITLES[dbBaseline]} for everything else. ` +
      `Ratio = service req/s ÷ baseline req/s (each the mean of two ${options.durationS} s runs); latencies are over every ` +
      "response of both runs except each connection's first (see Method); RSS is the peak VmRSS of the service " +
      'process during the scenario. CPU ms/req is the ' +
      'CPU time of the process under load per answered request (less sensitive than req/s to other load on the ' +
      'machine); "other load" is the most CPU (in cores) that processes outside the benchmark used during one of ' +
      'the four runs (the database server counts as part of the benchmark).',
    '',
    '| Scenario | Relayers stored | Service req/s | Baseline req/s | Ratio | Service p50 / p99 ms | Baseline p50 / p99 ms | Non-2xx service / baseline | Service peak RSS MB | CPU ms/req service / baseline | Other load |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ];
  for (const s of section.scenarios) {
    if (s.failed) {
      lines.push(
        `| ${s.label} | | failed: ${s.failed.replace(/\|/g, '\\|').slice(0, 200)} | | | | | | | | |`,
      );
      continue;
    }
    lines.push(
      `| ${s.label} | ${s.rowsStored ? int(s.rowsStored.service) : ''} | ${int(s.service.rps)} | ${int(s.baseline.rps)} ${s.baselineKind}${generatorBound(s) ? ' †' : ''} | ${pct(s.ratio)} | ${ms(s.service.latency.p50)} / ${ms(s.service.latency.p99)} | ${ms(s.baseline.latency.p50)} / ${ms(s.baseline.latency.p99)} | ${int(s.service.non2xx + s.service.errors)} / ${int(s.baseline.non2xx + s.baseline.errors)} | ${mb(s.service.peakRssMB)} | ${cpuMs(s.service.cpuMsPerRequest)} / ${cpuMs(s.baseline.cpuMsPerRequest)} | ${cores(Math.max(s.service.foreignCpuMax ?? 0, s.baseline.foreignCpuMax ?? 0))} |`,
    );
  }
  const cold = section.coldStart;
  if (section.scenarios.some((s) => !s.failed && generatorBound(s))) {
    lines.push(
      '',
      '† The load generator (autocannon, one process) used a whole core during this baseline: the baseline may be able ' +
        'to do more, so its number is a floor and the ratio flatters the service.',
    );
  }
  lines.push(
    '',
    `Cold start to ready (spawn to the first 200 of \`/api/v1/ready\`, fresh database, ${int(cold.signers)}-signer catalogue): ` +
      `**${int(cold.medianMs)} ms** median (${cold.samplesMs.map(int).join(', ')} ms); with a 1-signer catalogue ` +
      `${int(cold.referenceMedianMs)} ms (${cold.referenceSamplesMs.map(int).join(', ')} ms). RSS at ready: ${cold.rssAtReadyMB.map(mb).join(', ')} MB.`,
    '',
    `Service peak RSS over the whole section (VmHWM): ${mb(section.serviceVmHwmMB)} MB. ` +
      `Relayers stored at the end: ${int(section.rowsAtEnd.service)} (service), ${int(section.rowsAtEnd.baseline)} (baseline).`,
  );
  const logInfo = section.serviceLog;
  if (logInfo) {
    const statuses = Object.entries(logInfo.byStatus)
      .map(([code, n]) => `${code}: ${int(n)}`)
      .join(', ');
    lines.push(
      '',
      `Service log (\`LOG_LEVEL=info\`, to a file): ${int(logInfo.lines)} lines, ${mb((logInfo.bytes ?? 0) / 2 ** 20)} MB; ` +
        `status codes logged: ${statuses || 'none'}${logInfo.byStatus.aborted ? ' (aborted: the client closed with the request in flight, at the end of a run)' : ''}; error lines: ${int(logInfo.errorLines)}` +
        (logInfo.firstErrors.length
          ? ` (first: ${logInfo.firstErrors.map((e) => `\`${e.replace(/`/g, "'")}\``).join('; ')})`
          : '') +
        '.',
    );
  }
  lines.push('', ...b3SectionMarkdown(section));
  return lines;
}

// ---------------------------------------------------------------------------------------------------------
// Markdown: the webhook scenarios (bench/lib/webhooks.mjs), one section for both databases.

const rate = (x) => (x === null || x === undefined || !Number.isFinite(x) ? '–' : int(x));
const seconds = (x) => (x === null || x === undefined ? '–' : `${x.toFixed(1)} s`);
const signed = (x, digits = 3) => {
  if (x === null || x === undefined || !Number.isFinite(x)) return '–';
  const text = Math.abs(x).toFixed(digits);
  return Number(text) === 0 ? text : `${x > 0 ? '+' : '−'}${text}`;
};

function webhooksMarkdown(results, relPath) {
  const o = results.options;
  const sections = ['sqlite', 'mysql']
    .map((key) => results.databases[key])
    .filter((section) => section && !section.skipped && section.webhooks);
  const skipped = ['sqlite', 'mysql']
    .map((key) => results.databases[key])
    .filter((section) => section?.skipped);
  const first = sections[0]?.webhooks;
  const lines = [
    '## Webhook deliveries and the outbox',
    '',
    `Run of ${results.startedAt.replace('T', ' ').replace(/\.\d+Z$/, ' UTC')} ` +
      `(${o.quick ? '**quick run**: ' : ''}${int(o.webhookEvents)} changes per delivery phase, ${o.durationS} s per cost run, ` +
      `${o.connections} connections), \`${results.command}\`, raw data in [\`${relPath}\`](../${relPath}); service built from ` +
      `commit \`${(results.git.commit ?? 'unknown').slice(0, 12)}\`` +
      (results.git.dirtyFiles.length ? ` plus ${results.git.dirtyFiles.length} uncommitted change(s)` : '') +
      '.',
    '',
    'One service instance (as above: built, `NODE_ENV=production`, logging to a file) on a fresh database of its own, with ' +
      `\`WEBHOOK_TIMEOUT_MS=${first?.serviceEnv?.WEBHOOK_TIMEOUT_MS ?? '–'}\` (only so that a held delivery stays in flight; ` +
      'retries keep their defaults and none happen)' +
      (first?.serviceEnv?.RELAYER_HEALTH_CHECKS === 'false'
        ? " and `RELAYER_HEALTH_CHECKS=false` (the checks would probe the relayers' made-up RPC URLs and send " +
          'relayer_state_update events of their own to the same receiver)'
        : '') +
      '. The receiver is a bare node:http process on 127.0.0.1 (bench/lib/receiver.mjs) ' +
      'that reads each delivery and answers 200 at once; one notification target points at it, with a signing key (both signature ' +
      'headers are computed). Times are taken at the receiver, as each delivery arrives.',
    '',
    `- **live**: ${int(o.webhookEvents)} POST /relayers with \`notification_id\`, as fast as the API takes them ` +
      `(${o.connections} connections); deliveries per second from the first arrival to the last, how many arrived while the API ` +
      "was still answering, and how long the rest took after the last answer. Event age: arrival time minus the event's own " +
      '`timestamp` (taken in the transaction of the change).',
    `- **backlog**: the receiver holds the first delivery unanswered (a target that is down but accepts connections), ` +
      `${int(o.webhookEvents)} PATCH /relayers/{id} of relayers that name the target queue that many deliveries, then the receiver ` +
      "answers and the dispatcher drains the backlog with no API load: its own rate, and the CPU it takes per delivery (the service's, " +
      "and on MySQL the server's). **backlog across targets**: the same with that many targets of their own, the PATCHed relayers " +
      'spread evenly over them (each target sends one delivery at a time).',
    '- **outbox cost**: POST /relayers with `notification_id` vs without, and PATCH /relayers/{id} of a relayer that has a target ' +
      'vs one that has none, on the same service and database, alternated (with, without, without, with; each after a warm-up). CPU ' +
      'per request is counted over the run, and again over the run plus the time until the outbox is empty (the dispatching that ' +
      'the run caused, which lags behind the API): the difference between the two variants is what writing the delivery row and ' +
      'sending it cost. For POST it also includes checking that the notification exists; a PATCH that does not name ' +
      '`notification_id` does no such check, so its difference is the outbox alone.',
    '',
  ];
  for (const section of skipped)
    lines.push(`${DB_TITLES[section.database]}: not measured: ${section.skipped}.`, '');

  lines.push(
    '### Deliveries per second, one instance',
    '',
    '| Database | Phase | Changes | API | Deliveries/s | Arrived while the API was busy | Drained after the last answer | Event age p50 / p99 / max ms | Service CPU ms per event | MySQL CPU ms per event | Duplicates / failed / out of order | Other load |',
    '| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  );
  for (const section of sections) {
    const w = section.webhooks;
    const title = DB_TITLES[section.database];
    if (w.failed && !w.deliveries) {
      lines.push(
        `| ${title} | failed: ${w.failed.replace(/\|/g, '\\|').slice(0, 200)} | | | | | | | | | | |`,
      );
      continue;
    }
    if (!w.deliveries) continue;
    const { live, backlog } = w.deliveries;
    const liveDb =
      live.cpuSeconds.load.database === undefined
        ? null
        : ((live.cpuSeconds.load.database + live.cpuSeconds.drain.database) * 1000) /
          Math.max(1, live.received);
    lines.push(
      `| ${title} | live (POST) | ${int(live.created)} | ${int(live.apiRps)} req/s for ${seconds(live.apiSeconds)} | **${rate(live.deliveriesPerSecond)}** | ` +
        `${int(live.deliveredDuringLoad)} (${rate(live.deliveredDuringLoad / live.apiSeconds)}/s) | ${int(live.backlogAtApiEnd)} in ${seconds(live.drainAfterApiMs / 1000)} (${rate(live.drainRate)}/s) | ` +
        `${int(live.eventAgeMs.p50)} / ${int(live.eventAgeMs.p99)} / ${int(live.eventAgeMs.max)} | ${cpuMs(live.serviceCpuMsPerEvent)} (request and delivery) | ` +
        `${liveDb === null ? '–' : cpuMs(liveDb)} | ${int(live.duplicates)} / ${int(live.failed)} / ${int(live.outOfOrderPerRelayer)} | ` +
        `${cores(Math.max(live.cpuSeconds.load.foreignCores ?? 0, live.cpuSeconds.drain.foreignCores ?? 0))} |`,
      `| ${title} | backlog (PATCH, then drain) | ${int(backlog.updated)} | – | **${rate(backlog.deliveriesPerSecond)}** | – | ${int(backlog.pendingAtRelease)} in ${seconds(backlog.drainSeconds)} | – | ` +
        `${cpuMs(backlog.serviceCpuMsPerDelivery)} (delivery only; ${cores(backlog.serviceCores)} cores) | ${cpuMs(backlog.databaseCpuMsPerDelivery)} | ` +
        `${int(backlog.duplicates)} / ${int(backlog.failed)} / ${int(backlog.outOfOrderPerRelayer)} | ${cores(backlog.cpuSeconds.foreignCores)} |`,
    );
    const across = w.deliveries.backlogAcross;
    if (across) {
      lines.push(
        `| ${title} | backlog across ${int(across.targets)} targets | ${int(across.updated)} | – | **${rate(across.deliveriesPerSecond)}** | – | ${int(across.pendingAtRelease)} in ${seconds(across.drainSeconds)} | – | ` +
          `${cpuMs(across.serviceCpuMsPerDelivery)} (delivery only; ${cores(across.serviceCores)} cores) | ${cpuMs(across.databaseCpuMsPerDelivery)} | ` +
          `${int(across.duplicates)} / ${int(across.failed)} / ${int(across.outOfOrderPerRelayer)} | ${cores(across.cpuSeconds.foreignCores)} |`,
      );
    }
  }
  const commits = sections.filter((section) => section.webhooks.deliveries?.commitMs != null);
  if (commits.length > 0) {
    lines.push(
      '',
      'One durable commit, measured before the phases (the median of 300 one-row updates, one after the other): ' +
        commits
          .map((section) => {
            const commitMs = section.webhooks.deliveries.commitMs;
            return `${DB_TITLES[section.database]} ${commitMs.toFixed(2)} ms, so at most ${int(1000 / commitMs)} deliveries/s to one target`;
          })
          .join('; ') +
        ". Each answer is written before the same target's next attempt, and many targets share a commit " +
        '([webhooks 2.9](reference/webhooks.md#29-batches)).',
    );
  }
  const gapNotes = sections
    .filter((section) => section.webhooks.deliveries?.backlog.gaps?.longestGapsAtOneBatchPosition != null)
    .map((section) => {
      const g = section.webhooks.deliveries.backlog.gaps;
      return (
        `${DB_TITLES[section.database]}: ${ms(g.p50Ms)} ms between deliveries (median); the longest ${int(g.longestGaps)} gaps ` +
        `(mean ${ms(g.longestGapsMeanMs)} ms) fall ${pct(g.longestGapsAtOneBatchPosition)} at one position of the ` +
        `dispatcher's 32-row batch and take ${pct(g.longestGapsShareOfTime)} of the drain.`
      );
    });
  if (gapNotes.length) {
    lines.push(
      '',
      'Where the backlog drain waits (time between consecutive arrivals at the receiver): ' +
        gapNotes.join(' '),
    );
  }
  lines.push('');

  lines.push(
    '### What the outbox adds to POST and PATCH relayer',
    '',
    '| Database | Route | Relayer has a target | req/s | p50 / p99 ms | Service CPU ms/req, run | Service CPU ms/req, run + dispatch | MySQL CPU ms/req, run + dispatch | Deliveries | Outbox empty after the run | Other load |',
    '| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  );
  for (const section of sections) {
    const title = DB_TITLES[section.database];
    for (const [key, route] of [
      ['outboxPost', 'POST /relayers'],
      ['outboxPatch', 'PATCH /relayers/{id}'],
    ]) {
      const c = section.webhooks[key];
      if (!c) continue;
      const row = (label, v) =>
        `| ${title} | ${route} | ${label} | ${int(v.rps)} | ${ms(v.latency.p50)} / ${ms(v.latency.p99)} | ${cpuMs(v.cpuMsPerRequest)} | ` +
        `${cpuMs(v.cpuMsPerRequestWithDrain)} | ${cpuMs(v.databaseCpuMsPerRequestWithDrain)} | ${int(v.deliveries)} | ` +
        `${v.drainMs ? seconds(v.drainMs / 1000) : '–'} | ${cores(v.foreignCoresMax)} |`;
      lines.push(
        row('yes', c.with),
        row('no', c.without),
        `| ${title} | ${route} | **added** | ${signed((c.rpsRatio - 1) * 100, 0)} % | | ${signed(c.added.cpuMsPerRequest)} | ` +
          `**${signed(c.added.cpuMsPerRequestWithDrain)}** | ${signed(c.added.databaseCpuMsPerRequestWithDrain)} | | | |`,
      );
    }
  }
  lines.push(
    '',
    'Caveats: the machine has 2 cores, and the service, the load generator (autocannon, in the benchmark process), the ' +
      'receiver and MySQL share them; a delivery phase runs while the same process answers the API, so the live numbers are ' +
      'those of a saturated instance, and the backlog numbers those of a dispatcher alone. "Other load" is the most CPU (in ' +
      'cores) that processes outside the benchmark used during a phase or one of the runs (on average over it).' +
      (o.quick
        ? ` This was a quick run (${o.durationS} s per cost run, one warm-up of ${o.warmupS} s per variant): the cost ` +
          'differences are within run-to-run noise when they are a few hundredths of a millisecond.'
        : ''),
    '',
  );
  return lines;
}

// ---------------------------------------------------------------------------------------------------------
// SVG: per database, grouped horizontal bars (service, baseline) per scenario, log scale.

/** The goal's minimum ratio for a scenario, when the issue sets one. */
const RATIO_GOALS = {
  sqlite: { health: 0.5, 'get-by-id': 0.4, 'post-relayer': 0.4 },
  mysql: { health: 0.5, 'get-by-id': 0.5, 'post-relayer': 0.6 },
};

function ratioColour(database, s) {
  const min = RATIO_GOALS[database]?.[s.id];
  if (min === undefined) return '#374151';
  return s.ratio >= min ? '#15803d' : '#b91c1c';
}

export function renderSvg(results) {
  const sections = measuredSections(results);
  const width = 960;
  const labelW = 300;
  const barX = labelW + 10;
  const barW = 500;
  const rowH = 40;
  const all = sections.flatMap((s) =>
    s.scenarios.filter((x) => !x.failed).flatMap((x) => [x.service.rps, x.baseline.rps]),
  );
  const positive = all.filter((v) => v > 0);
  const lo = Math.floor(Math.log10(Math.max(1, Math.min(...positive, 100))));
  const hi = Math.ceil(Math.log10(Math.max(...positive, 1000)));
  const x = (v) => barX + (Math.max(0, Math.log10(Math.max(v, 10 ** lo)) - lo) / (hi - lo)) * barW;
  const tickLabel = (e) => (e >= 6 ? `${10 ** (e - 6)}M` : e >= 3 ? `${10 ** (e - 3)}k` : `${10 ** e}`);

  const parts = [];
  let y = 20;
  parts.push(
    `<text x="${width / 2}" y="${y + 4}" text-anchor="middle" font-size="16" font-weight="bold">Relayer service vs baseline, requests per second (log scale, higher is better)</text>`,
  );
  y += 24;
  parts.push(
    `<rect x="${barX}" y="${y}" width="12" height="12" fill="#2563eb"/><text x="${barX + 18}" y="${y + 10}" font-size="12">service (NestJS)</text>`,
    `<rect x="${barX + 150}" y="${y}" width="12" height="12" fill="#9ca3af"/><text x="${barX + 168}" y="${y + 10}" font-size="12">baseline (node:http; B0 for health, B1/B2 for the database routes)</text>`,
  );
  y += 24;
  for (const section of sections) {
    const rows = section.scenarios.filter((s) => !s.failed);
    const top = y;
    parts.push(
      `<text x="10" y="${y + 16}" font-size="14" font-weight="bold">${escapeXml(DB_TITLES[section.database])}</text>`,
    );
    y += 28;
    const gridTop = y;
    const gridBottom = y + rows.length * rowH;
    for (let e = lo; e <= hi; e++) {
      const gx = x(10 ** e);
      parts.push(
        `<line x1="${gx}" y1="${gridTop - 4}" x2="${gx}" y2="${gridBottom}" stroke="#e5e7eb"/>`,
        `<text x="${gx}" y="${gridBottom + 14}" text-anchor="middle" font-size="11" fill="#6b7280">${tickLabel(e)}</text>`,
      );
    }
    for (const s of rows) {
      const label = `${s.label}`;
      parts.push(
        `<text x="${labelW}" y="${y + 20}" text-anchor="end" font-size="12">${escapeXml(label)}</text>`,
        `<rect x="${barX}" y="${y + 4}" width="${(x(s.service.rps) - barX).toFixed(1)}" height="14" fill="#2563eb"/>`,
        `<text x="${(x(s.service.rps) + 4).toFixed(1)}" y="${y + 15}" font-size="11">${int(s.service.rps)}</text>`,
        `<rect x="${barX}" y="${y + 19}" width="${(x(s.baseline.rps) - barX).toFixed(1)}" height="14" fill="#9ca3af"/>`,
        `<text x="${(x(s.baseline.rps) + 4).toFixed(1)}" y="${y + 30}" font-size="11" fill="#374151">${int(s.baseline.rps)} ${s.baselineKind}</text>`,
        `<text x="${width - 10}" y="${y + 23}" text-anchor="end" font-size="12" font-weight="bold" fill="${ratioColour(section.database, s)}">${pct(s.ratio)}</text>`,
      );
      y += rowH;
    }
    y = gridBottom + 26;
    parts.push(
      `<text x="${width - 10}" y="${top + 16}" text-anchor="end" font-size="11" fill="#6b7280">service ÷ baseline (green/red: goal met or not)</text>`,
    );
  }
  const height = y + 10;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="system-ui, -apple-system, Segoe UI, Helvetica, Arial, sans-serif">`,
    `<rect width="${width}" height="${height}" fill="#ffffff"/>`,
    ...parts,
    '</svg>',
    '',
  ].join('\n');
}

// ---------------------------------------------------------------------------------------------------------

export function renderMarkdown(
  results,
  resultsRelPath,
  svgName,
  webhooks = null,
  health = null,
  soak = null,
  fleet = null,
  hostile = null,
  stats = null,
  consoleRun = null,
) {
  const m = results.machine;
  const o = results.options;
  const goals = [...evaluateGoals(results), ...(soak ? soakGoals(soak.results) : [])];
  const dirty = results.git.dirtyFiles.length;
  const loads = [];
  for (const section of measuredSections(results)) {
    for (const s of section.scenarios.filter((x) => !x.failed)) {
      for (const run of [...s.service.runs, ...s.baseline.runs]) loads.push(run.loadavg1Before);
    }
  }
  const maxLoad = loads.length ? Math.max(...loads) : null;
  const lines = [
    '# Benchmark results',
    '',
    `<!-- Generated by bench/report.mjs from ${resultsRelPath}` +
      (webhooks && webhooks.relPath !== resultsRelPath ? ` (webhook section from ${webhooks.relPath})` : '') +
      (health && health.relPath !== resultsRelPath ? ` (health-check section from ${health.relPath})` : '') +
      (soak && soak.relPath !== resultsRelPath ? ` (soak section from ${soak.relPath})` : '') +
      (fleet && fleet.relPath !== resultsRelPath ? ` (fleet section from ${fleet.relPath})` : '') +
      (hostile && hostile.relPath !== resultsRelPath
        ? ` (hostile-bodies section from ${hostile.relPath})`
        : '') +
      (stats && stats.relPath !== resultsRelPath ? ` (delivery-stats section from ${stats.relPath})` : '') +
      (consoleRun && consoleRun.relPath !== resultsRelPath
        ? ` (console section from ${consoleRun.relPath})`
        : '') +
      '; edits are overwritten by the next run. -->',
    '',
    'The latest run of each scenario, in full. What each scenario measures, the options, and which runs ' +
      '`bench/results/` keeps: [benchmarks](benchmarks.md); where the service stands and what bounds each ' +
      'figure: [performance](performance.md).',
    '',
    `Run of ${results.startedAt.replace('T', ' ').replace(/\.\d+Z$/, ' UTC')} (${o.quick ? '**quick smoke run**, not for comparison' : 'full run'}, ` +
      `${Math.round(results.elapsedS / 60)} min), raw data in [\`${resultsRelPath}\`](../${resultsRelPath}).`,
    '',
    '```sh',
    'npm run bench                      # the full run (SQLite and MySQL, about 35 minutes)',
    'npm run bench -- --quick           # a smoke run, 2 s per measurement',
    'npm run bench -- --db sqlite --duration 5 --scenarios get-by-id,post-relayer',
    'npm run bench -- --scenarios webhooks --quick   # only the webhook scenarios (see below)',
    'npm run bench -- --scenarios health-round --db sqlite   # one round of health checks (see below)',
    'npm run bench -- --soak 600                # memory soak, 10 minutes of mixed load per database (see below)',
    'node bench/report.mjs bench/results/<run>.json   # rebuild this page from a saved run',
    '```',
    '',
    `MySQL runs against \`MYSQL_TEST_URL\` (default \`mysql://relayer_test:relayer_test@127.0.0.1:3306\`, a user that may ` +
      'create `relayer_test*` databases); when it does not answer, only SQLite is measured and this page says so.',
    '',
    '## Goals',
    '',
    'Reported, not asserted.',
    '',
    '| Goal | Target | Measured | |',
    '| --- | --- | --- | :---: |',
    ...goals.map((g) => `| ${g.goal} | ${g.target} | ${g.measured} | ${mark(g.pass)} |`),
    '',
    'Why each goal marked ✗ is out of reach, and what each remaining piece costs: ' +
      '[performance, "What bounds each figure"](performance.md#what-bounds-each-figure).',
    '',
    `![service vs baseline, req/s per scenario](${svgName})`,
    '',
  ];
  for (const key of ['sqlite', 'mysql']) {
    if (results.databases[key]) lines.push(...sectionMarkdown(results.databases[key], o));
  }
  if (webhooks) lines.push(...webhooksMarkdown(webhooks.results, webhooks.relPath));
  if (health) lines.push(...healthMarkdown(health.results, health.relPath));
  if (fleet) lines.push(...fleetMarkdown(fleet.results, fleet.relPath));
  if (hostile) lines.push(...hostileMarkdown(hostile.results, hostile.relPath));
  if (stats) lines.push(...statsMarkdown(stats.results, stats.relPath));
  if (consoleRun) lines.push(...consoleMarkdown(consoleRun.results, consoleRun.relPath));
  if (soak) lines.push(...soakMarkdown(soak.results, soak.relPath));
  lines.push(
    '## Machine',
    '',
    `- ${m.cpu}, ${m.cores} cores, ${m.memoryGB.toFixed(0)} GB; ${m.kernel}`,
    `- Node ${m.node}; SQLite ${m.sqlite}${m.mysql ? `; MySQL server ${m.mysql}` : ''}; autocannon 9 as the load generator, in the same machine`,
    `- service built from commit \`${(results.git.commit ?? 'unknown').slice(0, 12)}\`` +
      (dirty
        ? ` plus ${dirty} uncommitted change(s) (${results.git.dirtyFiles.slice(0, 6).join(', ')}${dirty > 6 ? ', …' : ''})`
        : ' (clean tree)') +
      ` with ${results.service.build}`,
    `- 1-minute load average at the start ${m.loadavgAtStart[0].toFixed(2)}, at the end ${m.loadavgAtEnd[0].toFixed(2)}` +
      (maxLoad !== null ? `, highest before a measured run ${maxLoad.toFixed(2)}` : '') +
      ` (it counts the benchmark's own processes: the load generator alone keeps about one of the ${m.cores} cores busy; ` +
      'the "Other load" columns measure the interference)',
    '',
    '## Method',
    '',
    `- The service runs as in production: \`${['node', ...(results.service.nodeFlags ?? []), 'dist/src/main.js'].join(' ')}\` ` +
      (results.service.nodeFlags ? '(the Node flags of `npm start`)' : '(no Node flags)') +
      ', `NODE_ENV=production`' +
      `, \`LOG_LEVEL=info\` to a file ` +
      `(\`LOG_FILE\`), a catalogue of ${int(results.service.catalogue.signers)} plain signers on sepolia (EVM), devnet (Solana) ` +
      'and testnet (Stellar), and the rate limit out of the way: `RATE_LIMIT_REQUESTS_PER_SECOND=1000000`, ' +
      '`RATE_LIMIT_BURST_SIZE=10000`, i.e. 10,000 requests per 10 ms window, never reached. The window is short on purpose: ' +
      "@nestjs/throttler's in-memory storage (the service's until commit 5a6d235) keeps one timestamp per request of the " +
      'window and filters them all on every request, so a long window (10 M per 10 s, say) would be measured as the ' +
      "service's own cost; a short one keeps any limiter's bookkeeping at the scale of the defaults (300 per 3 s).",
    '- Baselines, each a single node:http process on the same Node: B0 answers `OK`; B1 (better-sqlite3 prepared statements, WAL, ' +
      '`synchronous = FULL`, foreign keys on, like the service) and B2 (a mysql2 pool of 10 connections, like the service, server-side ' +
      "prepared statements) do what the service does to the database for each route, JSON in and out, in the service's envelope, on a " +
      "copy of the service's schema. They do no validation, no address derivation (their address is a constant), no logging, no auth check.",
    B3_METHOD,
    `- Scenarios: ${o.connections} connections, keep-alive, closed loop; per scenario a ${o.warmupS} s warm-up of each target, then ` +
      `${o.durationS} s runs in the order service, baseline, baseline, service (alternated, symmetric, so a steady drift of the machine ` +
      'cancels); req/s is the mean of the two runs, p50/p99 over every response of both. Runs are strictly one at a time.',
    '- The baselines count the rows (`SELECT COUNT(*)`) on every list request; a service that caches the count (this one ' +
      'does since commit 5a6d235, for 1 s) can beat its baseline where counting is expensive: MySQL at 100,000 rows, where one ' +
      'COUNT(*) takes about 20 ms here.',
    '- Data: 1,000 relayers are seeded with SQL into both databases (EVM, a custom RPC URL, three policy fields), and GET/PATCH rotate ' +
      'over them; each PATCH changes the name and `policies.min_balance`, so every one is a write. Each POST relayer takes the next free ' +
      '(signer, network) pair of the catalogue, without an id. The list scenarios rotate over pages 1–100 (`per_page=10`), first with ' +
      '1,000 relayers stored, then after topping both tables up to 100,000 with seeded rows (or trimming the rows a fast baseline created).',
    `- Cold start: spawn to the first 200 of \`/api/v1/ready\` (polled every 5 ms) on a fresh database, ${o.coldStarts} times, ` +
      'alternating with a 1-signer catalogue to show what the catalogue size costs.',
    "- Latency: every response's own time (sub-millisecond), not autocannon's 1 ms histogram. Each connection's first " +
      'answer is kept out of p50/p99 (and in the JSON as `firstOnConnection`, with all answers together as `latencyAll`): it ' +
      'also waits for the connection to be accepted, which a saturated Node server does late, one connection per round of ' +
      'the others (measured on the service: up to 0.9–1.8 s, all on first requests).',
    '- Peak RSS: VmRSS of the service process from `/proc/<pid>/status`, sampled every 100 ms while it is under load. CPU: ' +
      '`/proc/stat` and `/proc/<pid>/stat` before and after each run. Before each measured run the benchmark waits (up to ' +
      `${o.quietWaitS} s, ${o.quietBudgetS} s in all) until processes outside it use less than a quarter of a core.`,
    '- MySQL: after each bulk seed, `ANALYZE TABLE` on both databases. InnoDB recomputes statistics by itself once 10 % of a ' +
      'table changed, but in the background; with the statistics of the empty table the optimizer sorts all 100,000 rows for ' +
      'every page (measured: 30–60 ms per page query) instead of reading the `(created_at, id)` index (1–2 ms).',
    '',
  );
  return `${lines.join('\n')}\n`;
}

const hasMain = (r) => Object.values(r.databases).some((s) => Array.isArray(s.scenarios));
const hasWebhooks = (r) => Object.values(r.databases).some((s) => s.webhooks);

/** The saved runs, oldest first, as [file, results]. */
function savedRuns(dir) {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => [path.join(dir, f), JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8'))]);
}

/**
 * The runs the page is made of: the main tables from `results` unless it has only the webhook
 * scenarios (then from the run the page was made from, or the newest saved run that has them), the
 * webhook section from `results` if it has one (else from the newest saved run that has one).
 */
function pickRuns(results, resultsFile, root, md) {
  const dir = path.join(root, 'bench', 'results');
  let main = { results, file: resultsFile };
  if (!hasMain(results)) {
    const current = fs.existsSync(md)
      ? /Generated by bench\/report\.mjs from (\S+?)[;\s]/.exec(fs.readFileSync(md, 'utf8'))?.[1]
      : null;
    const currentFile = current ? path.join(root, current) : null;
    const runs = savedRuns(dir).filter(([, r]) => hasMain(r));
    const chosen =
      runs.find(([f]) => f === currentFile) ?? runs.filter(([, r]) => !r.options.quick).pop() ?? runs.pop();
    if (!chosen) throw new Error('no saved run with the main scenarios to make the rest of the page from');
    main = { file: chosen[0], results: chosen[1] };
  }
  let webhooks = hasWebhooks(results) ? { results, file: resultsFile } : null;
  if (!webhooks) {
    // A full run's before a quick one's (the quick ones kept compare two builds).
    const runs = savedRuns(dir).filter(([, r]) => hasWebhooks(r));
    const found = runs.filter(([, r]) => !r.options.quick).pop() ?? runs.pop();
    if (found) webhooks = { file: found[0], results: found[1] };
  }
  // The health-check section likewise (a full run's before a quick one's).
  let health = hasHealth(results) ? { results, file: resultsFile } : null;
  if (!health) {
    const runs = savedRuns(dir).filter(([, r]) => hasHealth(r));
    const found = runs.filter(([, r]) => !r.options.quick).pop() ?? runs.pop();
    if (found) health = { file: found[0], results: found[1] };
  }
  // The memory soak likewise (a 600 s run's before a shorter one's).
  let soak = hasSoak(results) ? { results, file: resultsFile } : null;
  if (!soak) {
    const runs = savedRuns(dir).filter(([, r]) => hasSoak(r));
    const found = runs.filter(([, r]) => r.options.soakS >= 600).pop() ?? runs.pop();
    if (found) soak = { file: found[0], results: found[1] };
  }
  // The fleet section likewise (the newest run at its default size, 100,000, before a smaller one's).
  let fleet = hasFleet(results) ? { results, file: resultsFile } : null;
  if (!fleet) {
    const runs = savedRuns(dir).filter(([, r]) => hasFleet(r));
    const found = runs.filter(([, r]) => r.options.fleetRelayers >= 100_000).pop() ?? runs.pop();
    if (found) fleet = { file: found[0], results: found[1] };
  }
  // The hostile-bodies section likewise (the newest run that has it).
  let hostile = hasHostile(results) ? { results, file: resultsFile } : null;
  if (!hostile) {
    const found = savedRuns(dir)
      .filter(([, r]) => hasHostile(r))
      .pop();
    if (found) hostile = { file: found[0], results: found[1] };
  }
  // The delivery-stats section likewise (the newest run that has it).
  let stats = hasStats(results) ? { results, file: resultsFile } : null;
  if (!stats) {
    const found = savedRuns(dir)
      .filter(([, r]) => hasStats(r))
      .pop();
    if (found) stats = { file: found[0], results: found[1] };
  }
  // The console section likewise (a full run's before a quick one's).
  let consoleRun = hasConsole(results) ? { results, file: resultsFile } : null;
  if (!consoleRun) {
    const runs = savedRuns(dir).filter(([, r]) => hasConsole(r));
    const found = runs.filter(([, r]) => !r.options.quick).pop() ?? runs.pop();
    if (found) consoleRun = { file: found[0], results: found[1] };
  }
  return { main, webhooks, health, soak, fleet, hostile, stats, consoleRun };
}

export async function writeDocs(results, resultsFile, root) {
  const docsDir = path.join(root, 'docs');
  fs.mkdirSync(docsDir, { recursive: true });
  const md = path.join(docsDir, 'benchmark-results.md');
  const svg = path.join(docsDir, 'benchmarks.svg');
  const { main, webhooks, health, soak, fleet, hostile, stats, consoleRun } = pickRuns(
    results,
    path.resolve(resultsFile),
    root,
    md,
  );
  fs.writeFileSync(svg, renderSvg(main.results));
  // Formatted like the rest of the repository, so that `npm run check` (prettier --check .) passes.
  const prettier = await import('prettier');
  const config = (await prettier.resolveConfig(md)) ?? {};
  const text = renderMarkdown(
    main.results,
    path.relative(root, main.file),
    'benchmarks.svg',
    webhooks && { results: webhooks.results, relPath: path.relative(root, webhooks.file) },
    health && { results: health.results, relPath: path.relative(root, health.file) },
    soak && { results: soak.results, relPath: path.relative(root, soak.file) },
    fleet && { results: fleet.results, relPath: path.relative(root, fleet.file) },
    hostile && { results: hostile.results, relPath: path.relative(root, hostile.file) },
    stats && { results: stats.results, relPath: path.relative(root, stats.file) },
    consoleRun && { results: consoleRun.results, relPath: path.relative(root, consoleRun.file) },
  );
  fs.writeFileSync(md, await prettier.format(text, { ...config, filepath: md }));
  // docs/performance.md's table, from the same saved runs (bench/figures.mjs).
  const performance = await writeFigures(path.dirname(resultsFile));
  return [md, svg, performance];
}

// ---------------------------------------------------------------------------------------------------------
// On its own: rebuild the docs from a saved run.

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const root = path.resolve(import.meta.dirname, '..');
  let file = process.argv[2];
  if (!file) {
    const dir = path.join(import.meta.dirname, 'results');
    const runs = fs
      .readdirSync(dir)
      .filter((f) => f.endsWith('.json'))
      .sort();
    if (runs.length === 0) throw new Error('no saved run in bench/results');
    file = path.join(dir, runs[runs.length - 1]);
  }
  const results = JSON.parse(fs.readFileSync(file, 'utf8'));
  const written = await writeDocs(results, path.resolve(file), root);
  console.log(
    `wrote ${written.map((f) => path.relative(root, f)).join(', ')} from ${path.relative(root, path.resolve(file))}`,
  );
}
