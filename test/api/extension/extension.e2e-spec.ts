import { RelayerAuditModule } from '../../../examples/relayer-audit/relayer-audit.module';
import { expectError, successBody } from '../../support/envelope';
import { startTestApp, type TestApp } from '../../support/test-app';
import { createTestDatabase, type TestDatabase } from '../../support/test-database';
import { relayerBody, uid } from '../../factories';

describe('an extension module added with createApp(config, { imports })', () => {
  let database: TestDatabase;
  let app: TestApp;

  beforeAll(async () => {
    database = await createTestDatabase();
    app = await startTestApp({ DATABASE_URL: database.url }, { imports: [RelayerAuditModule] });
  });
  afterAll(async () => {
    await app?.close();
    await database?.drop();
  });

  it('its route is protected, rate limited and enveloped like the service’s own', async () => {
    expectError(await app.get('/api/v1/examples/relayer-audit', false), 401, 'Unauthorized');
    const res = await app.get('/api/v1/examples/relayer-audit').expect(200);
    expect({ body: res.body as unknown, limit: res.headers['x-ratelimit-limit'] }).toEqual({
      body: successBody([]),
      limit: '100000',
    });
    expectError(
      await app.get('/api/v1/examples/relayer-audit/no-such-relayer'),
      404,
      'Relayer with ID no-such-relayer not found',
    );
  });

  it('it hears every committed relayer change, after commit, and reads through the exported RelayersService', async () => {
    const id = uid('ext');
    await app.post('/api/v1/relayers', relayerBody('evm', { id, name: 'audited' })).expect(201);
    await app.patch(`/api/v1/relayers/${id}`, { name: 'renamed' }).expect(200);
    await app.patch(`/api/v1/relayers/${id}`, { name: 12 }).expect(400); // refused: nothing to hear
    const history = await app.get(`/api/v1/examples/relayer-audit/${id}`).expect(200);
    expect(history.body).toEqual(
      successBody({
        relayer: (await app.get(`/api/v1/relayers/${id}`).expect(200)).body.data as unknown,
        changes: [
          { event: 'relayer.created', relayer_id: id, name: 'audited' },
          { event: 'relayer.updated', relayer_id: id, name: 'renamed' },
        ],
      }),
    );
    await app.delete(`/api/v1/relayers/${id}`).expect(200);
    const all = await app.get('/api/v1/examples/relayer-audit').expect(200);
    expect((all.body as { data: Array<{ event: string }> }).data.map((e) => e.event)).toEqual([
      'relayer.created',
      'relayer.updated',
      'relayer.deleted',
    ]);
  });
});
