// `npm test`: builds the service and its console when the sources changed, then one jest run: the unit and controller-slice
// suites (no database), the e2e suite on SQLite and again on MySQL, the console in a browser; beside it,
// the README's and docs/api.md's examples against the built service (on SQLite, so they run anywhere).
// MySQL and Redis suites run when those servers answer; on a machine without
// them they are skipped with a plain notice, and with CI=true (or REQUIRE_SERVICES=1) a missing
// server fails the run instead. The last line is "N passed, N failed".
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const required = process.env.CI === 'true' || process.env.REQUIRE_SERVICES === '1';
const mysqlUrl = process.env.MYSQL_TEST_URL ?? 'mysql://relayer_test:relayer_test@127.0.0.1:3306';
const redisUrl = process.env.REDIS_TEST_URL ?? 'redis://127.0.0.1:6379';
const extraArgs = process.argv.slice(2);

function reachable(url) {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = net.connect(Number(port), hostname);
    socket.setTimeout(1500);
    socket.on('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.on('timeout', () => {
      socket.destroy();
      resolve(false);
    });
    socket.on('error', () => resolve(false));
  });
}

async function mysqlUsable() {
  if (!(await reachable(mysqlUrl))) return 'nothing answers at ' + new URL(mysqlUrl).host;
  const { createConnection } = await import('mysql2/promise');
  try {
    const c = await createConnection({ uri: mysqlUrl, connectTimeout: 3000 });
    await c.query('SELECT 1');
    await c.end();
    return null;
  } catch (error) {
    return `cannot log in (${error.code ?? error.message}); run scripts/ci/services.sh (as root) or set MYSQL_TEST_URL`;
  }
}

/** The jest run, its exit awaited without blocking (the README examples run beside it). */
async function jest(args, env) {
  const out = path.join(os.tmpdir(), `relayer-jest-${process.pid}.json`);
  const child = spawn(
    'npx',
    [
      'jest',
      '--json',
      `--outputFile=${out}`,
      '--reporters=default',
      `--reporters=${path.join(root, 'scripts', 'jest-times.mjs')}`,
      ...args,
      ...extraArgs,
    ],
    {
      cwd: root,
      stdio: 'inherit',
      env: {
        ...process.env,
        NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --experimental-vm-modules`.trim(),
        ...env,
      },
    },
  );
  const status = await new Promise((resolve) => child.on('close', resolve));
  let passed = 0;
  let failed = 0;
  if (fs.existsSync(out)) {
    const result = JSON.parse(fs.readFileSync(out, 'utf8'));
    passed = result.numPassedTests;
    failed = result.numFailedTests + (result.numRuntimeErrorTestSuites ?? 0);
    fs.rmSync(out);
  }
  if (status !== 0 && failed === 0) failed = 1;
  return { passed, failed };
}

/**
 * scripts/readme-examples.mjs, started in the background (it mostly waits on the service it starts);
 * its output is printed when it is awaited. Its last line is "N passed, N failed".
 */
function startReadmeExamples() {
  const child = spawn(process.execPath, [path.join(root, 'scripts', 'readme-examples.mjs')], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  let errors = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (errors += chunk));
  return new Promise((resolve) => {
    child.on('close', (status) => {
      console.log('\n=== README and API examples ===');
      process.stdout.write(errors + output);
      const m = /(\d+) passed, (\d+) failed\s*$/.exec(output);
      const result = m ? { passed: Number(m[1]), failed: Number(m[2]) } : { passed: 0, failed: 0 };
      if (status !== 0 && result.failed === 0) result.failed = 1;
      resolve(result);
    });
  });
}

// The same rule as npm start: build when dist/ is missing or older than the sources.
const build = spawnSync(process.execPath, [path.join(root, 'scripts', 'build-if-stale.mjs')], {
  cwd: root,
  stdio: 'inherit',
});
if (build.status !== 0) {
  console.log('0 passed, 1 failed');
  process.exit(1);
}

const mysqlProblem = await mysqlUsable();
const redisOk = await reachable(redisUrl);
// The console's browser tests drive Debian's chromium (docs/console.md#tests).
const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const chromiumOk = fs.existsSync(chromium);
const skipped = [];
if (mysqlProblem) skipped.push(`MySQL suite: ${mysqlProblem}`);
if (!chromiumOk) skipped.push(`console browser suite: no Chromium at ${chromium} (apt-get install chromium)`);
if (!redisOk) skipped.push(`Redis suites: nothing answers at ${new URL(redisUrl).host}`);
for (const line of skipped) console.log(`${required ? 'MISSING' : 'SKIPPED'} ${line}`);

const totals = { passed: 0, failed: required ? skipped.length : 0 };
const add = (r) => {
  totals.passed += r.passed;
  totals.failed += r.failed;
};
const redisEnv = redisOk ? { REDIS_TEST_URL: redisUrl } : {};
// One jest run: unit and slice tests (no database), the e2e files on SQLite (e2e) and on MySQL
// (e2e-mysql), the console in Chromium (jest.config.js). Four workers on this 2-core machine: most files
// spend most of their time waiting on a timer, MariaDB, a browser or a process they started (a MySQL
// group: 9 s of CPU in 26 s), so fewer leave a core idle; TEST_WORKERS sets another number
// (docs/testing.md#how-long-it-takes).
const projects = ['unit', 'slice', 'e2e'];
if (chromiumOk) projects.push('console');
if (!mysqlProblem) projects.push('e2e-mysql');
// A jest filter (npm test -- <pattern>) asks for some suites only: the README run is left out then.
// Otherwise it runs beside the tests: it mostly waits on the service it starts.
const readme = extraArgs.length === 0 ? startReadmeExamples() : undefined;
console.log(`\n=== ${projects.join(' + ')} ===`);
add(
  await jest(['--selectProjects', ...projects, `--maxWorkers=${process.env.TEST_WORKERS ?? 4}`], {
    // The e2e spec files in groups (test/support/spec-groups.ts), unless a filter names some.
    ...(extraArgs.length === 0 ? { TEST_GROUPS: '1' } : {}),
    MYSQL_TEST_URL: mysqlUrl,
    ...redisEnv,
  }),
);
if (readme) add(await readme);
if (skipped.length > 0 && !required) console.log(`\nNot run here: ${skipped.join('; ')}`);
console.log(`\n${totals.passed} passed, ${totals.failed} failed`);
process.exit(totals.failed === 0 ? 0 : 1);
