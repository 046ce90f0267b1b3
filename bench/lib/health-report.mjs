// The section "Health-check rounds" of docs/benchmark-results.md, from the `healthRound` entries that
// bench/lib/health.mjs writes into a run's results (report.mjs calls it), B4 beside the round alone
// included. No dependencies, so that report.mjs can rebuild the page without the database drivers.

const int = (x) =>
  x === null || x === undefined || !Number.isFinite(x) ? '–' : Math.round(x).toLocaleString('en-US');
const ms = (x) => (x === null || x === undefined ? '–' : x < 10 ? x.toFixed(2) : x.toFixed(1));
const dec = (x, d = 2) => (x === null || x === undefined || !Number.isFinite(x) ? '–' : x.toFixed(d));
const TITLES = { sqlite: 'SQLite', mysql: 'MySQL' };
/** What runs without them in their results recorded (src/relayer-health/relayer-health-scheduler.ts, rpc-fetch.ts). */
/** What results saved before the scheduler recorded its constants ran with (checks one by one). */
const SCHEDULER = { batch: 50, concurrency: 16, idlePollMs: 1000, rpcCallsPerCheck: 3, agentConnections: 8 };
/** B4's batching (bench/lib/b4.mjs), for runs without B4. */
const B4_DEFAULTS = { batchCalls: 300, inFlight: 4 };

export const hasHealth = (results) => Object.values(results.databases ?? {}).some((s) => s.healthRound);

