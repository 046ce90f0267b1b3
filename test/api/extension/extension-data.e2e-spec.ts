import { Body, Controller, Get, Module, Post } from '@nestjs/common';
import { InjectRepository, TypeOrmModule } from '@nestjs/typeorm';
import {
  Column,
  DataSource,
  Entity,
  PrimaryColumn,
  type MigrationInterface,
  type QueryRunner,
} from 'typeorm';
import type { Repository } from 'typeorm';
import { declareResource, PERMISSIONS, RequirePermission, Transactions } from '../../../src';
import { declaredPermissions } from '../../../src/common/auth/resources';
import { auditedTypesWith, resourceTypeRule } from '../../support/declared';
import { expectError, successBody } from '../../support/envelope';
import { startTestApp, type TestApp } from '../../support/test-app';
import { createTestDatabase, TEST_DB, type TestDatabase } from '../../support/test-database';
import { createKey, relayerBody, uid } from '../../factories';
import { openApiDocument } from '../../support/routes';

@Entity('ext_notes')
class NoteEntity {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id: string;

  @Column({ type: 'varchar', length: 200 })
  text: string;
}

class CreateExtNotes1900000000000 implements MigrationInterface {
  async up(runner: QueryRunner): Promise<void> {
    await runner.query(
      'CREATE TABLE ext_notes (id varchar(36) NOT NULL PRIMARY KEY, text varchar(200) NOT NULL)',
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE ext_notes');
  }
}

interface NoteBody {
  id: string;
  text: string;
  /** Which side of the transaction fails, after the other wrote. */
  fail?: 'service' | 'theirs';
}

@Controller('ext/notes')
class NotesController {
  constructor(
    private readonly transactions: Transactions,
    @InjectRepository(NoteEntity) private readonly notes: Repository<NoteEntity>,
  ) {}

  @Post()
  @RequirePermission('notes:write')
  create(@Body() body: NoteBody): Promise<NoteEntity> {
    return this.transactions.run(async (tx) => {
      const note = { id: body.id, text: body.text };
      if (body.fail === 'theirs') {
        // The service writes first (the audit record), then their write fails (no such column).
        await tx.recordChange({
          resource: 'note',
          id: note.id,
          operation: 'create',
          before: null,
          after: note,
        });
        await tx.manager.query('INSERT INTO ext_notes (id, no_such_column) VALUES (?, ?)', [note.id, 'x']);
      }
      await tx.manager.insert(NoteEntity, note);
      await tx.recordChange({
        resource: 'note',
        id: note.id,
        operation: 'create',
        before: null,
        after: note,
      });
      // A write to the service's own table that fails (no such column).
      if (body.fail === 'service') await tx.manager.query('UPDATE relayers SET no_such_column = 1');
      return note;
    });
  }

