import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { createMigratedTemplate } from './migrated-template';
import { projectDatabase, type JestProject } from './test-database';

/**
 * Global setup of each project over HTTP (e2e, e2e-mysql, console). Some suites spawn the built service
 * (dist/src/main.js), so dist/ is rebuilt first when it is missing or older than the sources, by the
 * same script and rule as `npm start`; a build that fails stops the run rather than test an old build.
 * Then the migrations run once per database, into the template every test database of that kind is
 * copied from (test/support/migrated-template.ts).
 */
export default async function globalSetup(_global: unknown, project: JestProject): Promise<void> {
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
  await createMigratedTemplate(projectDatabase(project));
}
