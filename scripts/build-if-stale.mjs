// `npm start` runs this first: build when dist/ is missing or older than any source file.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const entry = path.join(root, 'dist/src/main.js');

function newest(dir) {
  let latest = 0;
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    latest = Math.max(latest, e.isDirectory() ? newest(p) : fs.statSync(p).mtimeMs);
  }
  return latest;
}

const sources = Math.max(
  newest(path.join(root, 'src')),
  ...['ormconfig.ts', 'tsconfig.json', 'tsconfig.build.json', 'package-lock.json'].map((f) =>
    fs.existsSync(path.join(root, f)) ? fs.statSync(path.join(root, f)).mtimeMs : 0,
  ),
);
if (!fs.existsSync(entry) || fs.statSync(entry).mtimeMs < sources) {
  const why = fs.existsSync(entry) ? 'the sources changed since the last build' : 'first run';
  process.stderr.write(`Building the service (${why})...\n`);
  const started = Date.now();
  const r = spawnSync('npx', ['nest', 'build'], { cwd: root, stdio: ['ignore', 'inherit', 'inherit'] });
  if (r.status !== 0) {
    process.stderr.write('The build failed (the errors are above); nothing was started.\n');
    process.exit(r.status ?? 1);
  }
  process.stderr.write(`Built in ${((Date.now() - started) / 1000).toFixed(1)} s; starting.\n`);
}
