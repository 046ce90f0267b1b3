import { Injectable, Module } from '@nestjs/common';
import { OnEvent } from '@nestjs/event-emitter';
import { DataSource } from 'typeorm';
import { Transactions } from '../../src/database/transactions';
import { expectError } from '../support/envelope';
import { startTestApp, useTestApp, type TestApp } from '../support/test-app';
import { createTestDatabase, TEST_DB, type TestDatabase } from '../support/test-database';
import { waitFor } from '../support/wait';
import { relayerBody as factoryRelayerBody, uid } from '../factories';

const REQUEST_TIMEOUT_MS = 3000;

/** An extension's `.committing` subscriber that opens a transaction of its own (docs/reference/extension-events.md's trap). */
@Injectable()
class NestingSubscriber {
  constructor(private readonly transactions: Transactions) {}

  @OnEvent('relayer.created.committing', { async: true, promisify: true, suppressErrors: false })
  async onCreated(): Promise<void> {
    await this.transactions.run(() => Promise.resolve());
  }
}

@Module({ providers: [NestingSubscriber] })
class NestingModule {}

const relayerBody = () => factoryRelayerBody('evm', { id: uid('nest'), name: 'nested' });

describe('no hanging (docs/reference/hardening.md): a transaction opened inside another one', () => {
  let database: TestDatabase;
  let app: TestApp;

  beforeAll(async () => {
    database = await createTestDatabase();
    app = await startTestApp(
      { DATABASE_URL: database.url, REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS) },
      { imports: [NestingModule] },
    );
  });
  afterAll(async () => {
    await app?.close();
    await database?.drop();
  });

  it('fails at once with an error that says so: a 500 envelope well before REQUEST_TIMEOUT_MS, nothing written, the service still serving', async () => {
    const body = relayerBody();
    // A 500, not the 504 that REQUEST_TIMEOUT_MS would give: it failed, it did not wait.
    expectError(await app.post('/api/v1/relayers', body), 500, 'Internal Server Error');
    expect(await app.waitForLog(/a transaction was opened inside another one/)).toHaveLength(1);
    expectError(await app.get(`/api/v1/relayers/${body.id}`), 404, `Relayer with ID ${body.id} not found`);
    const list = await app.get('/api/v1/relayers');
    expect({
      status: list.status,
      total: (list.body as { pagination: { total_items: number } }).pagination.total_items,
    }).toEqual({
      status: 200,
      total: 0,
    });
  });
});

describe('no hanging (docs/reference/hardening.md): every connection held by open transactions', () => {
  const TIMEOUT_MS = 1500;
  const handle = useTestApp({ REQUEST_TIMEOUT_MS: String(TIMEOUT_MS) });
  const app = () => handle.current;

  it('the next requests answer 503 within REQUEST_TIMEOUT_MS; once the transactions end, the service serves again', async () => {
    const transactions = app().app.get(Transactions);
    const options = app().app.get(DataSource).options;
    // MySQL: the whole pool; SQLite: its one connection.
    const connections = TEST_DB === 'mysql' && 'poolSize' in options ? (options.poolSize ?? 10) : 1;
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let holding = 0;
    const holders = Array.from({ length: connections }, () =>
      transactions.run(async () => {
        holding += 1;
        await released;
      }),
    );
    try {
      await waitFor(`${connections} open transactions`, () => holding === connections);
      for (const send of [
        () => app().get('/api/v1/relayers'),
        () => app().post('/api/v1/notifications', { url: 'https://hooks.example.com/busy' }),
      ]) {
        // 503, not the 504 that REQUEST_TIMEOUT_MS would give: the server gave up waiting before its
        // deadline (the status says so; a time measured here would also hold a busy machine's delays).
        expectError(await send(), 503, 'Service Unavailable');
      }
    } finally {
      release();
      await Promise.all(holders);
    }
    const list = await app().get('/api/v1/relayers');
    expect(list.status).toBe(200);
    const created = await app().post('/api/v1/notifications', { url: 'https://hooks.example.com/free' });
    expect(created.status).toBe(201);
    expect(await app().waitForLog(/no database connection became free within/)).not.toHaveLength(0);
  });
});
