// A jest reporter (scripts/test.mjs adds it): when the run ends, its wall time, the time its files took
// summed per project (e2e and e2e-mysql hold the same files, once per database) and its slowest files,
// so that a CI log says where the time went (docs/testing.md#how-long-it-takes).
import path from 'node:path';

export default class JestTimes {
  /** Each file's project and seconds, as they end. */
  files = [];
  started = Date.now();

  onTestResult(test, result) {
    const name = test.context.config.displayName?.name ?? 'default';
    this.files.push({
      project: name,
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
      console.log(`  ${file.seconds.toFixed(1).padStart(6)} s  ${file.project.padEnd(9)} ${file.name}`);
    }
  }
}
