// Five projects: unit tests beside the code (src/**/*.spec.ts), controller slices over HTTP without
// a database (test/api/**/*.slice-spec.ts: one controller, the global pipeline, stub services), the e2e
// tests over HTTP (test/**/*.e2e-spec.ts, by level: docs/testing.md) once per database (`e2e` on SQLite,
// `e2e-mysql` on MySQL: the project's `globals.TEST_DB`, read by test/support/test-database.ts), and the
// console in a browser (on SQLite). scripts/test.mjs runs them all in one jest run, so that the files of
// both databases share the workers (a file waiting on MariaDB or a browser leaves the CPU to another).
// Before any e2e or console file runs, dist/ is rebuilt if it is older than the sources
// (test/support/global-setup.ts), some suites spawn the built service; then the migrations run once
// per database into the template every test database is copied from (test/support/migrated-template.ts).
// Every wait in a test has a deadline of its own; testTimeout (2 minutes) is far above the slowest
// test on a quiet machine (crash.e2e-spec, about 30 s), so that a machine twice as loaded fails no test
// by the clock alone.
const transform = { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json' }] };

// `npm test` (TEST_GROUPS=1) runs the e2e and the browser spec files in the groups of test/groups, a
// few jest files instead of 100-odd (test/support/spec-groups.ts); a file named on the command line
// runs alone.
const grouped = process.env.TEST_GROUPS === '1';
const e2eFiles = grouped ? '<rootDir>/test/groups/*.e2e-group.ts' : '<rootDir>/test/**/*.e2e-spec.ts';
const browserFiles = grouped
  ? '<rootDir>/test/groups/*.browser-group.ts'
  : '<rootDir>/test/console/**/*.browser-spec.ts';

/** A project over HTTP on the database `db`: the e2e files, or the console's (`testMatch`). */
const overHttp = (displayName, testMatch, db) => ({
  displayName,
  testEnvironment: 'node',
  rootDir: '.',
  testMatch: [testMatch],
  moduleFileExtensions: ['ts', 'js', 'json'],
  transform,
  globals: { TEST_DB: db },
  setupFiles: ['<rootDir>/test/setup/env.ts'],
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  globalTeardown: '<rootDir>/test/support/global-teardown.ts',
  testTimeout: 120_000,
});

/** @type {import('jest').Config} */
module.exports = {
  maxWorkers: 2,
  testSequencer: '<rootDir>/scripts/jest-sequencer.cjs',
  testTimeout: 120_000,
  projects: [
    {
      displayName: 'unit',
      testEnvironment: 'node',
      rootDir: '.',
      testMatch: ['<rootDir>/src/**/*.spec.ts', '<rootDir>/test/console/**/*.spec.ts'],
      moduleFileExtensions: ['ts', 'js', 'json'],
      transform,
    },
    {
      displayName: 'slice',
      testEnvironment: 'node',
      rootDir: '.',
      testMatch: ['<rootDir>/test/**/*.slice-spec.ts'],
      moduleFileExtensions: ['ts', 'js', 'json'],
      transform,
      setupFiles: ['<rootDir>/test/setup/env.ts'],
    },
    overHttp('e2e', e2eFiles, 'sqlite'),
    overHttp('e2e-mysql', e2eFiles, 'mysql'),
    // The operator console in headless Chromium (test/console, docs/console.md).
    overHttp('console', browserFiles, 'sqlite'),
  ],
};
