// `npm run config -- check [--online] [file]` / `npm run config -- plan [--online] [file]` (docs/reference/config-file.md#35-checking-and-planning-without-starting):
// builds when the sources changed, then runs the compiled command with the same environment.
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const build = spawnSync(process.execPath, [path.join(root, 'scripts/build-if-stale.mjs')], {
  cwd: root,
  stdio: ['ignore', 'ignore', 'inherit'],
});
if (build.status !== 0) process.exit(build.status ?? 1);
const run = spawnSync(
  process.execPath,
  [path.join(root, 'dist/src/cli/config.js'), ...process.argv.slice(2)],
  {
    // npm runs scripts from the package root: the command runs where the operator typed it, as a start would.
    cwd: process.env.INIT_CWD ?? process.cwd(),
    stdio: 'inherit',
  },
);
process.exit(run.status ?? 1);
