import { randomBytes } from 'node:crypto';
import { createConnection } from 'mysql2/promise';
import fs from 'node:fs';
import path from 'node:path';
import { secrets } from '../support/secrets';
import { PROJECT_ROOT, ServiceProcess } from '../support/service-process';
import { writeTestCatalogue } from '../support/test-catalogue';
import { createTestDatabase, TEST_DB, type TestDatabase } from '../support/test-database';
import { uid } from '../factories';

const REDIS_TEST_URL = process.env.REDIS_TEST_URL;
const describeCluster = TEST_DB === 'mysql' && REDIS_TEST_URL ? describe : describe.skip;

describeCluster('three instances on one MySQL and one Redis', () => {
  let database: TestDatabase;
  let instances: ServiceProcess[] = [];
  const apiKey = secrets.add(randomBytes(32).toString('hex'));
  const catalogue = writeTestCatalogue(8);

  beforeAll(async () => {
    database = await createTestDatabase({ kind: 'mysql', empty: true });
    const keyPrefix = `cluster-${randomBytes(4).toString('hex')}`;
    instances = [0, 1, 2].map(
      () =>
        new ServiceProcess(process.cwd(), {
          API_KEY: apiKey,
          NODE_ENV: 'production',
          DATABASE_URL: database.url,
          REDIS_URL: REDIS_TEST_URL,
          CONFIG_FILE: catalogue.file,
          RATE_LIMIT_BURST_SIZE: '5',
          RATE_LIMIT_REQUESTS_PER_SECOND: '1',
          RATE_LIMIT_KEY_PREFIX: keyPrefix,
        }),
    );
    await Promise.all(instances.map((i) => i.start()));
  });
  afterAll(async () => {
    await Promise.all(instances.map((i) => i.stop()));
    await database?.drop();
  });

  it('all become ready against an empty database, with every migration applied exactly once', async () => {
    await Promise.all(instances.map((i) => i.waitReady()));
    const connection = await createConnection({ uri: database.url });
    try {
      const [rows] = await connection.query<import('mysql2').RowDataPacket[]>(
        'SELECT name FROM migrations ORDER BY id',
      );
      const files = fs
        .readdirSync(path.join(PROJECT_ROOT, 'src', 'database', 'migrations'))
        .filter((f) => f.endsWith('.ts'));
      expect(rows.map((r) => String(r.name)).sort()).toEqual(
        files.map((f) => f.replace(/^(\d+)-(\w+)\.ts$/, '$2$1')).sort(),
      );
    } finally {
      await connection.end();
    }
    const applied = instances.map((i) => i.log.includes('applied migrations'));
    expect(applied.filter(Boolean)).toHaveLength(1);
  });

  it('each instance serves the writes of the others, and they share one rate limit', async () => {
    const [a, b, c] = instances;
    const id = uid('shared');
    const created = await a.call('POST', '/api/v1/notifications', { id, url: 'https://hooks.example.com/c' });
    expect(created.status).toBe(201);
    const patched = await b.call('PATCH', `/api/v1/notifications/${id}`, {
      url: 'https://hooks.example.com/changed-by-b',
    });
    expect(patched.status).toBe(200);
    const read = await c.call('GET', `/api/v1/notifications/${id}`);
    expect(((await read.json()) as { data: { url: string } }).data.url).toBe(
      'https://hooks.example.com/changed-by-b',
    );
    // Three requests used 3 of the burst of 5 shared by every instance: two more pass, the next is refused.
    expect((await a.call('GET', '/api/v1/notifications')).status).toBe(200);
    expect((await b.call('GET', '/api/v1/notifications')).status).toBe(200);
    const refused = await c.call('GET', '/api/v1/notifications');
    expect({
      status: refused.status,
      retryAfter: /^[1-5]$/.test(refused.headers.get('retry-after') ?? ''),
    }).toEqual({
      status: 429,
      retryAfter: true,
    });
    expect((await a.call('GET', '/api/v1/notifications')).status).toBe(429);
  });
});
