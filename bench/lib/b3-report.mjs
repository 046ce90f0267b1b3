// The report's side of baseline B3, the framework floor (bench/baselines/b3-nest.mjs, started by
// bench/lib/b3.mjs): the goals of issue 15 against it, a table per database of every scenario
// against B3 beside its ratio to B0/B1/B2, and the method text. report.mjs calls these.

const int = (n) =>
  n === null || n === undefined || Number.isNaN(n) ? '–' : Math.round(n).toLocaleString('en-US');
const ms = (x) => (x === null || x === undefined ? '–' : x < 10 ? x.toFixed(2) : x.toFixed(1));
const pct = (r) => (r === null || r === undefined || !Number.isFinite(r) ? '–' : `${(r * 100).toFixed(0)} %`);
const mb = (x) => (x === null || x === undefined ? '–' : x.toFixed(0));
const cpuMs = (x) => (x === null || x === undefined ? '–' : x.toFixed(3));
const cores = (x) => (x === null || x === undefined ? '–' : x.toFixed(2));
const times = (x) => (x === null || x === undefined || !Number.isFinite(x) ? '–' : `${x.toFixed(2)}x`);

const DB_TITLES = { sqlite: 'SQLite', mysql: 'MySQL' };

const measured = (results) =>
  ['sqlite', 'mysql'].map((k) => results.databases[k]).filter((s) => s && !s.skipped && s.scenarios);

const withB3 = (section, id) => section.scenarios.find((s) => s.id === id && !s.failed && s.b3) ?? null;

/** The service's CPU per request over B3's. */
const cpuOverB3 = (s) =>
  s.service.cpuMsPerRequest && s.b3.cpuMsPerRequest ? s.service.cpuMsPerRequest / s.b3.cpuMsPerRequest : null;

/** Issue 15's goals against B3 (reported, not asserted); none when no section measured B3. */
export function b3Goals(results) {
  const goals = [];
  for (const section of measured(results)) {
    if (!section.scenarios.some((s) => s.b3)) continue;
    const title = DB_TITLES[section.database];
    const ratio = (id, min, text) => {
      const s = withB3(section, id);
      goals.push({
        goal: `${text} (${title})`,
        target: `>= ${pct(min)}`,
        measured: s ? `${pct(s.ratioB3)} (${int(s.service.rps)} vs ${int(s.b3.rps)} req/s)` : 'not measured',
        pass: s ? s.ratioB3 >= min : null,
      });
    };
    ratio('get-by-id', 0.7, 'GET relayer by id vs B3, the framework floor');
    const get = withB3(section, 'get-by-id');
    const over = get ? cpuOverB3(get) : null;
    goals.push({
      goal: `GET relayer by id, CPU per request vs B3 (${title})`,
      target: '<= 1.5x',
      measured:
        over === null
          ? 'not measured'
          : `${times(over)} (${cpuMs(get.service.cpuMsPerRequest)} vs ${cpuMs(get.b3.cpuMsPerRequest)} ms)`,
      pass: over === null ? null : over <= 1.5,
    });
    ratio('post-relayer', 0.5, 'POST relayer vs B3');
  }
  return goals;
}

/** A section's scenarios against B3, beside their ratio to B0/B1/B2; no lines without B3. */
export function b3SectionMarkdown(section) {
  const rows = section.scenarios.filter((s) => !s.failed && s.b3);
  if (rows.length === 0) return [];
  const lines = [
    `### ${DB_TITLES[section.database]}: against B3, the framework floor`,
    '',
    'B3 is a minimal Nest + platform-express application with the service’s bearer check, rate limiter, envelope ' +
      'interceptor and logger around the same handlers as B1/B2 (see Method): "ratio to B3" is what the service keeps of the ' +
      'framework’s own throughput, "B3 ÷ baseline" what the framework keeps of the raw server’s. CPU ms/req is the CPU time of ' +
      'the process under load per answered request; "service ÷ B3" is the cost above the framework, as a factor.',
    '',
    '| Scenario | Service req/s | B3 req/s | Ratio to B3 | Ratio to baseline | B3 ÷ baseline | CPU ms/req service / B3 | Service ÷ B3, CPU | B3 p50 / p99 ms | Non-2xx B3 | B3 peak RSS MB | Other load, B3 runs |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ];
  for (const s of rows) {
    lines.push(
      `| ${s.label} | ${int(s.service.rps)} | ${int(s.b3.rps)} | ${pct(s.ratioB3)} | ${pct(s.ratio)} (${s.baselineKind}) | ` +
        `${pct(s.b3.rps / s.baseline.rps)} | ${cpuMs(s.service.cpuMsPerRequest)} / ${cpuMs(s.b3.cpuMsPerRequest)} | ` +
        `${times(cpuOverB3(s))} | ${ms(s.b3.latency.p50)} / ${ms(s.b3.latency.p99)} | ${int(s.b3.non2xx + s.b3.errors)} | ${mb(s.b3.peakRssMB)} | ${cores(s.b3.foreignCpuMax)} |`,
    );
  }
  lines.push('');
  return lines;
}

/** The Method entry for B3. */
export const B3_METHOD =
  '- B3, the framework floor (`bench/baselines/b3-nest.mjs`): a minimal Nest + `@nestjs/platform-express` application on the ' +
  "same Node with the service's Node flags, `NODE_ENV=production`, and the service's global pieces taken from the same build: " +
  "a bearer guard around the service's `ApiKeyVerifier` (constant-time check of `API_KEY`; no managed keys or permissions), " +
  "the service's `ApiKeyThrottlerGuard` with its in-memory `FixedWindowThrottlerStorage` and the same limits as the service, " +
  "the service's `EnvelopeInterceptor`, and its `LoggingModule` (nestjs-pino, one JSON line per request at `info`, to a file), " +
  'plus `/health` answered by Express ahead of Nest as the service does. Its handlers are the very functions of B1 (SQLite) or ' +
  'B2 (MySQL), on a database of its own with the same schema and rows. Bodies go through Nest’s default JSON body parser. ' +
  'It has no validation pipe, no exception filter of the service’s, no idempotency or JSON-body interceptors, no request ' +
  'context or audit trail, no TypeORM and no address derivation: those are what the service adds above the floor. Each ' +
  'scenario measures it as a third target, in the order service, baseline, B3, B3, baseline, service (`--no-b3` leaves it out).';
