import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { createConnection } from 'mysql2/promise';
import { secrets } from './support/secrets';
import { PROJECT_ROOT, ServiceProcess } from './support/service-process';
import { writeTestCatalogue } from './support/test-catalogue';

/**
 * Contract 16 on a real 3-node MariaDB Galera cluster (`scripts/galera.sh start`, run by
 * `npm run test:galera`, which sets GALERA_TEST_PORTS): one service instance per node.
 */
const PORTS = (process.env.GALERA_TEST_PORTS ?? '').split(',').filter(Boolean).map(Number);
const describeGalera = PORTS.length === 3 ? describe : describe.skip;
const nodeUrl = (port: number, database = '') =>
  `mysql://relayer_test:relayer_test@127.0.0.1:${port}${database ? `/${database}` : ''}`;

describeGalera('three instances on a three-node Galera cluster (contract 16)', () => {
  const name = `relayer_test_galera_${randomBytes(4).toString('hex')}`;
  const apiKey = secrets.add(randomBytes(32).toString('hex'));
  const catalogue = writeTestCatalogue(16);
  const headers = { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' };
  let instances: ServiceProcess[] = [];

  beforeAll(async () => {
    const admin = await createConnection({ uri: nodeUrl(PORTS[0]) });
    try {
      await admin.query(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
    } finally {
      await admin.end();
    }
    instances = PORTS.map(
      (port) =>
        new ServiceProcess(process.cwd(), {
          API_KEY: apiKey,
          NODE_ENV: 'production',
          DATABASE_URL: nodeUrl(port, name),
          CONFIG_FILE: catalogue.file,
          STORAGE_ENCRYPTION_KEY: secrets.add(Buffer.alloc(32, 7).toString('base64')),
          RELAYER_HEALTH_CHECKS: 'false',
          RATE_LIMIT_REQUESTS_PER_SECOND: '10000',
          RATE_LIMIT_BURST_SIZE: '100000',
        }),
    );
    // Started together, on an empty database.
    await Promise.all(instances.map((i) => i.start()));
  });

  afterAll(async () => {
    await Promise.all(instances.map((i) => i.stop()));
    for (const instance of instances) expect(secrets.foundIn(instance.log)).toEqual([]);
    const admin = await createConnection({ uri: nodeUrl(PORTS[0]) });
    try {
      await admin.query(`DROP DATABASE IF EXISTS \`${name}\``);
    } finally {
      await admin.end();
    }
  });

  it('all become ready, every migration applied exactly once, by one of them', async () => {
    await Promise.all(instances.map((i) => i.waitReady()));
    const files = fs
      .readdirSync(path.join(PROJECT_ROOT, 'src', 'database', 'migrations'))
      .filter((f) => f.endsWith('.ts'))
      .map((f) => f.replace(/^(\d+)-(\w+)\.ts$/, '$2$1'))
      .sort();
    for (const port of PORTS) {
      const connection = await createConnection({ uri: nodeUrl(port, name) });
      try {
        const [rows] = await connection.query<import('mysql2').RowDataPacket[]>(
          'SELECT name FROM migrations',
        );
        expect(rows.map((r) => String(r.name)).sort()).toEqual(files);
      } finally {
        await connection.end();
      }
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
    const id = `race-${randomBytes(4).toString('hex')}`;
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
    const id = `signer-${randomBytes(4).toString('hex')}`;
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
    const id = `patch-${randomBytes(4).toString('hex')}`;
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
});
