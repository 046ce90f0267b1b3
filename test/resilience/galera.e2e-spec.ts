import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { createConnection, type RowDataPacket } from 'mysql2/promise';
import { Anvil } from '../support/anvil';
import { CountingProxy, writeProxiedAnvilCatalogue } from '../support/counting-rpc-proxy';
import { errorBody } from '../support/envelope';
import { secrets } from '../support/secrets';
import { PROJECT_ROOT, ServiceProcess } from '../support/service-process';
import { writeTestCatalogue } from '../support/test-catalogue';
import { waitFor } from '../support/wait';
import { WebhookReceiver } from '../support/webhook-receiver';
import { uid } from '../factories';

/**
 * docs/reference/several-instances.md on a real 3-node MariaDB Galera cluster (`scripts/galera.sh start`, run by
 * `npm run test:galera`, which sets GALERA_TEST_PORTS): one service instance per node.
 */
const PORTS = (process.env.GALERA_TEST_PORTS ?? '').split(',').filter(Boolean).map(Number);
const describeGalera = PORTS.length === 3 ? describe : describe.skip;
const nodeUrl = (port: number, database = '') =>
  `mysql://relayer_test:relayer_test@127.0.0.1:${port}${database ? `/${database}` : ''}`;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** scripts/galera.sh with its arguments (kill N, restart N). */
const galeraScript = (...args: string[]) =>
  promisify(execFile)('bash', [path.join(PROJECT_ROOT, 'scripts', 'galera.sh'), ...args]);

/** Runs `sql` on one node as the test user, after the node has applied every write it has certified. */
async function queryNode(port: number, database: string, sql: string): Promise<RowDataPacket[]> {
  const connection = await createConnection({ uri: nodeUrl(port, database) });
  try {
    await connection.query('SET SESSION wsrep_sync_wait = 1');
    const [rows] = await connection.query<RowDataPacket[]>(sql);
    return rows;
  } finally {
    await connection.end();
  }
}

