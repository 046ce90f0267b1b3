// Jest's own order (a file that failed last time first, then the longest, then by size for a file never
// timed), with one change for files never timed (a clean clone, as in CI): the console's browser specs
// and the e2e groups (3-line files that each run ~10 spec files, the longest jest files of the run:
// test/support/spec-groups.ts) start first, so that none of them starts last and leaves a core idle
// meanwhile, taken in turn, a browser spec then a group. A browser spec keeps a core busy (Chromium
// and the app beside it); a group mostly waits, on MariaDB, a timer or a process it started. Four
// browser specs at once at the start (as before e240a8b) put the machine at load 22 while the
// groups at the end left it at 4-7 (CI at b8e561b: 1,158 s).
const Sequencer = require('@jest/test-sequencer').default;

const BROWSER = /\.browser-(spec|group)\.ts$/;
const GROUP = /\.e2e-group\.ts$/;

/** a0, b0, a1, b1, ...: the two lists in turn, the rest of the longer one after. */
function alternate(a, b) {
  const out = [];
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    if (i < a.length) out.push(a[i]);
    if (i < b.length) out.push(b[i]);
  }
  return out;
}

class LongFirst extends Sequencer {
  sort(tests) {
    const sorted = super.sort(tests);
    const untimed = (pattern) => (test) => test.duration == null && pattern.test(test.path);
    const browser = sorted.filter(untimed(BROWSER));
    const groups = sorted.filter(untimed(GROUP));
    const first = new Set([...browser, ...groups]);
    return [...alternate(browser, groups), ...sorted.filter((test) => !first.has(test))];
  }
}

module.exports = LongFirst;
