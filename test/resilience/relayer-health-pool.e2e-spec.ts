import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Anvil } from '../support/anvil';
import { useTestApp } from '../support/test-app';
import { TEST_DB } from '../support/test-database';
import { waitFor } from '../support/wait';
import { anonymousRelayerBody, fileSigners } from '../factories';
import { writeConfigFile } from '../support/test-catalogue';

/** The MySQL pool of the service (src/database/data-source-options.ts, poolSize). */
const POOL_CONNECTIONS = 10;
/** Checks under way at once before batches (src/relayer-health/relayer-health-scheduler.ts); the size of this test. */
const SCHEDULER_CONCURRENCY = 16;
/**
 * Origins the relayers' RPC calls are spread over: the RPC agent keeps at most 8 connections per
 * origin, and every one of the scheduler's checks must be able to have its call in flight.
 */
const ORIGINS = 4;
const RELAYERS = 3 * SCHEDULER_CONCURRENCY;
/** No new held call for this long: every check under way is waiting, release them all. */
const QUIET_MS = 300;

/**
 * A JSON-RPC proxy in front of anvil, listening on several ports (origins). When gated it holds
 * every eth_getBalance (the last call of an EVM check) until no other arrives for QUIET_MS, then
 * answers them all at once: the checks under way all reach the transaction that applies their
 * verdict at the same moment, more of them than the pool has connections.
 */
class GatingProxy {
  gated = false;
  /** The most checks whose eth_getBalance answers were released together. */
  largestRelease = 0;
  private held: Array<{ release: () => void; checks: number }> = [];
  private timer: NodeJS.Timeout | undefined;
  private readonly servers: http.Server[] = [];
  readonly urls: string[] = [];

  constructor(private readonly upstream: string) {}

  async start(origins: number): Promise<this> {
    for (let i = 0; i < origins; i++) {
      const server = http.createServer((req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', (c: Buffer) => chunks.push(c));
        req.on('end', () => void this.forward(Buffer.concat(chunks).toString(), res));
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      this.servers.push(server);
      this.urls.push(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    }
    return this;
  }

  async close(): Promise<void> {
    clearTimeout(this.timer);
    for (const { release } of this.held.splice(0)) release();
    for (const server of this.servers) {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  }

  private async forward(body: string, res: http.ServerResponse): Promise<void> {
    const parsed = JSON.parse(body) as { method?: string } | Array<{ method?: string }>;
    // A JSON-RPC batch holds the calls of several checks: each counts.
    const balances = (Array.isArray(parsed) ? parsed : [parsed]).filter(
      (call) => call.method === 'eth_getBalance',
    ).length;
    if (this.gated && balances > 0) {
      await new Promise<void>((resolve) => {
        this.held.push({ release: resolve, checks: balances });
        clearTimeout(this.timer);
        this.timer = setTimeout(() => this.releaseAll(), QUIET_MS);
      });
    }
    try {
      const upstream = await fetch(this.upstream, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      });
      res.setHeader('content-type', 'application/json');
      res.end(await upstream.text());
    } catch {
      res.destroy();
    }
  }

  private releaseAll(): void {
    const released = this.held.splice(0);
    this.largestRelease = Math.max(
      this.largestRelease,
      released.reduce((sum, held) => sum + held.checks, 0),
    );
    for (const { release } of released) release();
  }
}

describe(`health checks with more checks at once than pool connections (${TEST_DB})`, () => {
  const anvil = new Anvil();
  let proxy: GatingProxy;
  let file: string;
  beforeAll(async () => {
    await anvil.start();
    proxy = await new GatingProxy(anvil.url).start(ORIGINS);
    file = writeConfigFile({
      networks: proxy.urls.map((url, i) => ({
        type: 'evm',
        network: `anvil-${i}`,
        chain_id: Anvil.CHAIN_ID,
        rpc_urls: [url],
      })),
      signers: fileSigners('pool', RELAYERS),
    });
  });
  const handle = useTestApp(() => ({
    CONFIG_FILE: file,
    RELAYER_HEALTH_CHECKS: 'true',
    RELAYER_HEALTH_CHECK_INTERVAL_SECONDS: '3600',
    RELAYER_HEALTH_RETRY_SECONDS: '3600',
    RPC_TIMEOUT_MS: '5000',
  }));
  const app = () => handle.current;
  afterAll(async () => {
    await proxy?.close();
    await anvil.stop();
  });

  /** The relayers whose status has no checked_at yet; every request must answer within 5 s. */
  const unchecked = async (ids: string[]): Promise<string[]> => {
    const left: string[] = [];
    for (const id of ids) {
      const res = await app().get(`/api/v1/relayers/${id}/status`).timeout(5000).expect(200);
      if ((res.body as { data: { checked_at: string | null } }).data.checked_at === null) left.push(id);
    }
    return left;
  };

  it('a round in which every check applies its verdict at once completes, and the API keeps answering', async () => {
    const ids: string[] = [];
    for (let i = 0; i < RELAYERS; i++) {
      const res = await app()
        .post(
          '/api/v1/relayers',
          anonymousRelayerBody('evm', {
            name: `pool ${i}`,
            network: `anvil-${i % ORIGINS}`,
            signer_id: `pool-${i}`,
          }),
        )
        .expect(201);
      ids.push((res.body.data as { id: string }).id);
    }
    // The first checks (right after each create), ungated.
    await waitFor('the first check of every relayer', async () => (await unchecked(ids)).length === 0, {
      timeoutMs: 20_000,
    });

    // One round: every relayer due at once, its checks released in groups of as many as run at once.
    proxy.gated = true;
    await handle.database.exec(
      "UPDATE relayer_checks SET next_check_at = '2000-01-01 00:00:00.000', checked_at = NULL, lease_owner = NULL, lease_until = NULL",
    );
    let left = ids;
    await waitFor(
      'every due check to complete, the API answering throughout',
      async () => {
        // Reads that need the database answer while the round runs (a stalled pool never does).
        await app().get(`/api/v1/relayers/${ids[0]}`).timeout(5000).expect(200);
        left = await unchecked(left);
        return left.length === 0;
      },
      {
        timeoutMs: 30_000,
        detail: () => `${left.length} of ${RELAYERS} not checked; largest release ${proxy.largestRelease}`,
      },
    );
    // The round did bring more checks to their transaction at once than the pool has connections.
    expect(proxy.largestRelease).toBeGreaterThan(POOL_CONNECTIONS);
    await app()
      .get(`/api/v1/relayers/${ids[RELAYERS - 1]}`)
      .timeout(5000)
      .expect(200);
  });
});
