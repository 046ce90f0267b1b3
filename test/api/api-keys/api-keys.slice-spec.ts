import { ApiKeysController } from '../../../src/api-keys/api-keys.controller';
import { ApiKeysService } from '../../../src/api-keys/api-keys.service';
import { ApiKeyCreateRules } from '../../../src/api-keys/api-keys.validation';
import { CreateApiKeyDto } from '../../../src/api-keys/dto/api-key.dto';
import { ADMIN, type Principal } from '../../../src/common/auth/principal';
import { permissionsRule } from '../../support/declared';
import { Page, type PageQueryDto } from '../../../src/common/http/page.dto';
import {
  controllerSlice,
  keyHolding,
  recordingStub,
  type Recorded,
  type Slice,
} from '../../support/controller-slice';
import { expectError, successBody } from '../../support/envelope';

// ApiKeysController alone (docs/reference/keys-and-audit.md): the create body is refused by the
// global validation pipe before the service; the service is handed the caller with the body. The
// subset rule (a key grants only what it holds) is the service's: api-keys.e2e-spec.ts.

const CREATED = { id: 'k-1', name: 'deploy', permissions: ['relayers:read'], key: 'rk_secret' };

describe('ApiKeysController slice (no database)', () => {
  let slice: Slice;
  let service: ApiKeysService & Recorded;
  beforeAll(async () => {
    service = recordingStub<ApiKeysService>({
      create: () => CREATED,
      list: (query: PageQueryDto) => new Page([], query, 0),
      get: () => CREATED,
      permissions: () => ['relayers:read'],
      revoke: () => 'API key revoked',
    });
    slice = await controllerSlice(ApiKeysController, [
      { provide: ApiKeysService, useValue: service },
      ApiKeyCreateRules,
    ]);
  });
  afterAll(() => slice.close());
  beforeEach(() => service.reset());

  it('POST: the service is handed a CreateApiKeyDto and the caller; 201 with the envelope', async () => {
    const res = await slice.post('/api/v1/api-keys', { name: 'deploy', permissions: ['relayers:read'] });
    expect({ status: res.status, body: res.body as unknown }).toEqual({
      status: 201,
      body: successBody(CREATED),
    });
    const [body, caller] = service.only('create') as [CreateApiKeyDto, Principal];
    expect(body).toBeInstanceOf(CreateApiKeyDto);
    expect({ body: { ...body }, caller }).toEqual({
      body: { name: 'deploy', permissions: ['relayers:read'] },
      caller: ADMIN,
    });
  });

  it('POST by a managed key: the service is handed that key as the caller', async () => {
    await slice
      .post(
        '/api/v1/api-keys',
        { name: 'sub', permissions: ['relayers:read'] },
        keyHolding('api_keys:manage', 'relayers:read'),
      )
      .expect(201);
    const [, caller] = service.only('create') as [CreateApiKeyDto, Principal];
    expect(caller).toEqual({
      type: 'api_key',
      id: 'slice-key',
      name: 'slice key',
      permissions: ['api_keys:manage', 'relayers:read'],
    });
  });

  it.each([
    [{ permissions: ['relayers:read'] }, 'name must be 1 to 255 characters, not only whitespace'],
    [{ name: '  ', permissions: ['relayers:read'] }, 'name must be 1 to 255 characters, not only whitespace'],
    [{ name: 'x', permissions: [] }, permissionsRule],
    [{ name: 'x', permissions: ['relayers:admin'] }, permissionsRule],
    [
      { name: 'x', permissions: ['*'], expires_at: '2030-01-01' },
      'expires_at must be an RFC 3339 date and time in the future',
    ],
    [
      { name: 'x', permissions: ['*'], expires_at: 12345 },
      'expires_at must be an RFC 3339 date and time in the future',
    ],
    [{ name: 'x', permissions: ['*'], key: 'rk_mine' }, 'key is not an allowed field'],
  ])('POST %j → 400 naming the problem, the service never called', async (body, message) => {
    expectError(
      await slice.post('/api/v1/api-keys', body),
      400,
      typeof message === 'function' ? message() : message,
    );
    expect(service.calls).toEqual([]);
  });

  it('an id the rules refuse → 404 before the service', async () => {
    expectError(await slice.get(`/api/v1/api-keys/${'k'.repeat(37)}`), 404, 'API key not found');
    expect(service.calls).toEqual([]);
  });
});