async function createDatabase(name: string): Promise<void> {
  const admin = await createConnection({ uri: nodeUrl(PORTS[0]) });
  try {
    await admin.query(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
  } finally {
    await admin.end();
  }
}

async function dropDatabase(name: string): Promise<void> {
  const admin = await createConnection({ uri: nodeUrl(PORTS[0]) });
  try {
    await admin.query(`DROP DATABASE IF EXISTS \`${name}\``);
  } finally {
    await admin.end();
  }
}

/** One service instance per node, on database `name`, in production mode. */
function instancesOn(name: string, env: Record<string, string>): ServiceProcess[] {
  return PORTS.map(
    (port) =>
      new ServiceProcess(process.cwd(), {
        NODE_ENV: 'production',
        // The receivers and RPC nodes of these tests listen on loopback, which production
        // refuses by default (docs/reference/hardening.md).
        RPC_BLOCK_PRIVATE_IPS: 'false',
        WEBHOOK_BLOCK_PRIVATE_IPS: 'false',
        DATABASE_URL: nodeUrl(port, name),
        STORAGE_ENCRYPTION_KEY: secrets.add(Buffer.alloc(32, 7).toString('base64')),
        RATE_LIMIT_REQUESTS_PER_SECOND: '10000',
        RATE_LIMIT_BURST_SIZE: '100000',
        ...env,
      }),
  );
}

describeGalera('three instances on a three-node Galera cluster (docs/reference/several-instances.md)', () => {
  const name = `relayer_test_galera_${randomBytes(4).toString('hex')}`;
  const apiKey = secrets.add(randomBytes(32).toString('hex'));
  const catalogue = writeTestCatalogue(64);
  const headers = { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' };
  let instances: ServiceProcess[] = [];

  beforeAll(async () => {
    await createDatabase(name);
    instances = instancesOn(name, {
      API_KEY: apiKey,
      CONFIG_FILE: catalogue.file,
      RELAYER_HEALTH_CHECKS: 'false',
    });
    // Started together, on an empty database.
    await Promise.all(instances.map((i) => i.start()));
  });

  afterAll(async () => {
    await Promise.all(instances.map((i) => i.stop()));
    for (const instance of instances) expect(secrets.foundIn(instance.log)).toEqual([]);
    await dropDatabase(name);
  });

  it('all become ready, every migration applied exactly once, by one of them', async () => {
    await Promise.all(instances.map((i) => i.waitReady()));
    const files = fs
      .readdirSync(path.join(PROJECT_ROOT, 'src', 'database', 'migrations'))
      .filter((f) => f.endsWith('.ts'))
      .map((f) => f.replace(/^(\d+)-(\w+)\.ts$/, '$2$1'))
      .sort();
    for (const port of PORTS) {
      const rows = await queryNode(port, name, 'SELECT name FROM migrations');
      expect(rows.map((r) => String(r.name)).sort()).toEqual(files);
    }
    expect(instances.filter((i) => i.log.includes('applied migrations'))).toHaveLength(1);
  });

  /** `count` requests spread over the instances at once; their statuses, sorted. */
  const race = async (count: number, send: (instance: ServiceProcess, i: number) => Promise<Response>) => {
    const answers = await Promise.all(
      Array.from({ length: count }, (_, i) => send(instances[i % instances.length], i)),
    );
    return answers.map((a) => a.status).sort();
  };

  it('racing creates of one relayer id across the nodes: one 201, the rest 409, no 5xx', async () => {
    const id = uid('race');
    const statuses = await race(30, (instance, i) =>
      instance.fetch('/api/v1/relayers', {
        method: 'POST',
        headers,
        body: JSON.stringify({
          id,
          name: 'race',
          network: 'sepolia',
          network_type: 'evm',
          paused: false,
          signer_id: catalogue.pool[i % catalogue.pool.length],
        }),
      }),
    );
    expect(statuses).toEqual([201, ...Array<number>(29).fill(409)]);
  });

  it('racing creates of one signer id across the nodes: one 201, the rest 409, no 5xx', async () => {
    const id = uid('signer');
    const statuses = await race(30, (instance) =>
      instance.fetch('/api/v1/signers', {
        method: 'POST',
        headers,
        body: JSON.stringify({
          id,
          type: 'plain',
          config: { key: secrets.add(randomBytes(32).toString('hex')) },
        }),
      }),
    );
    expect(statuses).toEqual([201, ...Array<number>(29).fill(409)]);
  });

  it('concurrent PATCHes of one relayer through every node: each answered 200, none lost', async () => {
    const id = uid('patch');
    const created = await instances[0].fetch('/api/v1/relayers', {
      method: 'POST',
      headers,
      body: JSON.stringify({
        id,
        name: 'n-0',
        network: 'mainnet',
        network_type: 'evm',
        paused: false,
        signer_id: 'pool-0015',
      }),
    });
    expect(created.status).toBe(201);
    // Every PATCH sets the name; each one must land on top of the ones before it (no 5xx, none lost).
    const bodies: string[] = [];
    const statuses = await race(30, async (instance, i) => {
      const answer = await instance.fetch(`/api/v1/relayers/${id}`, {
        method: 'PATCH',
        headers,
        body: JSON.stringify({ name: `n-${i + 1}` }),
      });
      if (answer.status !== 200) bodies.push(await answer.clone().text());
      return answer;
    });
    expect({ statuses, bodies }).toEqual({ statuses: Array<number>(30).fill(200), bodies: [] });
    const audit = await instances[1].fetch(
      `/api/v1/audit?resource_id=${id}&action=relayer.update&per_page=100`,
      {
        headers,
      },
    );
    const body = (await audit.json()) as { pagination: { total_items: number } };
    expect(body.pagination.total_items).toBe(30);
  });

  it('50 concurrent PATCHes of distinct policy fields of 10 relayers through every node: all kept', async () => {
    const ids = Array.from({ length: 10 }, (_, i) => uid(`policies-${i}`));
    for (const [i, id] of ids.entries()) {
      const created = await instances[i % 3].fetch('/api/v1/relayers', {
        method: 'POST',
        headers,
        body: JSON.stringify({
          id,
          name: id,
          network: 'mainnet',
          network_type: 'evm',
          paused: false,
          signer_id: `pool-${String(40 + i).padStart(4, '0')}`,
        }),
      });
      expect(created.status).toBe(201);
    }
    // Each PATCH merges one field into the relayer's policies (docs/reference/relayers.md#2-update: key by key).
    const fields = (i: number) => ({
      eip1559_pricing: true,
      gas_limit_estimation: false,
      gas_price_cap: 1_000_000_000 + i,
      min_balance: 1000 + i,
      private_transactions: true,
    });
    const patches = ids.flatMap((id, i) =>
      Object.entries(fields(i)).map(([field, value]) => ({ id, policies: { [field]: value } })),
    );
    const bodies: string[] = [];
    const statuses = await race(patches.length, async (instance, n) => {
      const answer = await instance.fetch(`/api/v1/relayers/${patches[n].id}`, {
        method: 'PATCH',
        headers,
        body: JSON.stringify({ policies: patches[n].policies }),
      });
      if (answer.status !== 200) bodies.push(await answer.clone().text());
      return answer;
    });
    expect({ statuses, bodies }).toEqual({ statuses: Array<number>(50).fill(200), bodies: [] });
    // Read back through every instance: every field of every relayer is there.
    for (const instance of instances) {
      const policies = await Promise.all(
        ids.map(async (id) => {
          const answer = await instance.fetch(`/api/v1/relayers/${id}`, { headers });
          return ((await answer.json()) as { data: { policies: unknown } }).data.policies;
        }),
      );
      expect(policies).toEqual(ids.map((_, i) => fields(i)));
    }
  });

  it('a read through another node right after a write sees it, also when that node applies writes late', async () => {
    const id = uid('causal');
    const relayer = (instance: number) => instances[instance].fetch(`/api/v1/relayers/${id}`, { headers });
    const created = await instances[0].fetch('/api/v1/relayers', {
      method: 'POST',
      headers,
      body: JSON.stringify({
        id,
        name: 'before',
        network: 'mainnet',
        network_type: 'evm',
        paused: false,
        signer_id: 'pool-0030',
      }),
    });
    expect(created.status).toBe(201);
    expect(((await (await relayer(2)).json()) as { data: { name: string } }).data.name).toBe('before');
    // Node 3 stops applying what the others certify while this session holds its read lock.
    const lock = await createConnection({ uri: nodeUrl(PORTS[2], name) });
    try {
      await lock.query('FLUSH TABLES WITH READ LOCK');
      const patched = await instances[0].fetch(`/api/v1/relayers/${id}`, {
        method: 'PATCH',
        headers,
        body: JSON.stringify({ name: 'after' }),
      });
      expect(patched.status).toBe(200);
      // The read through node 3's instance waits for node 3 to apply the PATCH, not answer 'before'.
      const read = relayer(2).then(async (answer) => ({
        status: answer.status,
        name: ((await answer.json()) as { data: { name: string } }).data.name,
      }));
      const early = await Promise.race([read, sleep(1000).then(() => 'waiting')]);
      expect(early).toBe('waiting');
      await lock.query('UNLOCK TABLES');
      expect(await read).toEqual({ status: 200, name: 'after' });
    } finally {
      await lock.end();
    }
  });

  /** The cluster size node `port` sees (0 when it does not answer). */
  const clusterSize = async (port: number) =>
    Number(
      (await queryNode(port, name, "SHOW STATUS LIKE 'wsrep_cluster_size'").catch(() => []))[0]?.Value ?? 0,
    );

  /** The status of GET /api/v1/ready on one instance. */
  const ready = async (instance: number) => (await instances[instance].fetch('/api/v1/ready')).status;

  it('one node SIGKILLed under steady writes, then restarted: no acknowledged write lost, its instance 503 and not ready meanwhile, back by itself', async () => {
    const LOST = 2; // the instance on node 3
    interface Write {
      readonly instance: number;
      readonly id: string;
      readonly started: number;
      readonly ms: number;
      readonly status: number; // 0: no answer within 10 s
      readonly body: string;
    }
    const writes: Write[] = [];
    let stopping = false;
    // One writer per instance, each creating notifications one after the other.
    const writer = async (instance: number) => {
      for (let seq = 0; !stopping; seq++) {
        const id = `loss-${instance}-${seq}`;
        const started = Date.now();
        let status = 0;
        let body = '';
        try {
          const answer = await instances[instance].fetch('/api/v1/notifications', {
            method: 'POST',
            headers,
            body: JSON.stringify({ id, url: `https://hooks.example.com/${id}` }),
          });
          status = answer.status;
          body = await answer.text();
        } catch {
          // no answer: counted as status 0
        }
        writes.push({ instance, id, started, ms: Date.now() - started, status, body });
        await sleep(10);
      }
    };
    const writers = [0, 1, 2].map(writer);
    try {
      await sleep(2000);
      const killedAt = Date.now();
      await galeraScript('kill', '3');
      await waitFor(
        'the instance on the lost node to report not ready',
        async () => (await ready(LOST)) === 503,
        {
          timeoutMs: 10_000,
          intervalMs: 50,
        },
      );
      const notReadyAfter = Date.now() - killedAt;
      // The survivors evict the lost node after gcomm's suspect timeout (about 5 s).
      await waitFor('the cluster to shrink to two nodes', async () => (await clusterSize(PORTS[0])) === 2, {
        timeoutMs: 30_000,
        intervalMs: 250,
      });
      const evictedAfter = Date.now() - killedAt;
      await sleep(2000); // writes on the two-node cluster
      const survivorsReady = [await ready(0), await ready(1), await ready(LOST)];
      const restartedAt = Date.now();
      await galeraScript('restart', '3'); // rejoins by state transfer; returns once Synced
      const syncedAfter = Date.now() - restartedAt;
      await instances[LOST].waitReady(30_000);
      const readyAfter = Date.now() - restartedAt;
      await waitFor(
        'a write through the recovered instance to be acknowledged',
        () => writes.some((w) => w.instance === LOST && w.started > restartedAt && w.status === 201),
        { timeoutMs: 15_000 },
      );
      await sleep(1000);
      stopping = true;
      await Promise.all(writers);

      const tally = (instance: number, from = 0, to = Infinity) => {
        const counts: Record<string, number> = {};
        for (const w of writes) {
          if (w.instance !== instance || w.started < from || w.started + w.ms > to) continue;
          counts[w.status] = (counts[w.status] ?? 0) + 1;
        }
        return counts;
      };
      const only = (counts: Record<string, number>) => Object.keys(counts).sort();
      const beforeKill = writes
        .filter((w) => w.started + w.ms < killedAt)
        .map((w) => w.ms)
        .sort((a, b) => a - b);
      const percentile = (q: number) =>
        beforeKill[Math.min(beforeKill.length - 1, Math.floor(q * beforeKill.length))];
      const slowest = (instance: number) =>
        Math.max(...writes.filter((w) => w.instance === instance).map((w) => w.ms));
      const lostDuring = writes.find(
        (w) => w.instance === LOST && w.started > killedAt + 500 && w.status === 503,
      );
      expect({
        survivorsReady,
        // The instances on the healthy nodes acknowledged every write, through the membership change.
        survivors: [only(tally(0)), only(tally(1))],
        // The one on the lost node answered 503 while its node was away (no 500, no hang) ...
        lostWhileAway: only(tally(LOST, killedAt + 500, restartedAt)),
        lostBody: lostDuring && JSON.parse(lostDuring.body),
        // ... and only 201 or 503 over the whole run.
        lostOverall: only(tally(LOST)).filter((s) => s !== '201' && s !== '503'),
      }).toEqual({
        survivorsReady: [200, 200, 503],
        survivors: [['201'], ['201']],
        lostWhileAway: ['503'],
        lostBody: {
          success: false,
          data: null,
          message: 'Service Unavailable',
          error: 'Service Unavailable',
        },
        lostOverall: [],
      });

      // Every acknowledged write is on every node.
      const acknowledged = writes.filter((w) => w.status === 201).map((w) => w.id);
      const missing: Record<number, string[]> = {};
      for (const port of PORTS) {
        const rows = await queryNode(port, name, "SELECT id FROM notifications WHERE id LIKE 'loss-%'");
        const present = new Set(rows.map((r) => String(r.id)));
        missing[port] = acknowledged.filter((id) => !present.has(id));
      }
      expect(missing).toEqual(Object.fromEntries(PORTS.map((p) => [p, []])));
      process.stdout.write(
        `galera node loss: ${acknowledged.length} writes acknowledged, all on every node; ` +
          `per instance ${[0, 1, 2].map((i) => JSON.stringify(tally(i))).join(' ')}; ` +
          `lost node's instance not ready after ${notReadyAfter} ms, node evicted after ${evictedAfter} ms; ` +
          `write latency on the healthy cluster p50 ${percentile(0.5)} ms, p99 ${percentile(0.99)} ms; ` +
          `slowest write on a healthy node ${Math.max(slowest(0), slowest(1))} ms; ` +
          `restarted node synced after ${syncedAfter} ms, its instance ready after ${readyAfter} ms\n`,
      );
    } finally {
      stopping = true;
      await Promise.all(writers);
      if ((await clusterSize(PORTS[0])) < 3) await galeraScript('restart', '3').catch(() => undefined);
    }
  }, 120_000);

  it('one node cut off from the others (a partition): its instance answers 503 and is not ready, never 500; back by itself when the node rejoins', async () => {
    const tag = randomBytes(3).toString('hex');
    const write = async (instance: number, id: string) => {
      const answer = await instances[instance].fetch('/api/v1/notifications', {
        method: 'POST',
        headers,
        body: JSON.stringify({ id, url: `https://hooks.example.com/${id}` }),
      });
      return { status: answer.status, body: await answer.json() };
    };
    const isolatedAt = Date.now();
    await galeraScript('isolate', '3');
    let during: unknown;
    let notReadyAfter: number | undefined;
    try {
      // The node stays up and still answers `SELECT 1`, but leaves the primary component.
      await waitFor('the cut-off node to leave the primary component', async () => (await ready(2)) === 503, {
        timeoutMs: 20_000,
        intervalMs: 100,
      });
      notReadyAfter = Date.now() - isolatedAt;
      await waitFor(
        'the other two to go on as a cluster of two',
        async () => (await clusterSize(PORTS[0])) === 2,
        {
          timeoutMs: 20_000,
          intervalMs: 250,
        },
      );
      during = {
        cutOff: await write(2, `cut-${tag}-2`),
        others: [(await write(0, `cut-${tag}-0`)).status, (await write(1, `cut-${tag}-1`)).status],
        ready: [await ready(0), await ready(1), await ready(2)],
      };
    } finally {
      await galeraScript('rejoin', '3');
    }
    const rejoinedAfter = Date.now() - isolatedAt;
    await instances[2].waitReady(30_000);
    const back = await write(2, `cut-${tag}-back`);
    expect({ during, back: back.status }).toEqual({
      during: {
        cutOff: { status: 503, body: errorBody('Service Unavailable') },
        others: [201, 201],
        ready: [200, 200, 503],
      },
      back: 201,
    });
    // Acknowledged writes everywhere, the refused one nowhere.
    for (const port of PORTS) {
      const rows = await queryNode(
        port,
        name,
        `SELECT id FROM notifications WHERE id LIKE 'cut-${tag}-%' ORDER BY id`,
      );
      expect(rows.map((r) => String(r.id))).toEqual([`cut-${tag}-0`, `cut-${tag}-1`, `cut-${tag}-back`]);
    }
    process.stdout.write(
      `galera partition: the cut-off node's instance not ready after ${notReadyAfter} ms, answering 503; rejoined and Synced after ${rejoinedAfter} ms\n`,
    );
  }, 90_000);
});

describeGalera(
  'webhooks and health checks once across three instances on Galera (docs/reference/several-instances.md)',
  () => {
    const name = `relayer_test_galera_${randomBytes(4).toString('hex')}`;
    const apiKey = secrets.add(randomBytes(32).toString('hex'));
    const headers = { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' };
    const INTERVAL_SECONDS = 1;
    const RELAYERS = 9;
    const anvil = new Anvil();
    const receiver = new WebhookReceiver();
    let proxy: CountingProxy;
    let instances: ServiceProcess[] = [];

    beforeAll(async () => {
      await createDatabase(name);
      await anvil.start();
      proxy = await new CountingProxy(anvil.url).start();
      await receiver.start();
      const file = writeProxiedAnvilCatalogue(
        proxy,
        Array.from({ length: RELAYERS }, (_, i) => `once-${i}`),
      );
      instances = instancesOn(name, {
        API_KEY: apiKey,
        CONFIG_FILE: file,
        RELAYER_HEALTH_CHECKS: 'true',
        RELAYER_HEALTH_CHECK_INTERVAL_SECONDS: String(INTERVAL_SECONDS),
        RELAYER_HEALTH_RETRY_SECONDS: String(INTERVAL_SECONDS),
        WEBHOOK_RETRY_BASE_MS: '200',
      });
      await Promise.all(instances.map((i) => i.start()));
      await Promise.all(instances.map((i) => i.waitReady()));
    });

    afterAll(async () => {
      await Promise.all(instances.map((i) => i.stop()));
      for (const instance of instances) expect(secrets.foundIn(instance.log)).toEqual([]);
      await proxy?.close();
      await receiver.close();
      await anvil.stop();
      await dropDatabase(name);
    });

    const send = async (instance: ServiceProcess, method: string, p: string, body?: unknown) => {
      const answer = await instance.fetch(p, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: answer.status, body: (await answer.json()) as { data: Record<string, unknown> } };
    };

    it('changes through all three and checks by all three: each event delivered once, each relayer checked once per round', async () => {
      const hook = uid('hook');
      expect(
        (await send(instances[0], 'POST', '/api/v1/notifications', { id: hook, url: receiver.url('/once') }))
          .status,
      ).toBe(201);
      // Relayers created through every instance; every third one with a min_balance its empty account
      // misses, so that health checks disable it (a relayer_state_update event, made by whichever
      // instance checked it first).
      const started = Date.now();
      const created = await Promise.all(
        Array.from({ length: RELAYERS }, (_, i) =>
          send(instances[i % 3], 'POST', '/api/v1/relayers', {
            id: `once-${i}`,
            name: `once ${i}`,
            network: 'anvil',
            network_type: 'evm',
            paused: false,
            signer_id: `once-${i}`,
            notification_id: hook,
            ...(i % 3 === 0 ? { policies: { min_balance: 1000 } } : {}),
          }),
        ),
      );
      expect(created.map((c) => c.status)).toEqual(Array<number>(RELAYERS).fill(201));
      const addresses = created.map((c) => String(c.body.data.address).toLowerCase());
      // Renamed through another instance than the one that created it.
      const renamed = await Promise.all(
        Array.from({ length: RELAYERS }, (_, i) =>
          send(instances[(i + 1) % 3], 'PATCH', `/api/v1/relayers/once-${i}`, { name: `renamed ${i}` }),
        ),
      );
      expect(renamed.map((r) => r.status)).toEqual(Array<number>(RELAYERS).fill(200));

      const disabled = Array.from({ length: RELAYERS }, (_, i) => i).filter((i) => i % 3 === 0).length;
      const expectedEvents = 2 * RELAYERS + disabled; // created, updated, and one disable each
      const rounds = 5;
      await waitFor(
        `${rounds} rounds of checks and ${expectedEvents} events`,
        () =>
          addresses.every((a) => (proxy.checks.get(a) ?? 0) >= rounds) &&
          new Set(receiver.to('/once').map((r) => r.json.id)).size >= expectedEvents,
        {
          timeoutMs: 60_000,
          detail: () =>
            `${JSON.stringify(Object.fromEntries(proxy.checks))}; ${receiver.to('/once').length} events`,
        },
      );
      // Three dispatchers keep polling: give them a few rounds to (wrongly) send anything twice.
      await sleep(3000);
      const counts = addresses.map((a) => proxy.checks.get(a) ?? 0);
      const elapsedRounds = (Date.now() - started) / 1000 / INTERVAL_SECONDS;
      const perEvent = new Map<string, number>();
      const kinds = new Map<string, number>();
      for (const r of receiver.to('/once')) {
        perEvent.set(r.json.id, (perEvent.get(r.json.id) ?? 0) + 1);
        const kind = `${r.json.event}/${String(r.json.payload.payload_type)}`;
        kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
      }
      const deliveries = await send(
        instances[2],
        'GET',
        `/api/v1/notifications/${hook}/deliveries?per_page=100`,
      );
      const log = deliveries.body.data as unknown as Array<{ status: string; attempts: number }>;
      expect({
        kinds: Object.fromEntries([...kinds].sort()),
        sentOnce: [...perEvent.values()].every((n) => n === 1),
        deliveries: log.map((d) => `${d.status}/${d.attempts}`),
        // One checker per round: at most one check per interval elapsed (plus the first, right after create).
        atMostOnePerRound: counts.every((n) => n <= Math.ceil(elapsedRounds) + 1) || counts,
        neverTwoAtOnce: proxy.maxAtOnce,
      }).toEqual({
        kinds: {
          'relayer_created/relayer_created': RELAYERS,
          'relayer_state_update/relayer_disabled': disabled,
          'relayer_updated/relayer_updated': RELAYERS,
        },
        sentOnce: true,
        deliveries: Array<string>(expectedEvents).fill('delivered/1'),
        atMostOnePerRound: true,
        neverTwoAtOnce: 1,
      });
      process.stdout.write(
        `galera once-only: ${perEvent.size} events each delivered once by 3 instances; checks per relayer ${counts.join(', ')} over ${elapsedRounds.toFixed(1)} intervals, never two at once\n`,
      );
    }, 120_000);

    it('changes one after the other through all three, a slow receiver: the target gets them in commit order, once each', async () => {
      const EVENTS = 30;
      // Every answer takes 30 ms: while one instance sends, the others see the next events due.
      receiver.script(
        '/ordered',
        Array.from({ length: EVENTS + 1 }, () => ({ delayMs: 30 })),
      );
      const hook = uid('hook');
      expect(
        (
          await send(instances[0], 'POST', '/api/v1/notifications', {
            id: hook,
            url: receiver.url('/ordered'),
          })
        ).status,
      ).toBe(201);
      expect(
        (await send(instances[0], 'PATCH', '/api/v1/relayers/once-1', { notification_id: hook })).status,
      ).toBe(200);
      for (let i = 0; i < EVENTS; i++) {
        const renamed = await send(instances[i % 3], 'PATCH', '/api/v1/relayers/once-1', { name: `n ${i}` });
        expect(renamed.status).toBe(200);
      }
      const names = () =>
        receiver
          .to('/ordered')
          .map((r) => String((r.json.payload.relayer as { name?: unknown } | undefined)?.name))
          .filter((name) => name.startsWith('n '));
      await waitFor(`${EVENTS} renames at /ordered`, () => names().length >= EVENTS, {
        timeoutMs: 30_000,
        detail: () => `${names().length} arrived`,
      });
      // Three dispatchers keep polling: give them a few rounds to (wrongly) send anything again.
      await sleep(1500);
      expect(names()).toEqual(Array.from({ length: EVENTS }, (_, i) => `n ${i}`));
    }, 60_000);
  },
);
