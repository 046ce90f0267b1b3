import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { secrets } from './support/secrets';
import { ServiceProcess } from './support/service-process';
import { writeTestCatalogue } from './support/test-catalogue';
import { createTestDatabase, TEST_DB, type TestDatabase } from './support/test-database';

const SEED = 20261122;
const ROUNDS = 3;
const WORKERS = 8;
const MIN_CREATES_PER_ROUND = 10;

interface Ack {
  /** The last name acknowledged with a 2xx. */
  acked: string;
  /** A name sent after it and not (yet) answered: it may or may not have committed. */
  pending: string | null;
}

/**
 * Drives concurrent creates and PATCHes against the service as a child process, SIGKILLs it at a
 * seeded random moment, restarts it on the same database and checks every acknowledged write.
 */
describe(`crash durability on ${TEST_DB}: SIGKILL mid-load loses nothing acknowledged`, () => {
  let database: TestDatabase;
  const catalogue = writeTestCatalogue(400);
  const apiKey = secrets.add(randomBytes(32).toString('hex'));
  const acks = new Map<string, Ack>();

  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database?.drop();
  });

  const start = async () => {
    const service = new ServiceProcess(process.cwd(), {
      API_KEY: apiKey,
      DATABASE_URL: database.url,
      CONFIG_FILE: catalogue.file,
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      RATE_LIMIT_BURST_SIZE: '1000000',
    });
    await service.start();
    await service.waitReady();
    return service;
  };

  const call = (service: ServiceProcess, method: string, path: string, body: object) =>
    service.fetch(path, {
      method,
      headers: { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });

  async function worker(service: ServiceProcess, stop: { killed: boolean }): Promise<void> {
    while (!stop.killed) {
      const id = `crash-${randomBytes(5).toString('hex')}`;
      const name = 'v0';
      try {
        const created = await call(service, 'POST', '/api/v1/relayers', {
          id,
          name,
          network: 'sepolia',
          network_type: 'evm',
          paused: false,
          signer_id: catalogue.nextSigner(),
        });
        if (created.status !== 201) throw new Error(`create answered ${created.status}`);
        acks.set(id, { acked: name, pending: null });
        for (let v = 1; v <= 5 && !stop.killed; v++) {
          const entry = acks.get(id) as Ack;
          entry.pending = `v${v}`;
          const patched = await call(service, 'PATCH', `/api/v1/relayers/${id}`, { name: `v${v}` });
          if (patched.status !== 200) throw new Error(`patch answered ${patched.status}`);
          acks.set(id, { acked: `v${v}`, pending: null });
        }
      } catch {
        return; // the process was killed under this request: its outcome is unknown, and fine either way
      }
    }
  }

  it(`survives ${ROUNDS} kills at seeded random moments with every acknowledged change in place`, async () => {
    const delays = fc.sample(fc.integer({ min: 0, max: 800 }), { seed: SEED, numRuns: ROUNDS });
    let checked = 0;
    for (const delay of delays) {
      const service = await start();
      const stop = { killed: false };
      const load = Promise.all(Array.from({ length: WORKERS }, () => worker(service, stop)));
      // Kill once the round has some acknowledged work, then at a seeded random moment: the
      // machine's speed decides how much is in flight, not whether there is anything to check.
      const before = acks.size;
      while (acks.size < before + MIN_CREATES_PER_ROUND)
        await new Promise((resolve) => setTimeout(resolve, 10));
      await new Promise((resolve) => setTimeout(resolve, delay));
      stop.killed = true;
      await service.stop('SIGKILL');
      await load;

      const restarted = await start();
      try {
        for (const [id, ack] of acks) {
          const res = await restarted.fetch(`/api/v1/relayers/${id}`, {
            headers: { Authorization: `Bearer ${apiKey}` },
          });
          const body = (await res.json()) as { data: { name: string } | null };
          expect({ id, status: res.status }).toEqual({ id, status: 200 });
          expect([ack.acked, ack.pending]).toContain(body.data?.name);
          checked += 1;
        }
      } finally {
        await restarted.stop();
      }
    }
    process.stdout.write(
      `crash durability (${TEST_DB}): ${ROUNDS} kills, ${checked} acknowledged relayer states checked, ${acks.size} relayers\n`,
    );
    expect(acks.size).toBeGreaterThanOrEqual(ROUNDS * MIN_CREATES_PER_ROUND);
  }, 180_000);
});
