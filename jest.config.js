// Four projects: unit tests beside the code (src/**/*.spec.ts), controller slices over HTTP without
// a database (test/api/**/*.slice-spec.ts: one controller, the global pipeline, stub services) and
// e2e tests over HTTP (test/**/*.e2e-spec.ts, by level: docs/testing.md), and the console in a browser.
// The e2e suite runs once per database; scripts/test.mjs sets TEST_DB for each run. Before any
// e2e suite runs, dist/ is rebuilt if it is older than the sources (test/support/global-setup.ts),
// some suites spawn the built service; then the migrations run once into the template every test
// database is copied from (test/support/migrated-template.ts). Every wait in a test has a deadline of
// its own; testTimeout (2 minutes) is far above the slowest test on a quiet machine (crash.e2e-spec,
// about 30 s), so that a machine twice as loaded fails no test by the clock alone.
const transform = { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json' }] };

/** @type {import('jest').Config} */
module.exports = {
  maxWorkers: 2,
  testTimeout: 120_000,
  projects: [
    {
      displayName: 'unit',
      testEnvironment: 'node',
      rootDir: '.',
      testMatch: ['<rootDir>/src/**/*.spec.ts'],
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
    {
      displayName: 'e2e',
      testEnvironment: 'node',
      rootDir: '.',
      testMatch: ['<rootDir>/test/**/*.e2e-spec.ts'],
      moduleFileExtensions: ['ts', 'js', 'json'],
      transform,
      setupFiles: ['<rootDir>/test/setup/env.ts'],
      globalSetup: '<rootDir>/test/support/global-setup.ts',
      globalTeardown: '<rootDir>/test/support/global-teardown.ts',
      testTimeout: 120_000,
    },
    {
      // The operator console in headless Chromium (test/console, docs/console.md): on SQLite only.
      displayName: 'console',
      testEnvironment: 'node',
      rootDir: '.',
      testMatch: ['<rootDir>/test/console/**/*.browser-spec.ts'],
      moduleFileExtensions: ['ts', 'js', 'json'],
      transform,
      setupFiles: ['<rootDir>/test/setup/env.ts'],
      globalSetup: '<rootDir>/test/support/global-setup.ts',
      globalTeardown: '<rootDir>/test/support/global-teardown.ts',
      testTimeout: 120_000,
    },
  ],
};
