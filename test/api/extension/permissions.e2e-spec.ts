import { createKey } from '../../factories';
import { Controller, Get, HttpCode, Module } from '@nestjs/common';
import { RequirePermission, UndeclaredPermissionError } from '../../../src';
import { grantsWith, permissionsRule } from '../../support/declared';
import { expectError, successBody } from '../../support/envelope';
import { startTestApp, type TestApp } from '../../support/test-app';
import { createTestDatabase, type TestDatabase } from '../../support/test-database';
import { openApiDocument } from '../../support/routes';

@Controller('ext')
class PingController {
  @Get('ping')
  @HttpCode(200)
  @RequirePermission('ext:ping')
  ping(): { pong: true } {
    return { pong: true };
  }
}

@Module({ controllers: [PingController] })
class PingModule {}

@Controller('ext')
class PongController {
  @Get('pong')
  @HttpCode(200)
  @RequirePermission('ext:pong')
  pong(): { ping: true } {
    return { ping: true };
  }
}

@Module({ controllers: [PongController] })
class PongModule {}

// docs/reference/extension-events.md#16-permissions-of-added-modules
describe('permissions an extension declares with createApp(config, { permissions })', () => {
  let database: TestDatabase;
  let app: TestApp;

  beforeAll(async () => {
    database = await createTestDatabase();
    app = await startTestApp(
      { DATABASE_URL: database.url },
      { imports: [PingModule], permissions: ['ext:ping'] },
    );
  });
  afterAll(async () => {
    await app?.close();
    await database?.drop();
  });

  it('an API key may be given one; it opens the route that requires it, and no other', async () => {
    const key = await createKey(app, { name: 'pinger', permissions: ['ext:ping'] });
    expect(key.permissions).toEqual(['ext:ping']);
    const asKey = (path: string) => app.get(path, false).set('Authorization', `Bearer ${key.key}`);
    expect((await asKey('/api/v1/ext/ping').expect(200)).body).toEqual(successBody({ pong: true }));
    expectError(await asKey('/api/v1/relayers'), 403, 'Forbidden');
    expectError(await app.get('/api/v1/ext/ping', false), 401, 'Unauthorized');
  });

  it('an undeclared one is refused as before, the rule listing the declared ones', async () => {
    expectError(
      await app.post('/api/v1/api-keys', { name: 'x', permissions: ['ext:pong'] }),
      400,
      permissionsRule('ext:ping'),
    );
  });

  it('the OpenAPI document lists it among the grants and on the route', async () => {
    const doc = await openApiDocument<{
      paths: Record<string, Record<string, { 'x-required-permission'?: string }>>;
      components: {
        schemas: Record<string, { properties: Record<string, { items?: { enum?: string[] } }> }>;
      };
    }>(app);
    expect({
      route: doc.paths['/api/v1/ext/ping'].get['x-required-permission'],
      grants: doc.components.schemas.CreateApiKeyDto.properties.permissions.items?.enum,
    }).toEqual({ route: 'ext:ping', grants: grantsWith('ext:ping') });
  });

  it('a route requiring a permission nothing declares stops the start, naming the route and the permission', async () => {
    await expect(startTestApp({ DATABASE_URL: database.url }, { imports: [PongModule] })).rejects.toThrow(
      new UndeclaredPermissionError('PongController.pong', 'ext:pong'),
    );
  });
});