export function healthMarkdown(results, relPath) {
  const o = results.options;
  const sections = ['sqlite', 'mysql']
    .map((key) => results.databases[key])
    .filter((section) => section && !section.skipped && section.healthRound);
  const first = sections.find((s) => !s.healthRound.failed)?.healthRound ?? sections[0]?.healthRound;
  const s = first?.scheduler ?? SCHEDULER;
  const lines = [
    '## Health-check rounds',
    '',
    `Run of ${results.startedAt.replace('T', ' ').replace(/\.\d+Z$/, ' UTC')} ` +
      `(${o.quick ? '**quick run**: ' : ''}${int(o.healthRelayers)} relayers, ${o.durationS} s per GET run, ${o.connections} connections), ` +
      `\`${results.command}\`, raw data in [\`${relPath}\`](../${relPath}); service built from commit ` +
      `\`${(results.git.commit ?? 'unknown').slice(0, 12)}\`` +
      (results.git.dirtyFiles.length ? ` plus ${results.git.dirtyFiles.length} uncommitted change(s)` : '') +
      `; anvil ${first?.anvil?.version ?? '–'}.`,
    '',
    `One local anvil (\`node_modules/@foundry-rs\`, \`--chain-id ${first?.chainId ?? 31337} --silent\`, as the e2e tests start it) and a catalogue with one ` +
      `EVM network on it and ${int(o.healthRelayers)} signers; ${int(o.healthRelayers)} relayers on that network written with SQL, with the ` +
      'addresses the service derives from those signers, each funded above its `min_balance` (so every check passes and ' +
      'nothing changes state: the steady state), and their `relayer_checks` rows. The service runs with ' +
      `\`RELAYER_HEALTH_CHECK_INTERVAL_SECONDS=${first?.serviceEnv?.RELAYER_HEALTH_CHECK_INTERVAL_SECONDS ?? '–'}\` and the same retry, ` +
      'so one round is never followed by another, and `RPC_TIMEOUT_MS` at its default. A round starts when one `UPDATE` makes ' +
      "every row due and ends at the last `checked_at` the service writes; it includes the scheduler's idle poll (up to " +
      `${s.idlePollMs} ms before the first check). CPU is each process's own time from \`/proc/<pid>/stat\` over the round.`,
    '',
    '- **round, no API load**: the round alone on a warmed-up service.',
    `- **round under load**: the same round again while GET /relayers/{id} (ids rotating over all the relayers) runs at full ` +
      `load on ${o.connections} connections, from the first check to the last; beside it, the same GET on a service with ` +
      '`RELAYER_HEALTH_CHECKS=false` (same database), and on the checks-on service once nothing is due (a drift check).',
    '- **added per RPC call**: a round over other relayers (the first signers again, on a second network of the same ' +
      'chain) whose RPC URL is a proxy in the benchmark process that holds every call that long before passing it to ' +
      'anvil: the round trip of a remote node. See below.',
    '- **DB statements/check** (MySQL): the statements the server counted (`Questions`: each statement a client sends, ' +
      "`BEGIN` and `COMMIT` included) from every connection but the benchmark's own, from just before the `UPDATE` to the " +
      "end of the round, over the round's relayers, with how many were `SELECT`, `UPDATE`, `INSERT`, `BEGIN`, `COMMIT` " +
      "or other (the scheduler's idle polls for due rows included); issue 28 asks for at most 1 per check on a round where " +
      'nothing changed, as here. Not counted under the GET load (its requests run statements on the same server), nor ' +
      'on SQLite (no server to count them).',
    "- **Peak RSS**: the service's highest `VmRSS` (`/proc/<pid>/status`, sampled every 50 ms) from the `UPDATE` to " +
      'the end of the round, and before the `UPDATE` in brackets; issue 28 asks for at most 200 MB over a round of 10,000 ' +
      'relayers. Runs recorded before it was sampled show "–".',
    `- A round that writes no \`checked_at\` for ${int(first?.stallSeconds ?? 60)} s counts as **stalled**: the benchmark then asks the ` +
      'service for GET /health (no database) and GET /relayers/{id}, lists its MySQL connections, and skips the rest of ' +
      'that database.',
    '',
    '| Database | Round | Relayers | Round time | Checks/s | First check after | Service CPU | Service CPU ms/check | DB statements/check | anvil CPU | MySQL CPU | Peak RSS | Disabled after | Other load |',
    '| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ];
  for (const section of sections) {
    const h = section.healthRound;
    const title = TITLES[section.database];
    if (h.failed && !h.roundAlone) {
      lines.push(
        `| ${title} | failed: ${h.failed.replace(/\|/g, '\\|').slice(0, 200)} | | | | | | | | | | | | |`,
      );
      continue;
    }
    for (const [key, label] of [
      ['roundFirst', 'no API load, first round (every verdict new)'],
      ['roundAlone', 'no API load, nothing changed'],
      ['roundUnderLoad', 'under GET by id load'],
      ['roundRemote', `no API load, ${h.roundRemote?.rpcDelayMs ?? '–'} ms added per RPC call`],
    ]) {
      const r = h[key];
      if (!r) continue;
      if (r.stalled) {
        const st = r.stalled;
        lines.push(
          `| ${title} | ${label} | ${int(st.of)} | **stalled**: ${int(st.checked)} checked, then none for ${int(st.noProgressForSeconds)} s ` +
            `(GET /health: ${st.health}; GET /relayers/{id}: ${st.getById}` +
            (st.databaseConnections
              ? `; the service's MySQL connections: ${st.databaseConnections.total}, ${st.databaseConnections.running} running a statement, ` +
                `the others idle for ${Math.min(...st.databaseConnections.sleepingSeconds)}–${Math.max(...st.databaseConnections.sleepingSeconds)} s`
              : '') +
            `) | | | | | | | | ${rssCell(r)} | | ${dec(r.foreignCores)} |`,
        );
        continue;
      }
      lines.push(
        `| ${title} | ${label} | ${int(r.checked)} | **${dec(r.seconds, 1)} s** | ${int(r.checksPerSecond)} | ${int(r.firstCheckAfterMs)} ms | ` +
          `${dec(r.serviceCores)} cores | ${dec(r.serviceCpuMsPerCheck)} | ${statementsCell(section.database, r.statements, r.checked)} | ` +
          `${dec(r.anvilCores)} cores (${dec(r.anvilCpuMsPerCheck)} ms/check) | ` +
          `${r.databaseCores === null ? '–' : `${dec(r.databaseCores)} cores (${dec(r.databaseCpuMsPerCheck)} ms/check)`} | ${rssCell(r)} | ` +
          `${int(r.disabledAfter)} | ${dec(r.foreignCores)} |`,
      );
    }
  }
  lines.push(
    '',
    ...b4Lines(sections),
    '| Database | GET /relayers/{id} | req/s | p50 ms | p99 ms | Service CPU | non-2xx | Other load |',
    '| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |',
  );
  for (const section of sections) {
    const h = section.healthRound;
    const title = TITLES[section.database];
    for (const [label, g] of [
      ['`RELAYER_HEALTH_CHECKS=false`', h.getWithoutChecks],
      ['**during the round**', h.roundUnderLoad?.get],
      ['checks on, nothing due', h.getChecksOnIdle],
    ]) {
      if (!g) continue;
      lines.push(
        `| ${title} | ${label} | ${int(g.rps)} | ${ms(g.latency.p50)} | ${ms(g.latency.p99)} | ${dec(g.serviceCores)} cores | ${int(g.non2xx + g.errors)} | ${dec(g.foreignCores)} |`,
      );
    }
  }
  lines.push(
    '',
    ...boundLines(s),
    '',
    ...remoteLines(sections, s, o.healthRelayers),
    'Caveats: the machine has 2 cores, and the service, anvil, the load generator (autocannon, in the benchmark process) and ' +
      'MySQL share them, so the "under load" rows are those of a saturated machine; "Other load" is the most CPU (in cores) ' +
      'that processes outside the benchmark used during the round or run (on average over it).' +
      (o.quick
        ? ' This was a quick run: fewer relayers and short GET runs, for trying the scenario, not for the numbers.'
        : ''),
    '',
  );
  return lines;
}

/** The service's peak RSS over a round (MB), with the RSS before it; "–" in runs that predate it. */
function rssCell(r) {
  if (r.peakRssMb === undefined || r.peakRssMb === null) return '–';
  return `**${int(r.peakRssMb)} MB**${r.rssBeforeMb === undefined || r.rssBeforeMb === null ? '' : ` (${int(r.rssBeforeMb)} MB before)`}`;
}

/** The service's statements per check in a round, and per check of each kind (`statements` of bench/lib/health.mjs). */
function statementsCell(database, st, checks) {
  if (database === 'sqlite') return 'not counted on SQLite';
  if (!st) return '–';
  const kinds = Object.entries(st.byKind)
    .filter(([, k]) => k !== 0)
    .map(([kind, k]) => `${kind} ${dec(k / checks)}`);
  return `**${dec(st.perCheck)}**${kinds.length ? ` (${kinds.join(', ')})` : ''}`;
}

/** What B4 does, and the round alone against it per database (bench/lib/b4.mjs). */
function b4Lines(sections) {
  const runs = sections.filter((section) => section.healthRound.b4);
  const b = runs.find((section) => !section.healthRound.b4.failed)?.healthRound.b4;
  const batchCalls = b?.batchCalls ?? B4_DEFAULTS.batchCalls;
  const inFlight = b?.inFlight ?? B4_DEFAULTS.inFlight;
  const lines = [
    '**Against B4, the floor of a round.** B4 (`bench/baselines/b4-rpc.mjs`) is a bare Node script, no database and no ' +
      "framework, that makes for the same relayers' addresses, on the same anvil, the JSON-RPC calls of the service's EVM " +
      'check (`eth_chainId`, `eth_getTransactionCount(address, pending)`, `eth_getBalance(address, latest)`) and applies the ' +
      'same verdict (the chain id, a nonce, a balance of at least `min_balance`), batched as far as the RPC allows: JSON-RPC ' +
      `batch arrays over \`fetch\`, ${int(batchCalls)} calls (${int(batchCalls / 3)} relayers) per POST, up to ${int(inFlight)} POSTs in ` +
      "flight. It runs in a process of its own with the service's Node flags, right after the round with no API load (the " +
      'service idle, nothing due), and goes over the relayers twice: the first pass warms up the JIT and the connections, ' +
      'the second is the one reported; its time is the wall clock from its first POST to its last answer, its CPU ' +
      "`process.cpuUsage()` (user + system) over the same span, anvil's from `/proc/<pid>/stat`. It is the floor that issue " +
      '28\'s targets for a round are measured against: "service ÷ B4" is the round alone\'s time (from the `UPDATE`, and ' +
      "from the first `checked_at` to the last) and its CPU over B4's, as factors.",
    '',
  ];
  if (runs.length === 0) {
    lines.push('This run has no B4 numbers (it predates B4, or ran with `--no-b4`).', '');
    return lines;
  }
  lines.push(
    '| Database | Relayers | Service round time | Service first to last check | B4 time | Service ÷ B4, time | Service ÷ B4, first to last | Service CPU | B4 CPU | Service ÷ B4, CPU | anvil CPU ms/check, service / B4 | B4 checks passed |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  );
  for (const section of runs) {
    const h = section.healthRound;
    const title = TITLES[section.database];
    const r = h.roundAlone;
    const f = h.b4;
    if (f.failed) {
      lines.push(
        `| ${title} | B4 failed: ${f.failed.replace(/\|/g, '\\|').slice(0, 200)} | | | | | | | | | | |`,
      );
      continue;
    }
    const m = f.measured;
    lines.push(
      `| ${title} | ${int(f.relayers)} | ${dec(r.seconds, 2)} s | ${dec(r.firstToLastSeconds, 2)} s | ${dec(f.seconds, 3)} s | ` +
        `**${dec(f.serviceOverB4.time, 1)}x** | ${dec(f.serviceOverB4.firstToLast, 1)}x | ` +
        `${dec(r.cpuSeconds.service)} s (${dec(r.serviceCpuMsPerCheck)} ms/check) | ${dec(f.cpuSeconds, 3)} s (${dec(f.cpuMsPerCheck, 3)} ms/check) | ` +
        `**${dec(f.serviceOverB4.cpu, 1)}x** | ${dec(r.anvilCpuMsPerCheck)} / ${dec(f.anvilCpuMsPerCheck)} | ${int(m.passed)} of ${int(m.checked)} |`,
    );
  }
  lines.push('');
  return lines;
}

const atOnce = (s) => (s.batchesAtOnce === 1 ? 'one batch at a time' : `${s.batchesAtOnce} batches at once`);

/** What bounds a round, for the scheduler the run measured (batches since issue 28, checks one by one before). */
function boundLines(s) {
  if (s.batchesAtOnce !== undefined) {
    return [
      `What bounds a round: the scheduler (src/relayer-health/relayer-health-scheduler.ts) takes ${s.batch} due rows at a time, ` +
        `${atOnce(s)}. A batch claims its rows with one \`UPDATE\`, reads their relayers and the networks' ` +
        `RPC lists once, and sends the calls to one endpoint as JSON-RPC batches: \`eth_chainId\` once, then every relayer's ` +
        '`eth_getTransactionCount(pending)` in one request, then every `eth_getBalance` in another, ' +
        `${s.rpcRequestsPerBatch} requests for ${s.batch} relayers. It reads the relayers' versions and the RPC lists again, and ` +
        'the checks that passed on a relayer they do not change write their numbers and times in one statement; only a verdict ' +
        'that changes a relayer takes a transaction of its own. On MySQL the batches run on a pool of ' +
        `${s.workerConnections} connections of their own, never on the API's. With anvil on the same machine an RPC call takes a ` +
        "fraction of a millisecond, so a local round is bound by the service's one JavaScript thread: its CPU per check " +
        "(hydrating rows, each relayer's probe, the JSON of the calls), which B4, the same calls without a database or a " +
        'framework, does not have.',
    ];
  }
  return [
    `What bounds a round: the scheduler (src/relayer-health/relayer-health-scheduler.ts) takes ${s.batch} due rows at a time and runs ` +
      `at most ${s.concurrency} checks at once; each check claims its row (an \`UPDATE\`, committed on its own), reads the relayer, ` +
      `makes ${s.rpcCallsPerCheck} RPC calls one after the other (\`eth_chainId\`, \`eth_getTransactionCount(pending)\`, ` +
      '`eth_getBalance`, through viem and the URL-policy agent) and applies the verdict in a transaction (reads the check and ' +
      'the relayer, writes the check). With anvil on the same machine an RPC call takes a fraction of a millisecond, so the ' +
      "local rounds are bound by the service's one JavaScript thread: its CPU per check (the RPC client stack, TypeORM) and, on " +
      'SQLite, the two commits per check, whose fsync (`synchronous = FULL`) blocks that thread; under API load the requests ' +
      'take most of the same thread, and the round slows down rather than the API.',
  ];
}

/** The paragraph on the round behind the delaying proxy, from what the proxy counted. */
function remoteLines(sections, s, relayers) {
  const rows = sections.filter((section) => section.healthRound.roundRemote);
  if (rows.length === 0) return [];
  if (s.batchesAtOnce !== undefined) {
    const r = rows[0].healthRound.roundRemote;
    const parts = rows.map((section) => {
      const x = section.healthRound.roundRemote;
      return (
        `${TITLES[section.database]}: ${int(x.checked)} relayers in ${dec(x.seconds, 1)} s (${int(x.checksPerSecond)} checks/s), ` +
        `${int(x.rpcCalls)} HTTP requests, at most ${int(x.rpcMaxInFlight)} held at once`
      );
    });
    const perRound = (n) =>
      (Math.ceil(n / s.batch / s.batchesAtOnce) * s.rpcRequestsPerBatch * r.rpcDelayMs) / 1000;
    return [
      `Against a remote node a round is bound by the round trip instead. The round behind the proxy (${int(r.rpcDelayMs)} ms ` +
        `added to every HTTP request, the first ${int(r.checked)} relayers on a second network with the same anvil behind it): ` +
        `${parts.join('; ')}. A batch makes ${s.rpcRequestsPerBatch} requests one after the other, ${atOnce(s)}, ` +
        `so a round of N relayers on one node takes at least N / ${s.batch} / ${s.batchesAtOnce} × ` +
        `${s.rpcRequestsPerBatch} × RTT: ${dec(perRound(r.checked), 1)} s for these ${int(r.checked)}, ` +
        `${dec(perRound(relayers), 1)} s for ${int(relayers)} relayers at ${int(r.rpcDelayMs)} ms, against the default interval ` +
        'of 60 s (`RELAYER_HEALTH_CHECK_INTERVAL_SECONDS`).',
      '',
    ];
  }
  const parts = rows.map((section) => {
    const r = section.healthRound.roundRemote;
    const inFlight = Math.min(s.concurrency, r.rpcMaxInFlight);
    const bound = (r.checked * s.rpcCallsPerCheck * r.rpcDelayMs) / 1000 / inFlight;
    return (
      `${TITLES[section.database]}: ${int(r.checked)} relayers in ${dec(r.seconds, 1)} s (${int(r.checksPerSecond)} checks/s), ` +
      `${int(r.rpcCalls)} calls, at most ${int(r.rpcMaxInFlight)} held at once on ${int(r.rpcConnections)} connections; ` +
      `with ${int(r.rpcMaxInFlight)} in flight the calls alone take at least ${dec(bound, 1)} s`
    );
  });
  const r = rows[0].healthRound.roundRemote;
  return [
    `Against a remote node a round is bound by the round trip instead. The round behind the proxy (${int(r.rpcDelayMs)} ms ` +
      `added to every call, the first ${int(r.checked)} relayers on a second network with the same anvil behind it): ` +
      `${parts.join('; ')}. ${rows.some((x) => x.healthRound.roundRemote.rpcMaxInFlight < s.concurrency) ? `The RPC agent (src/relayer-health/rpc-fetch.ts) keeps at most ${s.agentConnections} connections per origin, so on one node only ${s.agentConnections} of the ${s.concurrency} concurrent checks have a call in flight; ` : ''}` +
      `a round of N relayers on one node takes at least N × ${s.rpcCallsPerCheck} × RTT / (calls in flight): for ` +
      `${int(relayers)} relayers at ${int(r.rpcDelayMs)} ms, ${dec((relayers * s.rpcCallsPerCheck * r.rpcDelayMs) / 1000 / Math.min(s.concurrency, r.rpcMaxInFlight), 0)} s, ` +
      `against the default interval of 60 s (\`RELAYER_HEALTH_CHECK_INTERVAL_SECONDS\`; a round that runs late delays the next, ` +
      'no relayer is checked twice at once).',
    '',
  ];
}
