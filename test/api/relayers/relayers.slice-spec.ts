import type { ClassConstructor } from 'class-transformer';
import { Tagged } from '../../../src/common/http/tagged';
import { Page, PageQueryDto } from '../../../src/common/http/page.dto';
import type { BodyRules } from '../../../src/common/validation/dto-validation.pipe';
import { CreateRelayerDto, UpdateRelayerDto } from '../../../src/relayers/dto/relayer.dto';
import { RelayersController } from '../../../src/relayers/relayers.controller';
import { RelayersService } from '../../../src/relayers';
import { RelayerCreateRules, RelayerPatchRules } from '../../../src/relayers/relayers.validation';
import { relayerBody } from '../../factories';
import { controllerSlice, recordingStub, type Recorded, type Slice } from '../../support/controller-slice';
import { errorBody, expectError, successBody } from '../../support/envelope';

// RelayersController alone (docs/reference/relayers.md): what reaches RelayersService from each
// route and the DTO problems answered before it. The other checks of the validation stage (policies,
// catalogue, URL policy) and existence are the e2e tests' (relayers.e2e-spec.ts), each route's
// permission the route walk's (test/http/routes.e2e-spec.ts): here the rules stop at the DTO.

const ANSWER = { id: 'r-1', name: 'answered' };
const ETAG = '"1-abc"';

/** Rules of the validation stage that check the DTO and nothing more. */
const dtoOnly = <T extends object>(dto: ClassConstructor<T>): BodyRules<T, T> => ({
  dto,
  check: ({ value }) => ({ value, problems: [] }),
});

