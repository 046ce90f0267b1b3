import { dropMigratedTemplate } from './migrated-template';
import { projectDatabase, type JestProject } from './test-database';

/** Global teardown of each project over HTTP: its database's template goes. */
export default async function globalTeardown(_global: unknown, project: JestProject): Promise<void> {
  await dropMigratedTemplate(projectDatabase(project));
}
