import { ConflictException, Injectable, Module } from '@nestjs/common';
import { OnEvent } from '@nestjs/event-emitter';
import { DataSource } from 'typeorm';
import type { CommittingEvent } from '../../../src/database/transactions';
import { RELAYER_EVENTS, type RelayerEvent } from '../../../src/relayers/relayer-events';
import { expectError, successBody } from '../../support/envelope';
import { startTestApp, type TestApp } from '../../support/test-app';
import { createTestDatabase, type TestDatabase } from '../../support/test-database';
import { createNotification, relayerBody, uid } from '../../factories';

const ROWS = 'ext_subscriber_rows';
const COMMITTING = `${RELAYER_EVENTS.created}.committing`;

/** Writes a row of its own in the change's transaction, then vetoes the relayers named for it. */
@Injectable()
class CommittingSubscribers {
  @OnEvent(COMMITTING)
  async plain({ manager, event }: CommittingEvent<RelayerEvent>): Promise<void> {
    await manager.query(`INSERT INTO ${ROWS} (relayer_id, subscriber) VALUES (?, ?)`, [
      event.relayer.id,
      'plain',
    ]);
    if (event.relayer.name === 'veto-plain') throw new Error('the plain subscriber vetoes it');
  }

  /** The options that used to detach it from the transaction and swallow its error. */
  @OnEvent(COMMITTING, { suppressErrors: true, async: true })
  async detached({ manager, event }: CommittingEvent<RelayerEvent>): Promise<void> {
    await manager.query(`INSERT INTO ${ROWS} (relayer_id, subscriber) VALUES (?, ?)`, [
      event.relayer.id,
      'detached',
    ]);
    if (event.relayer.name === 'veto-detached') throw new ConflictException('vetoed');
  }
}

@Injectable()
class AfterCommitSubscribers {
  @OnEvent(RELAYER_EVENTS.created, { suppressErrors: false })
  async rejects({ relayer }: RelayerEvent): Promise<void> {
    await Promise.resolve();
    if (relayer.name === 'reject-after') throw new Error(`after-commit rejection for ${relayer.id}`);
  }

  @OnEvent(RELAYER_EVENTS.created)
  throws({ relayer }: RelayerEvent): void {
    if (relayer.name === 'throw-after') throw new Error(`after-commit throw for ${relayer.id}`);
  }
}

@Module({ providers: [CommittingSubscribers, AfterCommitSubscribers] })
class SubscribersModule {}

describe('extension event subscribers fail safely, whatever their @OnEvent options', () => {
  let database: TestDatabase;
  let app: TestApp;
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => unhandled.push(reason);

  beforeAll(async () => {
    process.on('unhandledRejection', onUnhandled);
    database = await createTestDatabase();
    app = await startTestApp({ DATABASE_URL: database.url }, { imports: [SubscribersModule] });
    await app.app
      .get(DataSource)
      .query(`CREATE TABLE ${ROWS} (relayer_id varchar(64) NOT NULL, subscriber varchar(16) NOT NULL)`);
  });
  afterAll(async () => {
    process.off('unhandledRejection', onUnhandled);
    await app?.close();
    await database?.drop();
  });

  const rowsOf = (id: string): Promise<unknown> =>
    app.app
      .get(DataSource)
      .query(`SELECT subscriber FROM ${ROWS} WHERE relayer_id = ? ORDER BY subscriber`, [id]);
  const auditOf = async (id: string) =>
    (await app.get(`/api/v1/audit?resource_type=relayer&resource_id=${id}`).expect(200)).body as {
      data: Array<{ action: string }>;
    };

  /** What a vetoed create must leave: no relayer, no row, no audit record, no delivery. */
  async function expectNothingOf(id: string, notificationId: string): Promise<void> {
    expectError(await app.get(`/api/v1/relayers/${id}`), 404, `Relayer with ID ${id} not found`);
    expect(await rowsOf(id)).toEqual([]);
    expect((await auditOf(id)).data).toEqual([]);
    const deliveries = await app.get(`/api/v1/notifications/${notificationId}/deliveries`).expect(200);
    expect((deliveries.body as { data: unknown[] }).data).toEqual([]);
  }

  it('a subscriber that does not throw writes its rows with the change (the control)', async () => {
    const id = uid('sub');
    const created = await app.post('/api/v1/relayers', relayerBody('evm', { id, name: 'kept' }));
    expect(created.status).toBe(201);
    expect(await rowsOf(id)).toEqual([{ subscriber: 'detached' }, { subscriber: 'plain' }]);
    expect((await auditOf(id)).data.map((r) => r.action)).toEqual(['relayer.create']);
  });

  it('a .committing subscriber with default options that throws an Error: 500, and the whole change rolled back', async () => {
    const hook = (await createNotification(app)).id as string;
    const id = uid('sub');
    const res = await app.post(
      '/api/v1/relayers',
      relayerBody('evm', { id, name: 'veto-plain', notification_id: hook }),
    );
    expectError(res, 500, 'Internal Server Error');
    await expectNothingOf(id, hook);
  });

  it('a .committing subscriber with { suppressErrors: true, async: true } that throws a 409: the 409, and nothing stays', async () => {
    const hook = (await createNotification(app)).id as string;
    const id = uid('sub');
    const res = await app.post(
      '/api/v1/relayers',
      relayerBody('evm', { id, name: 'veto-detached', notification_id: hook }),
    );
    expectError(res, 409, 'vetoed');
    await expectNothingOf(id, hook);
  });

  it.each([
    ['rejects, with { suppressErrors: false }', 'reject-after', 'after-commit rejection'],
    ['throws, with the default options', 'throw-after', 'after-commit throw'],
  ])(
    'an after-commit subscriber that %s: 201, the process keeps serving, the failure logged with the request id',
    async (_, name, message) => {
      const id = uid('sub');
      const requestId = uid('req');
      const res = await app
        .post('/api/v1/relayers', relayerBody('evm', { id, name }))
        .set('X-Request-Id', requestId);
      expect({ status: res.status, id: (res.body as { data: { id: string } }).data.id }).toEqual({
        status: 201,
        id,
      });
      const read = await app.get(`/api/v1/relayers/${id}`);
      expect({ status: read.status, body: read.body as unknown }).toEqual({
        status: 200,
        body: successBody(res.body.data),
      });
      const lines = await app.waitForLog(new RegExp(`${message} for ${id}`));
      expect(
        lines.map((line) => {
          const { req, msg, err } = JSON.parse(line) as {
            req?: { id?: string };
            msg: string;
            err: { message: string };
          };
          return { requestId: req?.id, msg, err: err.message };
        }),
      ).toEqual([
        {
          requestId,
          msg: `the event subscriber AfterCommitSubscribers.${name === 'reject-after' ? 'rejects' : 'throws'} failed after commit: the change stays committed`,
          err: `${message} for ${id}`,
        },
      ]);
      expect(unhandled).toEqual([]);
    },
  );
});