  @Get()
  @RequirePermission('notes:read')
  list(): Promise<NoteEntity[]> {
    return this.notes.find({ order: { id: 'ASC' } });
  }
}

@Module({ imports: [TypeOrmModule.forFeature([NoteEntity])], controllers: [NotesController] })
class NotesModule {}

const EXTENSION = { imports: [NotesModule], migrations: [CreateExtNotes1900000000000] };

async function migrationRows(app: TestApp): Promise<number> {
  const rows: Array<{ n: number | string }> = await app.app
    .get(DataSource)
    .query("SELECT COUNT(*) AS n FROM migrations WHERE name = 'CreateExtNotes1900000000000'");
  return Number(rows[0].n);
}

async function noteTableExists(app: TestApp): Promise<boolean> {
  const runner = app.app.get(DataSource).createQueryRunner();
  try {
    return await runner.hasTable('ext_notes');
  } finally {
    await runner.release();
  }
}

// docs/reference/extension-events.md#17-tables-and-resources-of-an-extension
describe('tables and resources of an extension: createApp(config, { entities, migrations }), declareResource', () => {
  let database: TestDatabase;
  let app: TestApp;

  beforeAll(async () => {
    // Declared when this spec runs, not when it is loaded: the declaration is the process's, and the
    // specs grouped with it (test/support/spec-groups.ts) run first.
    declareResource({ name: 'note', permissions: ['notes:read', 'notes:write'], audited: true });
    database = await createTestDatabase();
    app = await startTestApp({ DATABASE_URL: database.url }, EXTENSION);
  });
  afterAll(async () => {
    await app?.close();
    await database?.drop();
  });

  it('its migration runs once with the service’s, its entity works through forFeature and the audit lists it', async () => {
    expect({ rows: await migrationRows(app), table: await noteTableExists(app) }).toEqual({
      rows: 1,
      table: true,
    });
    const id = uid('note');
    const created = await app.post('/api/v1/ext/notes', { id, text: 'hello' }).expect(201);
    expect(created.body).toEqual(successBody({ id, text: 'hello' }));
    expect((await app.get('/api/v1/ext/notes').expect(200)).body).toEqual(
      successBody([{ id, text: 'hello' }]),
    );
    const audit = await app.get('/api/v1/audit?resource_type=note').expect(200);
    const records = (audit.body as { data: Array<Record<string, unknown>> }).data;
    expect(records.map((r) => [r.action, r.resource_type, r.resource_id, r.after])).toEqual([
      ['note.create', 'note', id, { id, text: 'hello' }],
    ]);
    const byAction = await app.get('/api/v1/audit?action=note.create').expect(200);
    expect((byAction.body as { data: unknown[] }).data).toEqual(records);
  });

  it('the OpenAPI document lists it among the audited types and actions', async () => {
    const doc = await openApiDocument<{
      paths: Record<string, { get: { parameters: Array<{ name: string; schema: { enum?: string[] } }> } }>;
      components: { schemas: Record<string, { properties: Record<string, { enum?: string[] }> }> };
    }>(app);
    const parameters = doc.paths['/api/v1/audit'].get.parameters;
    const types = auditedTypesWith('note');
    expect({
      query: parameters.find((p) => p.name === 'resource_type')?.schema.enum,
      actions: parameters.find((p) => p.name === 'action')?.schema.enum,
      record: doc.components.schemas.AuditEventResponse.properties.resource_type.enum,
    }).toEqual({
      query: types,
      // A sign-in is refused, never updated (docs/access.md#sessions-and-csrf).
      actions: types.flatMap((t) =>
        t === 'session'
          ? ['session.create', 'session.refuse', 'session.delete']
          : [`${t}.create`, `${t}.update`, `${t}.delete`],
      ),
      record: types,
    });
  });

  it('an API key may be given its permissions', async () => {
    const key = await createKey(app, { name: 'notes', permissions: ['notes:read'] });
    expect(key.permissions).toEqual(['notes:read']);
  });

  it('their write rolls back when a service write after it fails, and the reverse', async () => {
    const notes = (await app.get('/api/v1/ext/notes').expect(200)).body as unknown;
    const relayer = uid('rel');
    await app.post('/api/v1/relayers', relayerBody('evm', { id: relayer, name: 'kept' })).expect(201);
    for (const fail of ['service', 'theirs'] as const) {
      const id = uid(`note-${fail}`);
      const res = await app.post('/api/v1/ext/notes', { id, text: 'lost', fail });
      expectError(res, 500, 'Internal Server Error');
      expect((await app.get('/api/v1/ext/notes').expect(200)).body).toEqual(notes);
      const audit = await app.get(`/api/v1/audit?resource_type=note&resource_id=${id}`).expect(200);
      expect((audit.body as { data: unknown[] }).data).toEqual([]);
    }
    const kept = await app.get(`/api/v1/relayers/${relayer}`).expect(200);
    expect((kept.body as { data: { name: string } }).data.name).toBe('kept');
  });

  it('an undeclared resource type is still refused, the rule listing the declared ones', async () => {
    expectError(await app.get('/api/v1/audit?resource_type=memo'), 400, resourceTypeRule('note'));
  });

  it('the service’s features declare their resources the same way: every one of PERMISSIONS', () => {
    expect(
      declaredPermissions()
        .filter((p) => (PERMISSIONS as readonly string[]).includes(p))
        .sort(),
    ).toEqual([...PERMISSIONS].sort());
  });

  it('a resource name longer than the audit column is refused when declared', () => {
    expect(() => declareResource({ name: 'a_very_long_resource', audited: true })).toThrow(
      "resource 'a_very_long_resource' is audited: its name must be at most 16 characters",
    );
  });
});

(TEST_DB === 'mysql' ? describe : describe.skip)(
  'three instances started together on one fresh MySQL database',
  () => {
    let database: TestDatabase;
    let apps: TestApp[] = [];

    beforeAll(async () => {
      database = await createTestDatabase();
    });
    afterAll(async () => {
      await Promise.all(apps.map((a) => a.close()));
      await database?.drop();
    });

    it('each is ready, the extension’s migration is recorded exactly once, its table exists', async () => {
      apps = await Promise.all([1, 2, 3].map(() => startTestApp({ DATABASE_URL: database.url }, EXTENSION)));
      for (const instance of apps) await instance.get('/api/v1/ready', false).expect(200);
      expect({ rows: await migrationRows(apps[0]), table: await noteTableExists(apps[0]) }).toEqual({
        rows: 1,
        table: true,
      });
    });
  },
);
