// `npm start` runs this first: build when dist/ is missing or older than any source file. The service
// (nest build) and the console (scripts/build-console.mjs) are checked apart: a change to the console
// rebuilds only the console, in well under a second.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');

function newest(dir) {
  let latest = 0;
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    latest = Math.max(latest, e.isDirectory() ? newest(p) : fs.statSync(p).mtimeMs);
  }
  return latest;
}

const mtime = (file) =>
  fs.existsSync(path.join(root, file)) ? fs.statSync(path.join(root, file)).mtimeMs : 0;

function buildIfStale(what, output, sources, command) {
  const built = path.join(root, output);
  if (fs.existsSync(built) && fs.statSync(built).mtimeMs >= sources) return;
  const why = fs.existsSync(built) ? 'the sources changed since the last build' : 'first run';
  process.stderr.write(`Building ${what} (${why})...\n`);
  const started = Date.now();
  const r = spawnSync(command[0], command.slice(1), { cwd: root, stdio: ['ignore', 'inherit', 'inherit'] });
  if (r.status !== 0) {
    process.stderr.write('The build failed (the errors are above); nothing was started.\n');
    process.exit(r.status ?? 1);
  }
  process.stderr.write(`Built in ${((Date.now() - started) / 1000).toFixed(1)} s.\n`);
}

const lock = mtime('package-lock.json');
buildIfStale(
  'the service',
  'dist/src/main.js',
  Math.max(
    newest(path.join(root, 'src')),
    lock,
    ...['ormconfig.ts', 'tsconfig.json', 'tsconfig.build.json'].map(mtime),
  ),
  ['npx', 'nest', 'build'],
);
// nest build empties dist/, so the console is built after it, and again whenever dist/ was rebuilt.
buildIfStale(
  'the console',
  'dist/console/manifest.json',
  Math.max(
    newest(path.join(root, 'console')),
    lock,
    mtime('scripts/build-console.mjs'),
    mtime('dist/src/main.js'),
  ),
  [process.execPath, path.join(root, 'scripts', 'build-console.mjs')],
);
