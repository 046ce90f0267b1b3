import { dropMigratedTemplate } from './migrated-template';

/** Global teardown of the e2e and console projects: the template database goes. */
export default async function globalTeardown(): Promise<void> {
  await dropMigratedTemplate();
}
