import { Injectable, Module } from '@nestjs/common';
import { OnEvent } from '@nestjs/event-emitter';
import { randomBytes } from 'node:crypto';
import { Transactions } from '../src/database/transactions';
import { expectError } from './support/envelope';
import { defaultCatalogue, startTestApp, type TestApp } from './support/test-app';
import { createTestDatabase, type TestDatabase } from './support/test-database';

const REQUEST_TIMEOUT_MS = 3000;

/** An extension's `.committing` subscriber that opens a transaction of its own (contract 17's trap). */
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

const relayerBody = () => ({
  id: `nest-${randomBytes(5).toString('hex')}`,
  name: 'nested',
  network: 'sepolia',
  network_type: 'evm',
  paused: false,
  signer_id: defaultCatalogue().nextSigner(),
});

describe('no hanging (contract 18): a transaction opened inside another one', () => {
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
    const started = Date.now();
    expectError(await app.post('/api/v1/relayers', body), 500, 'Internal Server Error');
    expect(Date.now() - started).toBeLessThan(REQUEST_TIMEOUT_MS / 2);
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
