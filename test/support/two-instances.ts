import { randomBytes } from 'node:crypto';
import { secrets } from './secrets';
import { startTestApp, type TestApp } from './test-app';
import { createTestDatabase, type TestDatabase } from './test-database';

/**
 * Two instances of the app on one fresh database and one API_KEY, started by each test and closed
 * (the database dropped) after it: `it.each(variants)` runs the test without Redis, and with it when
 * REDIS_TEST_URL names one.
 */
export function useTwoInstances(): {
  variants: Array<[string, string | undefined]>;
  start(redis: string | undefined): Promise<[TestApp, TestApp]>;
} {
  let database: TestDatabase | undefined;
  let apps: TestApp[] = [];
  const apiKey = secrets.add(randomBytes(24).toString('hex'));
  const redisUrl = process.env.REDIS_TEST_URL;
  const variants: Array<[string, string | undefined]> = [['without Redis', undefined]];
  if (redisUrl) variants.push(['with Redis', redisUrl]);

  afterEach(async () => {
    await Promise.all(apps.map((a) => a.close()));
    apps = [];
    await database?.drop();
    database = undefined;
  });

  return {
    variants,
    start: async (redis) => {
      database = await createTestDatabase();
      const env = { DATABASE_URL: database.url, API_KEY: apiKey, ...(redis ? { REDIS_URL: redis } : {}) };
      apps = [await startTestApp(env), await startTestApp(env)];
      return [apps[0], apps[1]];
    },
  };
}
