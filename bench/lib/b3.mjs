// Baseline B3, the framework floor (bench/baselines/b3-nest.mjs): a minimal Nest + platform-express
// application with the service's guard, rate limiter, envelope interceptor and logger around B1's
// (SQLite) or B2's (MySQL) handlers. run.mjs starts it next to B0 and B1/B2 and measures it as a
// third target of every scenario (order service, baseline, B3, B3, baseline, service); `--no-b3`
// leaves it out. The report's side is in b3-report.mjs.
import path from 'node:path';
import { copyMysqlSchema, copySqliteSchema } from './data.mjs';

export const B3_TITLE = 'B3 (Nest + platform-express, the service’s guard, limiter, envelope and logger)';

/**
 * What B3's process needs besides PORT/HOST/DATABASE_URL: the service's build (its classes are
 * imported from there), the API key, a log file of its own at the service's level, and the
 * service's rate-limit settings.
 */
export function b3Env({ serviceEntry, apiKey, work, kind }) {
  return {
    SERVICE_SRC: path.dirname(serviceEntry),
    API_KEY: apiKey,
    NODE_ENV: 'production',
    LOG_LEVEL: 'info',
    LOG_FILE: path.join(work, `b3-${kind}.log`),
    // The same as the service's (see startService in run.mjs): out of the way, never reached.
    RATE_LIMIT_REQUESTS_PER_SECOND: '1000000',
    RATE_LIMIT_BURST_SIZE: '10000',
  };
}

/**
 * B3 on a fresh database of its own with the service's schema (a database shared with B1/B2 would
 * make the create scenarios collide on the unique (network, signer) index). Returns the target
 * plus its database, which the caller seeds with the others.
 */
export async function startB3({ freshDatabase, startBaseline }, kind, serviceDb) {
  const db = await freshDatabase('b3');
  if (kind === 'sqlite') copySqliteSchema(serviceDb.file, db.file);
  else await copyMysqlSchema(serviceDb.url, db.url);
  const started = await startBaseline('B3', db.url);
  return { ...started, db, target: { role: 'b3', url: started.url, pid: started.handle.pid } };
}
