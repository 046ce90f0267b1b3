// Jest's own order (a file that failed last time first, then the longest, then by size for a file never
// timed), with one change for files never timed (a clean clone, as in CI): the e2e groups (3-line files
// that each run ~10 spec files, the longest jest files of the run: test/support/spec-groups.ts) and the
// console's browser specs start first, so that none of them starts last and leaves a core idle meanwhile.
const Sequencer = require('@jest/test-sequencer').default;

const LONG = /\.(e2e-group|browser-spec)\.ts$/;

class LongFirst extends Sequencer {
  sort(tests) {
    const sorted = super.sort(tests);
    const first = (test) => test.duration == null && LONG.test(test.path);
    return [...sorted.filter(first), ...sorted.filter((test) => !first(test))];
  }
}

module.exports = LongFirst;
