import { randomBytes } from 'node:crypto';
import { Anvil } from '../support/anvil';
import { CountingProxy, writeProxiedAnvilCatalogue } from '../support/counting-rpc-proxy';
import { secrets } from '../support/secrets';
import { startTestApp, type TestApp } from '../support/test-app';
import { createTestDatabase, TEST_DB, type TestDatabase } from '../support/test-database';
import { waitFor } from '../support/wait';
import { anonymousRelayerBody } from '../factories';

const describeMysql = TEST_DB === 'mysql' ? describe : describe.skip;
const INTERVAL_SECONDS = 1;
const RELAYERS = 8;
const INSTANCES = 3;

describeMysql(`${INSTANCES} instances on one MySQL database check each relayer once per round`, () => {
  const anvil = new Anvil();
  let proxy: CountingProxy;
  let database: TestDatabase;
  const apps: TestApp[] = [];

  beforeAll(async () => {
    await anvil.start();
    proxy = await new CountingProxy(anvil.url).start();
    database = await createTestDatabase({ kind: 'mysql' });
    const file = writeProxiedAnvilCatalogue(
      proxy,
      Array.from({ length: RELAYERS }, (_, i) => `round-${i}`),
    );
    const apiKey = secrets.add(randomBytes(32).toString('hex'));
    for (let i = 0; i < INSTANCES; i++) {
      apps.push(
        await startTestApp({
          DATABASE_URL: database.url,
          API_KEY: apiKey,
          CONFIG_FILE: file,
          RELAYER_HEALTH_CHECKS: 'true',
          RELAYER_HEALTH_CHECK_INTERVAL_SECONDS: String(INTERVAL_SECONDS),
          RELAYER_HEALTH_RETRY_SECONDS: String(INTERVAL_SECONDS),
        }),
      );
    }
  });
  afterAll(async () => {
    for (const app of apps) await app.close();
    await proxy?.close();
    await anvil.stop();
    await database?.drop();
  });

  it('over several rounds: one check per relayer per round, never two at once', async () => {
    const addresses: string[] = [];
    for (let i = 0; i < RELAYERS; i++) {
      const res = await apps[i % INSTANCES]
        .post(
          '/api/v1/relayers',
          anonymousRelayerBody('evm', { name: `round ${i}`, network: 'anvil', signer_id: `round-${i}` }),
        )
        .expect(201);
      addresses.push((res.body.data as { address: string }).address.toLowerCase());
    }
    const started = Date.now();
    const rounds = 5;
    await waitFor(
      `${rounds} rounds of checks`,
      () => addresses.every((a) => (proxy.checks.get(a) ?? 0) >= rounds),
      { timeoutMs: 30_000, detail: () => JSON.stringify(Object.fromEntries(proxy.checks)) },
    );
    const elapsedRounds = (Date.now() - started) / 1000 / INTERVAL_SECONDS;
    const counts = addresses.map((a) => proxy.checks.get(a) ?? 0);
    // One checker per round: at most one check per interval elapsed (plus the first, right after create).
    expect({
      atMostOnePerRound: counts.every((n) => n <= Math.ceil(elapsedRounds) + 1),
      neverTwoAtOnce: proxy.maxAtOnce,
    }).toEqual({ atMostOnePerRound: true, neverTwoAtOnce: 1 });
    process.stdout.write(
      `health rounds (${INSTANCES} instances, ${RELAYERS} relayers, ${INTERVAL_SECONDS} s interval): checks per relayer ${counts.join(', ')} over ${elapsedRounds.toFixed(1)} intervals\n`,
    );
  });
});
