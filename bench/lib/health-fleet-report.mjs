// The section "Health checks at fleet scale" of docs/benchmark-results.md, from the `healthFleet` entry that
// bench/lib/health-fleet.mjs writes into a run's results (report.mjs calls it). No dependencies, so
// that report.mjs can rebuild the page without the database drivers.

const int = (x) =>
  x === null || x === undefined || !Number.isFinite(x) ? '–' : Math.round(x).toLocaleString('en-US');
const dec = (x, d = 2) => (x === null || x === undefined || !Number.isFinite(x) ? '–' : x.toFixed(d));
const cell = (text) => String(text).replace(/\|/g, '\\|').slice(0, 200);

export const hasFleet = (results) =>
  Object.values(results.databases ?? {}).some((s) => s.healthFleet && !s.healthFleet.skipped);

export function fleetMarkdown(results, relPath) {
  const f = Object.values(results.databases).find((s) => s.healthFleet && !s.healthFleet.skipped).healthFleet;
  const lines = [
    '## Health checks at fleet scale',
    '',
    `Run of ${results.startedAt.replace('T', ' ').replace(/\.\d+Z$/, ' UTC')}, \`${results.command}\`, raw data in ` +
      `[\`${relPath}\`](../${relPath}); service built from commit \`${(results.git.commit ?? 'unknown').slice(0, 12)}\`` +
      (results.git.dirtyFiles.length ? ` plus ${results.git.dirtyFiles.length} uncommitted change(s)` : '') +
      `; anvil ${f.anvil?.version ?? '–'}.`,
    '',
    `${int(f.relayers)} relayers on one local anvil, funded above their \`min_balance\` (every check passes), checked by ` +
      `**${f.instances} instances of the service on one MySQL database** with ` +
      `\`RELAYER_HEALTH_CHECK_INTERVAL_SECONDS=${f.intervalSeconds}\` and the same retry. The catalogue holds the network and ` +
      `${int(f.catalogueSigners)} signers: a health check reads the relayer's stored address, never its signer ` +
      '(bench/lib/health-fleet.mjs, `FLEET_SIGNERS`). The RPC URL of the network is a proxy in the benchmark process in front ' +
      'of anvil that forwards each body unchanged (one JSON-RPC call or a batch array) and records the time of every ' +
      '`eth_getTransactionCount`, one per check of a relayer, and the instance whose connection it came on. Once the ' +
      `three are ready one \`UPDATE\` makes every relayer due at t0; the run lasts ${f.rounds} intervals plus one for the last ` +
      `round to finish (${dec(f.runSeconds, 0)} s), so each relayer should be checked ${f.rounds} or ${f.rounds + 1} times. ` +
      'Round r is the r-th check of each relayer; its lag is how long after its due time a check came (t0 for round 0, then ' +
      'the previous check plus the interval).',
    '',
  ];
  if (f.failed && !f.roundStats) {
    lines.push(`**Failed**: ${cell(f.failed)}`, '');
    return lines;
  }
  const c = f.checksPerRelayer;
  const byCount = Object.entries(c.relayersByCount)
    .map(([k, v]) => `${int(v)} with ${k}`)
    .join(', ');
  const g = f.gaps;
  lines.push(
    `- **Checks per relayer**: min ${c.min}, max ${c.max} (${byCount}); expected ${c.expected.join(' or ')}. ` +
      `${int(f.checks)} checks in all, in ${int(f.rpc.posts)} POSTs of up to ${int(f.rpc.largestBatch)} calls.`,
    `- **Every relayer checked once per round**: the smallest gap between two consecutive checks of one relayer is ` +
      `**${dec(g.smallestSeconds)} s** (interval ${f.intervalSeconds} s); **${int(g.relayersWithShortGap)}** relayers had a gap ` +
      `below ${dec(g.shortBelowSeconds, 1)} s (a second check within a round, by another instance or the same).`,
    `- **Relayers disabled** by the instances: **${int(f.disabledAfter)}** (0 expected).` +
      (f.failed ? ` The run ended early: ${cell(f.failed)}.` : ''),
    '',
    '| Round | Relayers | First to last check | Within the interval | First / last check after t0 | Lag p50 | Lag p99 | Lag max |',
    '| --- | ---: | ---: | :---: | ---: | ---: | ---: | ---: |',
  );
  for (const r of f.roundStats) {
    lines.push(
      `| ${r.round}${r.complete ? '' : ' (in the margin)'} | ${int(r.relayers)} | **${dec(r.firstToLastSeconds, 1)} s** | ` +
        `${r.withinInterval ? '✓' : '✗'} | ${dec(r.firstAfterSeconds, 1)} s / ${dec(r.lastAfterSeconds, 1)} s | ` +
        `${dec(r.lagSeconds.p50)} s | ${dec(r.lagSeconds.p99)} s | ${dec(r.lagSeconds.max)} s |`,
    );
  }
  lines.push(
    '',
    '| Process | Checks | CPU over the run | CPU ms/check | Peak RSS (before t0) | Start to ready |',
    '| --- | ---: | ---: | ---: | ---: | ---: |',
  );
  f.instanceStats.forEach((i, k) => {
    lines.push(
      `| instance ${k + 1}${i.alive ? '' : ' (exited)'} | ${int(i.checks)} | ${dec(i.cores)} cores | ${dec(i.cpuMsPerCheck)} | ` +
        `**${int(i.peakRssMb)} MB** (${int(i.rssBeforeMb)} MB) | ${dec((f.serviceReadyMs?.[k] ?? NaN) / 1000, 1)} s |`,
    );
  });
  lines.push(
    `| the ${f.instances} instances | ${int(f.checks)} | ${dec(f.instanceStats.reduce((sum, i) => sum + i.cores, 0))} cores | ` +
      `${dec(f.fleetCpuMsPerCheck)} | | |`,
    `| MySQL | | ${f.databaseServer ? `${dec(f.databaseServer.cores)} cores` : '–'} | ` +
      `${f.databaseServer && f.checks ? dec((f.databaseServer.cpuSeconds * 1000) / f.checks) : '–'} | | |`,
    `| anvil | | ${dec(f.anvil?.cores)} cores | ${f.checks ? dec((f.anvil.cpuSeconds * 1000) / f.checks) : '–'} | | |`,
    `| the benchmark process (the counting proxy) | | ${f.proxy ? `${dec(f.proxy.cores)} cores` : '–'} | ${f.checks && f.proxy ? dec((f.proxy.cpuSeconds * 1000) / f.checks) : '–'} | | |`,
    '',
    `The first instance started on an empty database (the migrations), the other two on the seeded one. ` +
      (f.unattributedChecks
        ? `${int(f.unattributedChecks)} checks came on connections not traced to an instance. `
        : '') +
      `Setup: addresses derived and catalogue written in ${dec(f.catalogueMs / 1000, 1)} s, funded on anvil in ` +
      `${dec(f.fundMs / 1000, 1)} s, relayers seeded with SQL in ${dec(f.seedMs / 1000, 1)} s. Other load during the run: ` +
      `${dec(f.foreignCores)} cores. The machine's 2 cores are shared by the three instances, MySQL, anvil and the proxy.`,
    '',
  );
  return lines;
}
