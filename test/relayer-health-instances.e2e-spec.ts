import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Anvil } from './support/anvil';
import { secrets } from './support/secrets';
import { startTestApp, type TestApp } from './support/test-app';
import { createTestDatabase, TEST_DB, type TestDatabase } from './support/test-database';
import { waitFor } from './support/wait';

const describeMysql = TEST_DB === 'mysql' ? describe : describe.skip;
const INTERVAL_SECONDS = 1;
const RELAYERS = 8;

/** A JSON-RPC proxy in front of anvil that counts, per relayer address, checks made and checks at once. */
class CountingProxy {
  readonly checks = new Map<string, number>();
  readonly inFlight = new Map<string, number>();
  maxAtOnce = 0;
  private readonly server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => void this.forward(Buffer.concat(chunks).toString(), res));
  });
  port = 0;

  constructor(private readonly upstream: string) {}

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private async forward(body: string, res: http.ServerResponse): Promise<void> {
    const call = JSON.parse(body) as { method: string; params: unknown[] };
    // One eth_getTransactionCount per check of a relayer, naming its address.
    const address = call.method === 'eth_getTransactionCount' ? String(call.params[0]).toLowerCase() : null;
    if (address) {
      this.checks.set(address, (this.checks.get(address) ?? 0) + 1);
      const now = (this.inFlight.get(address) ?? 0) + 1;
      this.inFlight.set(address, now);
      this.maxAtOnce = Math.max(this.maxAtOnce, now);
      await new Promise((resolve) => setTimeout(resolve, 30)); // widen the window two checkers would share
    }
    const upstream = await fetch(this.upstream, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });
    const text = await upstream.text();
    if (address) this.inFlight.set(address, (this.inFlight.get(address) ?? 1) - 1);
    res.setHeader('content-type', 'application/json');
    res.end(text);
  }
}

describeMysql('two instances on one MySQL database check each relayer once per round', () => {
  const anvil = new Anvil();
  let proxy: CountingProxy;
  let database: TestDatabase;
  const apps: TestApp[] = [];

  beforeAll(async () => {
    await anvil.start();
    proxy = await new CountingProxy(anvil.url).start();
    database = await createTestDatabase('mysql');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'relayer-rounds-'));
    const file = path.join(dir, 'config.json');
    fs.writeFileSync(
      file,
      JSON.stringify({
        networks: [
          {
            type: 'evm',
            network: 'anvil',
            chain_id: Anvil.CHAIN_ID,
            rpc_urls: [`http://127.0.0.1:${proxy.port}`],
          },
        ],
        signers: Array.from({ length: RELAYERS }, (_, i) => ({
          id: `round-${i}`,
          type: 'plain',
          config: { key: { type: 'plain', value: secrets.add(randomBytes(32).toString('hex')) } },
        })),
      }),
    );
    const apiKey = secrets.add(randomBytes(32).toString('hex'));
    for (let i = 0; i < 2; i++) {
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
      const res = await apps[i % 2]
        .post('/api/v1/relayers', {
          name: `round ${i}`,
          network: 'anvil',
          network_type: 'evm',
          paused: false,
          signer_id: `round-${i}`,
        })
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
      `health rounds (2 instances, ${RELAYERS} relayers, ${INTERVAL_SECONDS} s interval): checks per relayer ${counts.join(', ')} over ${elapsedRounds.toFixed(1)} intervals\n`,
    );
  });
});
