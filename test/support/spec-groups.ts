import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { TEST_DB } from './test-database';

const TEST_DIR = path.resolve(__dirname, '..');
const GROUPS_DIR = path.join(TEST_DIR, 'groups');

/** The kinds of grouped spec files: the e2e specs (once per database) and the console's browser specs. */
export type SpecKind = 'e2e' | 'browser';

/** Every spec file of the kind under test/, sorted by path. */
function specFiles(kind: SpecKind): string[] {
  return fs
    .readdirSync(TEST_DIR, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith(`.${kind}-spec.ts`))
    .map((file) => path.join(TEST_DIR, file))
    .sort();
}

/**
 * The specs that build applications with extensions (test/api/extension, and any that hands
 * startTestApp `permissions` of its own, as key-rotation does): what they declare stays for the process.
 */
const declaresForTheProcess = (file: string): boolean =>
  file.includes(`${path.sep}extension${path.sep}`) ||
  /startTestApp\([^;]*\bpermissions: \[/.test(fs.readFileSync(file, 'utf8'));

/**
 * Where each spec's time goes, one JSON line per spec, for the run's reporter (scripts/jest-times.mjs):
 * named by the jest process that started this worker.
 */
export const specTimesFile = (jestPid: number): string =>
  path.join(os.tmpdir(), `relayer-spec-times-${jestPid}.jsonl`);

/**
 * The spec files of the kind (`e2e`, or the console's `browser` specs) in one group, run in this one
 * jest file (`npm test`: test/groups, docs/testing.md): a jest file loads the application's ~1,650
 * modules afresh, 4-6 s of CPU, so `npm test` runs the 90-odd e2e spec files and the 12 browser spec
 * files in `count` groups of their kind rather than one by one. Spec file i belongs to group
 * (i mod count) + 1, so that every spec is in exactly one group and a new one needs no list. Each runs
 * in a describe block named by its path, as it would alone: its hooks apply to its own tests, and the
 * environment variables it sets are put back after it; its time is written down (specTimesFile).
 */
export function runSpecGroup(group: number, count: number, kind: SpecKind = 'e2e'): void {
  const groups = fs.readdirSync(GROUPS_DIR).filter((file) => file.endsWith(`.${kind}-group.ts`));
  if (groups.length !== count) {
    throw new Error(
      `test/groups holds ${groups.length} ${kind} groups, not ${count}: every spec must be in one`,
    );
  }
  const members = specFiles(kind).filter((_, i) => i % count === group - 1);
  // An extension's permissions and audited resources are the process's (src/common/auth/resources.ts):
  // the specs that declare some run after the others of their group, whose documents they would change.
  const last = members.filter(declaresForTheProcess);
  for (const file of [...members.filter((file) => !declaresForTheProcess(file)), ...last]) {
    const spec = path.relative(path.dirname(TEST_DIR), file);
    describe(spec, () => {
      let env: NodeJS.ProcessEnv = {};
      let started = 0;
      let cpuAtStart: NodeJS.CpuUsage = { user: 0, system: 0 };
      beforeAll(() => {
        env = { ...process.env };
        started = performance.now();
        cpuAtStart = process.cpuUsage();
      });
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- a spec file registers its tests when loaded
      require(file);
      afterAll(() => {
        process.env = env;
        const seconds = (performance.now() - started) / 1000;
        // The CPU of this worker only: a process or browser the spec started is not counted.
        const { user, system } = process.cpuUsage(cpuAtStart);
        const cpu = (user + system) / 1e6;
        fs.appendFileSync(
          specTimesFile(process.ppid),
          `${JSON.stringify({ spec, db: kind === 'browser' ? 'console' : TEST_DB, seconds, cpu })}\n`,
        );
      });
    });
  }
}