describe('RelayersController slice (no database)', () => {
  let slice: Slice;
  let service: RelayersService & Recorded;
  beforeAll(async () => {
    service = recordingStub<RelayersService>({
      create: () => new Tagged(ANSWER, ETAG),
      update: () => new Tagged(ANSWER, ETAG),
      getTagged: () => new Tagged(ANSWER, ETAG),
      list: (query: PageQueryDto) => new Page([ANSWER], query, 1),
      remove: () => 'Relayer deleted successfully',
    });
    slice = await controllerSlice(RelayersController, [
      { provide: RelayersService, useValue: service },
      { provide: RelayerCreateRules, useValue: dtoOnly(CreateRelayerDto) },
      { provide: RelayerPatchRules, useValue: dtoOnly(UpdateRelayerDto) },
    ]);
  });
  afterAll(() => slice.close());
  beforeEach(() => service.reset());

  describe('POST /api/v1/relayers', () => {
    it('hands the service the body as a CreateRelayerDto, dry_run false; answers 201 with the envelope and ETag', async () => {
      const body = relayerBody('evm', { name: 'slice', signer_id: 'key-one' });
      const res = await slice.post('/api/v1/relayers', body);
      expect({ status: res.status, etag: res.headers.etag, body: res.body as unknown }).toEqual({
        status: 201,
        etag: ETAG,
        body: successBody(ANSWER),
      });
      const [input, options] = service.only('create') as [CreateRelayerDto, { dryRun: boolean }];
      expect(input).toBeInstanceOf(CreateRelayerDto);
      expect({ ...input }).toEqual(body);
      expect(options).toEqual({ dryRun: false });
    });

    it.each([
      ['true', true],
      ['false', false],
    ])('dry_run=%s reaches the service as %s', async (flag, dryRun) => {
      await slice.post(`/api/v1/relayers?dry_run=${flag}`, relayerBody()).expect(201);
      expect(service.only('create')[1]).toEqual({ dryRun });
    });

    it('dry_run=yes → 400 before the service', async () => {
      expectError(
        await slice.post('/api/v1/relayers?dry_run=yes', relayerBody()),
        400,
        'dry_run must be true or false',
      );
      expect(service.calls).toEqual([]);
    });

    it.each([
      [
        'name of 256 characters',
        { name: 'n'.repeat(256) },
        ['name must be 1 to 255 characters, not only whitespace'],
      ],
      ['bad id', { id: 'a b' }, ["id must be 1 to 36 characters of letters, digits, '-' or '_'"]],
      [
        'unknown network type',
        { network_type: 'bitcoin' },
        ['network_type must be one of: evm, solana, stellar'],
      ],
      ['paused as a string', { paused: 'false' }, ['paused must be true or false']],
      [
        'missing signer',
        { signer_id: undefined },
        ["signer_id must be 1 to 36 characters of letters, digits, '-' or '_'"],
      ],
      ['address in the body', { address: '0xabc' }, ['address is not an allowed field']],
      ['policies not an object', { policies: [1] }, ['policies must be an object']],
      [
        'rpc weight 101',
        { custom_rpc_urls: [{ url: 'https://rpc.example.com', weight: 101 }] },
        ['custom_rpc_urls[0].weight must be a whole number from 0 to 100'],
      ],
      [
        'two problems at once',
        { paused: 'no', system_disabled: true },
        ['paused must be true or false', 'system_disabled is not an allowed field'],
      ],
    ])('%s: the 400 names the problems, before the service', async (_case, fields, problems) => {
      const res = await slice.post('/api/v1/relayers', relayerBody('evm', fields));
      expectError(res, 400, [...problems].sort().join('; '));
      expect(service.calls).toEqual([]);
    });

    it('a body that is not a JSON object → 400 before the service', async () => {
      const res = await slice.post('/api/v1/relayers').set('Content-Type', 'application/json').send('[1]');
      expect(res.status).toBe(400);
      expect(res.body).toEqual(errorBody(res.body.message as string));
      expect(service.calls).toEqual([]);
    });
  });

  describe('PATCH /api/v1/relayers/{id}', () => {
    it('hands the service the id and an UpdateRelayerDto holding only the fields sent (null kept apart from absent)', async () => {
      const res = await slice.patch('/api/v1/relayers/r-1', { name: 'renamed', notification_id: null });
      expect({ status: res.status, body: res.body as unknown }).toEqual({
        status: 200,
        body: successBody(ANSWER),
      });
      const [id, input, options] = service.only('update') as [
        string,
        UpdateRelayerDto,
        { ifMatch: unknown; dryRun: boolean },
      ];
      expect(input).toBeInstanceOf(UpdateRelayerDto);
      expect({ id, value: { ...input }, options }).toEqual({
        id: 'r-1',
        value: { name: 'renamed', notification_id: null },
        options: { ifMatch: null, dryRun: false },
      });
    });

    it.each([
      [{ paused: null }, 'paused must be true or false'],
      [{ id: 'new-id' }, 'id is not an allowed field'],
      [{ network: 'mainnet' }, 'network is not an allowed field'],
      [{ network_type: 'solana' }, 'network_type is not an allowed field'],
      [{ signer_id: 'key-one' }, 'signer_id is not an allowed field'],
    ])('refuses %j with a 400 naming the field', async (patch, message) => {
      expectError(await slice.patch('/api/v1/relayers/r-1', patch), 400, message);
    });
  });

  describe('ids and the pagination query', () => {
    it('an id the rules refuse → 404 naming it, before the service', async () => {
      expectError(
        await slice.get(`/api/v1/relayers/${'a'.repeat(37)}`),
        404,
        `Relayer with ID ${'a'.repeat(37)} not found`,
      );
      expect(service.calls).toEqual([]);
    });

    it('page and per_page reach the service as a PageQueryDto; the envelope carries the pagination', async () => {
      const res = await slice.get('/api/v1/relayers?page=2&per_page=5').expect(200);
      expect(res.body).toEqual({
        ...successBody([ANSWER]),
        pagination: { current_page: 2, per_page: 5, total_items: 1 },
      });
      const [query] = service.only('list') as [PageQueryDto];
      expect(query).toBeInstanceOf(PageQueryDto);
      expect({ page: query.page, per_page: query.per_page }).toEqual({ page: 2, per_page: 5 });
    });

    it('no query: page 1 of 10', async () => {
      await slice.get('/api/v1/relayers').expect(200);
      const [query] = service.only('list') as [PageQueryDto];
      expect({ page: query.page, per_page: query.per_page }).toEqual({ page: 1, per_page: 10 });
    });

    it.each([
      ['page=0', 'page must be a whole number of at least 1'],
      ['page=abc', 'page must be a whole number of at least 1'],
      ['page=1.5', 'page must be a whole number of at least 1'],
      ['per_page=0', 'per_page must be a whole number from 1 to 100'],
      ['per_page=101', 'per_page must be a whole number from 1 to 100'],
      ['per_page=1e2', 'per_page must be a whole number from 1 to 100'],
      ['order=name', 'order is not an allowed field'],
    ])('?%s → 400 before the service', async (query, message) => {
      expectError(await slice.get(`/api/v1/relayers?${query}`), 400, message);
      expect(service.calls).toEqual([]);
    });
  });
});
