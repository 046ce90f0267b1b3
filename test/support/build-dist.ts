import { spawnSync } from 'node:child_process';
import path from 'node:path';

/**
 * Global setup of the e2e project: some suites spawn the built service (dist/src/main.js), so
 * dist/ is rebuilt first when it is missing or older than the sources, by the same script and
 * rule as `npm start`. A build that fails stops the run rather than test an old build.
 */
export default function buildDistIfStale(): void {
  const root = path.resolve(__dirname, '..', '..');
  const result = spawnSync(process.execPath, [path.join(root, 'scripts', 'build-if-stale.mjs')], {
    cwd: root,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  if (result.status !== 0) {
    throw new Error(
      `dist/ is older than the sources and the build failed (exit ${result.status ?? result.signal}): ` +
        'the e2e suites would run an old build',
    );
  }
}
