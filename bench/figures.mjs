// The table "Current figures" of docs/performance.md, made from the saved runs (bench/results/): each
// figure from the newest run that measured it, and the commit that run was built from beside it.
// bench/report.mjs writes it between the page's two markers after every run; on its own:
//
//   node bench/figures.mjs            rewrite the table from bench/results/
//   node bench/figures.mjs --stale    list the figures measured before the last change to src/
//
// A figure is stale when the service's sources changed after the commit it names: `git log <commit>..HEAD
// -- src` is not empty (docs/benchmarks.md, "Which figure is current").
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const root = path.resolve(import.meta.dirname, '..');
export const START = '<!-- figures:start (bench/figures.mjs writes this table from bench/results/) -->';
export const END = '<!-- figures:end -->';

const int = (n) =>
  n === null || n === undefined || !Number.isFinite(n) ? '–' : Math.round(n).toLocaleString('en-US');
const ms = (x) => (x === null || x === undefined ? '–' : x < 10 ? x.toFixed(2) : x.toFixed(1));
const pct = (r) => (r === null || r === undefined || !Number.isFinite(r) ? '–' : `${(r * 100).toFixed(0)} %`);
const cpu = (x) => (x === null || x === undefined ? '–' : x.toFixed(3));

/** The saved runs, oldest first, as [file, results]; quick runs only where no full run measured a figure. */
function savedRuns(dir) {
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.json') && !f.startsWith('relayer-list-'))
    .sort()
    .map((f) => [path.join(dir, f), JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8'))]);
}

/** The newest run in which `has(section)` holds for a database section: a full one before a quick one. */
function newest(runs, has) {
  const found = runs.filter(([, r]) => Object.values(r.databases ?? {}).some((s) => s && has(s)));
  const full = found.filter(([, r]) => !r.options?.quick);
  return (full.length ? full : found).at(-1) ?? null;
}

const scenario = (section, id) => section?.scenarios?.find((s) => s.id === id && !s.failed) ?? null;

/**
 * The figures: a label, the goal (text and test), the part of a run it needs, and its value per
 * database (null: not measured there).
 */
const FIGURES = [
  {
    label: '`GET /health`, req/s (vs B0, bare node:http)',
    needs: (s) => scenario(s, 'health'),
    value: (s) => `${int(s.service.rps)} (${pct(s.ratio)})`,
    goal: '≥ 50 % of B0',
    met: (s) => s.ratio >= 0.5,
  },
  {
    label: '`GET /relayers/{id}`, req/s (vs B3, the framework floor)',
    needs: (s) => scenario(s, 'get-by-id'),
    value: (s) => `${int(s.service.rps)} (${pct(s.ratioB3)})`,
    goal: '≥ 70 % of B3',
    met: (s) => s.ratioB3 >= 0.7,
  },
  {
    label: '`GET /relayers/{id}`, CPU ms per request (vs B3)',
    needs: (s) => scenario(s, 'get-by-id')?.b3 && scenario(s, 'get-by-id'),
    value: (s) =>
      `${cpu(s.service.cpuMsPerRequest)} (${(s.service.cpuMsPerRequest / s.b3.cpuMsPerRequest).toFixed(2)}x)`,
    goal: '≤ 1.5x B3',
    met: (s) => s.service.cpuMsPerRequest / s.b3.cpuMsPerRequest <= 1.5,
  },
  {
    label: '`GET /relayers/{id}`, p50 / p99 ms',
    needs: (s) => scenario(s, 'get-by-id'),
    value: (s) => `${ms(s.service.latency.p50)} / ${ms(s.service.latency.p99)}`,
    goal: 'p99 < 25 ms',
    met: (s) => s.service.latency.p99 < 25,
  },
  {
    label: 'List page of 10, req/s at 1,000 / 100,000 stored',
    needs: (s) => scenario(s, 'list-1k') && scenario(s, 'list-100k') && s,
    value: (s) => `${int(scenario(s, 'list-1k').service.rps)} / ${int(scenario(s, 'list-100k').service.rps)}`,
  },
  {
    label: 'List page, time at 100,000 stored vs 1,000',
    needs: (s) => scenario(s, 'list-1k') && scenario(s, 'list-100k') && s,
    value: (s) => `${listRatio(s).toFixed(2)}x`,
    goal: '≤ 1.5x',
    met: (s) => listRatio(s) <= 1.5,
  },
  {
    label: '`PATCH /relayers/{id}`, req/s (CPU ms per request)',
    needs: (s) => scenario(s, 'patch-relayer'),
    value: (s) => `${int(s.service.rps)} (${cpu(s.service.cpuMsPerRequest)})`,
  },
  {
    label: '`POST /notifications`, req/s (CPU ms per request)',
    needs: (s) => scenario(s, 'post-notification'),
    value: (s) => `${int(s.service.rps)} (${cpu(s.service.cpuMsPerRequest)})`,
  },
  {
    label: '`POST /relayers`, req/s (vs B3)',
    needs: (s) => scenario(s, 'post-relayer'),
    value: (s) => `${int(s.service.rps)} (${pct(s.ratioB3)})`,
    goal: '≥ 50 % of B3',
    met: (s) => s.ratioB3 >= 0.5,
  },
  {
    label: 'Worst p99, any scenario',
    needs: (s) => (s.scenarios?.some((x) => !x.failed) ? s : null),
    value: (s) => {
      const w = worstP99(s);
      return `${ms(w.service.latency.p99)} ms (${w.id})`;
    },
    goal: '< 25 ms',
    met: (s) => worstP99(s).service.latency.p99 < 25,
  },
  {
    label: 'Non-2xx answers under load',
    needs: (s) => (s.scenarios?.some((x) => !x.failed) ? s : null),
    value: (s) => {
      const measured = s.scenarios.filter((x) => !x.failed);
      const bad = measured.reduce((n, x) => n + x.service.non2xx + x.service.errors, 0);
      const all = measured.reduce((n, x) => n + x.service.requests, 0);
      return `${int(bad)} of ${int(all)}`;
    },
    goal: '0',
    met: (s) => s.scenarios.every((x) => !x.failed && x.service.non2xx + x.service.errors === 0),
  },
  {
    label: 'Cold start to ready, 20,000 signers (median)',
    needs: (s) => s.coldStart?.medianMs !== undefined && s.coldStart,
    value: (c) => `${int(c.medianMs)} ms`,
    goal: '≤ 1,500 ms',
    met: (c) => c.medianMs <= 1500,
  },
  {
    label: 'Peak RSS under load (every main scenario)',
    needs: (s) => (s.serviceVmHwmMB ? s : null),
    value: (s) => `${int(s.serviceVmHwmMB)} MB`,
    goal: '≤ 200 MB',
    met: (s) => s.serviceVmHwmMB <= 200,
  },
  {
    label: 'Webhook backlog drained, one target: deliveries/s (service CPU ms each)',
    needs: (s) => s.webhooks?.deliveries?.backlog,
    value: (b) => `${int(b.deliveriesPerSecond)} (${cpu(b.serviceCpuMsPerDelivery)})`,
  },
  {
    label: "One durable commit, ms (one target's deliveries: at most one per commit)",
    needs: (s) => s.webhooks?.deliveries?.commitMs !== undefined && s.webhooks.deliveries,
    value: (d) => `${ms(d.commitMs)} (≤ ${int(1000 / d.commitMs)}/s)`,
  },
  {
    label: 'Webhook backlog drained across 50 targets: deliveries/s (service CPU ms each)',
    needs: (s) => s.webhooks?.deliveries?.backlogAcross,
    value: (b) => `${int(b.deliveriesPerSecond)} (${cpu(b.serviceCpuMsPerDelivery)})`,
    goal: '≥ 5,000/s',
    met: (b) => b.deliveriesPerSecond >= 5000,
  },
  {
    label: 'Webhook deliveries while the API takes creates, per second',
    needs: (s) => s.webhooks?.deliveries?.live,
    value: (l) => `${int(l.deliveriesPerSecond)} (API ${int(l.apiRps)} creates/s)`,
  },
  {
    label: 'What a webhook target adds to a POST relayer, CPU ms',
    needs: (s) => s.webhooks?.outboxPost,
    value: (o) =>
      `${o.added.cpuMsPerRequestWithDrain >= 0 ? '+' : ''}${cpu(o.added.cpuMsPerRequestWithDrain)}`,
  },
  {
    label: 'Health round, 10,000 relayers, no API load (vs B4)',
    needs: (s) => s.healthRound?.roundAlone && s.healthRound,
    value: (h) =>
      `${h.roundAlone.seconds.toFixed(1)} s` +
      (h.b4?.seconds ? ` (${(h.roundAlone.seconds / h.b4.seconds).toFixed(1)}x)` : ''),
    goal: 'within 2x of B4',
    met: (h) => (h.b4?.seconds ? h.roundAlone.seconds <= 2 * h.b4.seconds : null),
  },
  {
    label: 'Health round under GET by id load',
    needs: (s) => s.healthRound?.roundUnderLoad,
    value: (r) => `${r.seconds.toFixed(1)} s`,
  },
  {
    label: 'Peak RSS, health round, no API load',
    needs: (s) => (s.healthRound?.roundAlone?.peakRssMb ? s.healthRound.roundAlone : null),
    value: (r) => `${int(r.peakRssMb)} MB`,
    goal: '≤ 200 MB',
    met: (r) => r.peakRssMb <= 200,
  },
  {
    label: 'Delivery stats, `7d` at 1,000,000 deliveries, p95',
    needs: (s) => s.webhookStats?.windows?.find((w) => w.window === '7d'),
    value: (w) => `${ms(w.p95Ms)} ms`,
    goal: '≤ 100 ms',
    met: (w) => w.p95Ms <= 100,
  },
  {
    label: "The console's relayers page at 10,000 relayers: API requests a load (page p50)",
    needs: (s) => s.consoleRelayers?.cases?.[0]?.loads?.length && s.consoleRelayers,
    value: (c) =>
      `${Math.max(...c.cases.map((k) => k.apiRequestsPerLoad))} (page 1: ${int(c.cases[0].page.p50Ms)} ms p50)`,
    goal: '≤ 3 requests',
    met: (c) => c.cases.every((k) => k.apiRequestsPerLoad <= 3),
  },
  {
    label: 'Hostile bodies (200 connections): slowest `/health`; peak RSS',
    needs: (s) => s.hostileBodies?.health && s.hostileBodies,
    value: (h) => `${int(h.health.maxMs)} ms; ${int(h.peakRssMB)} MB`,
    goal: 'survives',
    met: (h) => h.aliveAtEnd === true,
  },
];

function listRatio(s) {
  return scenario(s, 'list-1k').service.rps / scenario(s, 'list-100k').service.rps;
}

function worstP99(s) {
  return s.scenarios
    .filter((x) => !x.failed)
    .reduce((w, x) => (w === null || x.service.latency.p99 > w.service.latency.p99 ? x : w), null);
}

/** The relayer list at depth (bench/relayer-list.mjs, its own results files): the plain page, last vs first. */
function relayerListFigure(dir) {
  const figure = {
    label: 'Relayer list at 100,000 relayers, page of 25: first / last page p50 ms',
    goal: 'last as fast as first',
  };
  const file = fs
    .readdirSync(dir)
    .filter((f) => f.startsWith('relayer-list-') && f.endsWith('.json'))
    .sort()
    .at(-1);
  if (!file) return { figure, run: null, values: {} };
  const results = JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8'));
  const values = {};
  for (const section of results.databases ?? []) {
    const plain = (page) => section.results.find((r) => r.label === 'plain' && r.page === page);
    const [first, last] = [plain(1), plain('last')];
    if (!first?.p50Ms || !last?.p50Ms) continue;
    values[section.database] = {
      text: `${ms(first.p50Ms)} / ${ms(last.p50Ms)}`,
      // Within the run-to-run spread of one request at a time: a millisecond, or a fifth.
      met: last.p50Ms <= Math.max(first.p50Ms * 1.2, first.p50Ms + 1),
    };
  }
  return {
    figure,
    values,
    run: {
      file: path.relative(root, path.join(dir, file)),
      commit: (results.commit ?? 'unknown').slice(0, 7),
      dirty: (results.dirtyFiles ?? []).length > 0,
      date: results.startedAt.slice(0, 10),
      quick: false,
    },
  };
}

/** Each figure with its value per database and the run it comes from (commit, file, date). */
export function currentFigures(dir = path.join(root, 'bench', 'results')) {
  const runs = savedRuns(dir);
  const figures = FIGURES.map((figure) => {
    const run = newest(runs, (s) => figure.needs(s));
    if (!run) return { figure, run: null, values: {} };
    const [file, results] = run;
    const values = {};
    for (const db of ['sqlite', 'mysql']) {
      const part = results.databases?.[db] ? figure.needs(results.databases[db]) : null;
      if (part) values[db] = { text: figure.value(part), met: figure.met ? figure.met(part) : undefined };
    }
    return {
      figure,
      values,
      run: {
        file: path.relative(root, file),
        commit: (results.git?.commit ?? 'unknown').slice(0, 7),
        dirty: (results.git?.dirtyFiles ?? []).length > 0,
        date: results.startedAt.slice(0, 10),
        quick: Boolean(results.options?.quick),
      },
    };
  });
  return [...figures, relayerListFigure(dir)];
}

/** The figures as a Markdown table. */
export function figuresTable(figures) {
  const mark = (values) => {
    const met = Object.values(values)
      .map((v) => v.met)
      .filter((m) => m !== undefined && m !== null);
    if (met.length === 0) return '';
    return met.every(Boolean) ? '✓' : '✗';
  };
  return [
    '| Figure | SQLite | MySQL | Goal | Met | Measured at |',
    '| --- | --- | --- | --- | :-: | --- |',
    ...figures.map(({ figure, values, run }) => {
      const at = run
        ? `\`${run.commit}\`${run.dirty ? ' + uncommitted' : ''}, [${run.date}${run.quick ? ' quick' : ''}](../${run.file})`
        : 'not measured';
      return `| ${figure.label} | ${values.sqlite?.text ?? '–'} | ${values.mysql?.text ?? '–'} | ${figure.goal ?? ''} | ${mark(values)} | ${at} |`;
    }),
  ].join('\n');
}

/** docs/performance.md with its table made again from the saved runs. */
export async function writeFigures(dir = path.join(root, 'bench', 'results')) {
  const page = path.join(root, 'docs', 'performance.md');
  const text = fs.readFileSync(page, 'utf8');
  const from = text.indexOf(START);
  const to = text.indexOf(END);
  if (from < 0 || to < from) throw new Error(`docs/performance.md lacks the markers ${START} ... ${END}`);
  const table = figuresTable(currentFigures(dir));
  const next = `${text.slice(0, from + START.length)}\n\n${table}\n\n${text.slice(to)}`;
  const prettier = await import('prettier');
  const config = (await prettier.resolveConfig(page)) ?? {};
  fs.writeFileSync(page, await prettier.format(next, { ...config, filepath: page }));
  return page;
}

/** The figures whose commit is older than the last change to src/ (`git log <commit>..HEAD -- src`). */
export function staleFigures(figures) {
  return figures.filter(({ run }) => {
    if (!run || run.commit === 'unknown') return true;
    const changes = execFileSync('git', ['log', '--oneline', `${run.commit}..HEAD`, '--', 'src'], {
      cwd: root,
      encoding: 'utf8',
    });
    return changes.trim() !== '';
  });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  if (process.argv.includes('--stale')) {
    const stale = staleFigures(currentFigures());
    for (const { figure, run } of stale) {
      process.stdout.write(
        `stale: ${figure.label} (${run ? `${run.commit}, ${run.file}` : 'never measured'})\n`,
      );
    }
    process.exitCode = stale.length > 0 ? 1 : 0;
  } else {
    process.stdout.write(`wrote ${path.relative(root, await writeFigures())}\n`);
  }
}
