import type { NestExpressApplication } from '@nestjs/platform-express';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import type { AppExtensions } from '../../src/app.module';
import { configureHttpServer, createApp } from '../../src/bootstrap';
import { loadConfig } from '../../src/config/app-config';
import { secrets } from './secrets';
import { writeTestCatalogue, type TestCatalogue } from './test-catalogue';
import { createTestDatabase, TEST_DB, type TestDatabase } from './test-database';
import { waitFor, withDeadline } from './wait';

export type Env = Record<string, string | undefined>;

export interface TestApp {
  readonly app: NestExpressApplication;
  readonly baseUrl: string;
  readonly port: number;
  readonly apiKey: string;
  readonly logFile: string;
  /** supertest bound to the running server, with the bearer token set unless auth is false. */
  get(path: string, auth?: boolean): request.Test;
  post(path: string, body?: unknown, auth?: boolean): request.Test;
  patch(path: string, body?: unknown, auth?: boolean): request.Test;
  put(path: string, body?: unknown, auth?: boolean): request.Test;
  delete(path: string, auth?: boolean): request.Test;
  raw(): ReturnType<typeof request>;
  logText(): string;
  /**
   * The log lines matching the pattern once there is at least one (logs are written
   * asynchronously); fails naming the pattern if none appears within 5 s.
   */
  waitForLog(pattern: RegExp): Promise<string[]>;
  close(): Promise<void>;
}

let sharedCatalogue: TestCatalogue | undefined;

/** This run of the test file (a module is loaded once per test file and run). */
const FILE_RUN = randomBytes(3).toString('hex');

/** The catalogue apps of this test file use unless CONFIG_FILE is given. */
export function defaultCatalogue(): TestCatalogue {
  sharedCatalogue ??= writeTestCatalogue();
  return sharedCatalogue;
}

export const LOG_DIR = path.join(os.tmpdir(), 'relayer-test-logs');

export const newApiKey = (): string => secrets.add(randomBytes(36).toString('base64url'));

/**
 * Starts the real application (the production module and pipeline) in this process on an
 * ephemeral port, with its log in a file of its own. env holds the variables of
 * docs/reference/running.md#1-start-up; an undefined value leaves a variable unset.
 */
export async function startTestApp(env: Env, extensions: AppExtensions = {}): Promise<TestApp> {
  fs.mkdirSync(LOG_DIR, { recursive: true });
  // One log per test file: nestjs-pino keeps one root logger per process, so apps started by the
  // same file share where their out-of-request lines go anyway. Named by the file, its database and a
  // token of this run of it: a worker runs the same file once per database.
  const logFile = path.join(
    LOG_DIR,
    `${path.basename(expect.getState().testPath ?? 'app')}-${TEST_DB}-${process.pid}-${FILE_RUN}.log`,
  );
  const apiKey = env.API_KEY ?? newApiKey();
  const config = loadConfig({
    NODE_ENV: 'test',
    HOST: '127.0.0.1',
    PORT: '0',
    API_KEY: apiKey,
    LOG_FILE: logFile,
    LOG_LEVEL: 'info',
    CONFIG_FILE: defaultCatalogue().file,
    RATE_LIMIT_REQUESTS_PER_SECOND: '10000',
    RATE_LIMIT_BURST_SIZE: '100000',
    RATE_LIMIT_KEY_PREFIX: `test-${randomBytes(4).toString('hex')}`,
    // Health checks would call the test catalogue's RPC URLs; the suites that test them turn them on.
    RELAYER_HEALTH_CHECKS: 'false',
    // What the service generates outside production (the storage key of signers) stays out of the checkout.
    DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'relayer-data-')),
    ...env,
  });
  // What this app logs: the file's lines from here on (a group of spec files shares one, test/support/spec-groups.ts).
  const logStart = fs.existsSync(logFile) ? fs.statSync(logFile).size : 0;
  const app = await createApp(config, extensions);
  configureHttpServer(app, config);
  await app.listen(Number(env.PORT ?? 0), '127.0.0.1');
  const port = (app.getHttpServer().address() as AddressInfo).port;
  const baseUrl = `http://127.0.0.1:${port}`;
  const withAuth = (test: request.Test, auth: boolean) =>
    auth ? test.set('Authorization', `Bearer ${apiKey}`) : test;
  const agent = () => request(baseUrl);
  const logText = () =>
    fs.existsSync(logFile) ? fs.readFileSync(logFile).subarray(logStart).toString('utf8') : '';
  return {
    app,
    baseUrl,
    port,
    apiKey,
    logFile,
    get: (p, auth = true) => withAuth(agent().get(p), auth),
    post: (p, body, auth = true) =>
      withAuth(
        body === undefined
          ? agent().post(p)
          : agent()
              .post(p)
              .send(body as object),
        auth,
      ),
    patch: (p, body, auth = true) =>
      withAuth(
        body === undefined
          ? agent().patch(p)
          : agent()
              .patch(p)
              .send(body as object),
        auth,
      ),
    put: (p, body, auth = true) =>
      withAuth(
        body === undefined
          ? agent().put(p)
          : agent()
              .put(p)
              .send(body as object),
        auth,
      ),
    delete: (p, auth = true) => withAuth(agent().delete(p), auth),
    raw: agent,
    logText,
    waitForLog: (pattern) =>
      waitFor(
        `a log line matching ${String(pattern)} in ${logFile}`,
        () => {
          const lines = logText()
            .split('\n')
            .filter((line) => pattern.test(line));
          return lines.length > 0 && lines;
        },
        { timeoutMs: 5000 },
      ),
    close: () => withDeadline('the test app to close', app.close(), 15_000),
  };
}

export interface AppHandle {
  /** The running app (set in beforeAll). */
  readonly current: TestApp;
  readonly database: TestDatabase;
}

/**
 * Gives a describe block its own database and app: created in beforeAll, torn down in afterAll,
 * where the app's whole log is also checked for every registered secret.
 */
export function useTestApp(env: Env | (() => Env) = {}): AppHandle {
  let app: TestApp | undefined;
  let database: TestDatabase | undefined;
  beforeAll(async () => {
    database = await createTestDatabase();
    app = await startTestApp({ DATABASE_URL: database.url, ...(typeof env === 'function' ? env() : env) });
  });
  afterAll(async () => {
    await app?.close();
    await database?.drop();
    if (app) expect(secrets.foundIn(app.logText())).toEqual([]);
  });
  return {
    get current(): TestApp {
      if (!app) throw new Error('the test app has not started');
      return app;
    },
    get database(): TestDatabase {
      if (!database) throw new Error('the test database has not been created');
      return database;
    },
  };
}
