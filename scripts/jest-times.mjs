// A jest reporter (scripts/test.mjs adds it): when the run ends, its wall time, the time its files took
// summed per project (e2e and e2e-mysql hold the same files, once per database), its slowest files and,
// for the groups of e2e and browser specs (test/support/spec-groups.ts), its slowest spec files, so that a CI log says where
// the time went (docs/testing.md#how-long-it-takes).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** Written by the groups' workers, whose parent is this process (specTimesFile in spec-groups.ts). */
const specTimes = path.join(os.tmpdir(), `relayer-spec-times-${process.pid}.jsonl`);
/** Where the run's spec times stay afterwards, every spec file of it, for a closer look. */
const lastSpecTimes = path.join(os.tmpdir(), 'relayer-spec-times-last.jsonl');

const line = (seconds, project, name) =>
  `  ${seconds.toFixed(1).padStart(6)} s  ${project.padEnd(9)} ${name}`;

export default class JestTimes {
  /** Each file's project and seconds, as they end. */
  files = [];
  started = Date.now();

  onTestResult(test, result) {
    this.files.push({
      project: test.context.config.displayName?.name ?? 'default',
      name: path.relative(process.cwd(), result.testFilePath),
      seconds: (result.perfStats.end - result.perfStats.start) / 1000,
    });
  }

  onRunComplete() {
    const byProject = new Map();
    for (const file of this.files)
      byProject.set(file.project, (byProject.get(file.project) ?? 0) + file.seconds);
    const sums = [...byProject].map(([project, seconds]) => `${project} ${seconds.toFixed(0)} s`).join(', ');
    const wall = ((Date.now() - this.started) / 1000).toFixed(0);
    console.log(`\njest: ${wall} s of wall time; summed per file: ${sums}`);
    for (const file of this.files.sort((a, b) => b.seconds - a.seconds).slice(0, 10)) {
      console.log(line(file.seconds, file.project, file.name));
    }
    if (!fs.existsSync(specTimes)) return;
    const specs = fs
      .readFileSync(specTimes, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((text) => JSON.parse(text));
    fs.renameSync(specTimes, lastSpecTimes);
    console.log(`slowest of ${specs.length} spec files in the groups (all of them in ${lastSpecTimes}):`);
    for (const spec of specs.sort((a, b) => b.seconds - a.seconds).slice(0, 10)) {
      console.log(line(spec.seconds, spec.db, spec.spec));
    }
  }
}
