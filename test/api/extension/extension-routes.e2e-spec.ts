import {
  BadRequestException,
  ConflictException,
  Controller,
  Get,
  HttpCode,
  Module,
  NotFoundException,
  Param,
  Post,
} from '@nestjs/common';
import { ApiOkResponse, ApiProperty } from '@nestjs/swagger';
import { NotFoundError, PreconditionFailedError, Public, withStatus } from '../../../src';
import { ERROR_ENVELOPE_SCHEMA, expectError, successBody } from '../../support/envelope';
import { startTestApp, type TestApp } from '../../support/test-app';
import { createTestDatabase, type TestDatabase } from '../../support/test-database';
import { openApiDocument } from '../../support/routes';

class NoteDto {
  @ApiProperty()
  id!: string;

  @ApiProperty()
  text!: string;
}

/** An extension's own domain error, as the service declares its own. */
class NoteLockedError extends withStatus(423, 'Locked') {}

@Controller('ext/notes')
class NotesController {
  @Get('conflict')
  conflict(): never {
    throw new ConflictException('x');
  }

  @Post('check')
  @HttpCode(200)
  check(): never {
    throw new BadRequestException(['text must be a string', 'id must be a UUID', 'text must be a string']);
  }

  @Get('gone')
  gone(): never {
    throw new NotFoundError('note 7 is gone');
  }

  @Get('locked')
  locked(): never {
    throw new NoteLockedError('note 7 is locked');
  }

  @Get('stale')
  stale(): never {
    throw new PreconditionFailedError();
  }

  @Public()
  @Get('hello')
  hello(): string {
    return 'hello';
  }

  @Get(':id')
  @ApiOkResponse({ type: NoteDto })
  get(@Param('id') id: string): NoteDto {
    if (id !== '1') throw new NotFoundException('no such note');
    return { id, text: 'one' };
  }
}

@Module({ controllers: [NotesController] })
class NotesModule {}

// docs/reference/extension-events.md#18-routes-of-an-extension
describe("an extension's routes: their errors keep their words, the document shows the envelope", () => {
  let database: TestDatabase;
  let app: TestApp;

  beforeAll(async () => {
    database = await createTestDatabase();
    app = await startTestApp({ DATABASE_URL: database.url }, { imports: [NotesModule] });
  });
  afterAll(async () => {
    await app?.close();
    await database?.drop();
  });

  it('an HttpException answers its own status and message in the envelope', async () => {
    expect((await app.get('/api/v1/ext/notes/1').expect(200)).body).toEqual(
      successBody({ id: '1', text: 'one' }),
    );
    expectError(await app.get('/api/v1/ext/notes/2'), 404, 'no such note');
    expectError(await app.get('/api/v1/ext/notes/conflict'), 409, 'x');
  });

  it("a message array is answered as the service's own problems: sorted, de-duplicated, joined", async () => {
    expectError(
      await app.post('/api/v1/ext/notes/check', {}),
      400,
      'id must be a UUID; text must be a string',
    );
  });

  it("the service's error classes, and its own subclasses of DomainError, map as the service's own", async () => {
    expectError(await app.get('/api/v1/ext/notes/gone'), 404, 'note 7 is gone');
    expectError(await app.get('/api/v1/ext/notes/locked'), 423, 'note 7 is locked');
    expectError(await app.get('/api/v1/ext/notes/stale'), 412, 'Precondition Failed');
  });

  it("what the service answers before the route keeps the service's words", async () => {
    expectError(await app.get('/api/v1/ext/notes/1', false), 401, 'Unauthorized');
    expectError(await app.get('/api/v1/ext/nothing-here'), 404, 'Not Found');
    expectError(await app.get('/api/v1/ext/nothing-here', false), 401, 'Unauthorized');
    const unknownMethod = await app.delete('/api/v1/ext/notes/1');
    expectError(unknownMethod, 404, 'Not Found');
  });

  it('the OpenAPI document shows the envelope and the global error statuses on its routes', async () => {
    interface Operation {
      responses: Record<string, { description?: string; schema?: unknown; content?: unknown }>;
    }
    const doc = await openApiDocument<{
      paths: Record<string, Record<string, Operation>>;
      components: { schemas: Record<string, unknown> };
    }>(app);
    const errorEnvelope = { 'application/json': { schema: ERROR_ENVELOPE_SCHEMA } };
    const envelope = (data: unknown) => ({
      'application/json': {
        schema: {
          type: 'object',
          properties: {
            success: { type: 'boolean', example: true },
            data,
            error: { type: ['string', 'null'], example: null },
          },
        },
      },
    });
    const note = doc.paths['/api/v1/ext/notes/{id}'].get.responses;
    expect(Object.keys(note).sort()).toEqual(['200', '401', '403', '429', '500', '503']);
    expect(note['200'].content).toEqual(envelope({ $ref: '#/components/schemas/NoteDto' }));
    for (const status of ['401', '403', '429', '500', '503']) {
      expect({ status, content: note[status].content }).toEqual({ status, content: errorEnvelope });
    }
    expect(doc.components.schemas.NoteDto).toEqual({
      type: 'object',
      properties: { id: { type: 'string' }, text: { type: 'string' } },
      required: ['id', 'text'],
    });
    // A route that declares nothing: the envelope around any data, with its status (a POST also takes
    // an Idempotency-Key, whose 409 and 422 the document adds to every POST).
    const check = doc.paths['/api/v1/ext/notes/check'].post.responses;
    expect(Object.keys(check).sort()).toEqual(['200', '401', '403', '409', '422', '429', '500', '503']);
    expect(check['200'].content).toEqual(envelope({}));
    // A public route: no 401 nor 403.
    const hello = doc.paths['/api/v1/ext/notes/hello'].get.responses;
    expect(Object.keys(hello).sort()).toEqual(['200', '429', '500', '503']);
    expect(hello['200'].content).toEqual(envelope({}));
  });
});
