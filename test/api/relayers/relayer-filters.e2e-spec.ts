import { expectError, successBody } from '../../support/envelope';
import { useTestApp } from '../../support/test-app';
import { createKey, createRelayerFixtures, relayersInEveryState } from '../../factories';
import { as } from '../../support/as-key';
import { openApiDocument } from '../../support/routes';

/**
 * docs/reference/relayers.md#33-filtering-the-list: network_type, network, state and paused narrow
 * GET /api/v1/relayers in the query, all of them together and with the key's relayer scope; the
 * count is of the filtered list.
 */

/** Ids in creation order, so that the list's order (creation time, then id) is theirs. */
const FIXTURES = relayersInEveryState('f', 'g');

const NETWORK_TYPE_RULE = 'network_type must be one of: evm, solana, stellar';
const STATE_RULE = 'state must be one of: enabled, paused, disabled, low_balance, unchecked';
const NETWORK_RULE = 'network must be a string of 1 to 100 characters';
const PAUSED_RULE = 'paused must be one of: true, false';

describe('GET /api/v1/relayers filtered by network_type, network and state', () => {
  const handle = useTestApp();
  const app = () => handle.current;
  /** A key that sees only the relayers f01..f09 (not g10). */
  let scopedKey: string;

  beforeAll(async () => {
    await createRelayerFixtures(handle, FIXTURES);
    scopedKey = (await createKey(app(), { name: 'team f', relayer_ids: ['f0*'] })).key;
  });

  const ids = (body: { data: Array<{ id: string }> }) => body.data.map((r) => r.id);

  /** The ids and the pagination of one page. */
  const page = async (query: string, token?: string) => {
    const res = token
      ? await as(app(), token).get(`/api/v1/relayers?${query}`)
      : await app().get(`/api/v1/relayers?${query}`);
    expect({ query, status: res.status }).toEqual({ query, status: 200 });
    return { ids: ids(res.body), pagination: res.body.pagination as unknown };
  };

  const pagination = (total: number, perPage = 10, current = 1) => ({
    current_page: current,
    per_page: perPage,
    total_items: total,
  });

  it.each([
    ['network_type=evm', ['f01', 'f02', 'f03', 'f04', 'f05']],
    ['network_type=solana', ['f06', 'f07']],
    ['network_type=stellar', ['f08', 'f09', 'g10']],
    ['network=mainnet', ['f03', 'f04', 'f05', 'f09', 'g10']],
    ['network=sepolia', ['f01', 'f02']],
    ['network=mainnet-beta', ['f07']],
    ['state=enabled', ['f01', 'f03', 'f06', 'f09']],
    ['state=paused', ['f02', 'f07', 'g10']],
    ['state=disabled', ['f04', 'f05', 'f08']],
    ['paused=true', ['f02', 'f05', 'f07', 'g10']],
    ['paused=false', ['f01', 'f03', 'f04', 'f06', 'f08', 'f09']],
  ])('one filter: ?%s', async (query, expected) => {
    expect(await page(query)).toEqual({ ids: expected, pagination: pagination(expected.length) });
  });

  it.each([
    ['network=MAINNET', 'another case'],
    ['network=Mainnet', 'another case'],
    ['network=mainnet%20', 'a trailing space (MySQL pads comparisons of text)'],
    ['network=mainne', 'a prefix'],
    ['network=main%25', 'a LIKE pattern'],
    ['network=mainnet_beta', '`_`, a LIKE wildcard'],
  ])('network is matched byte for byte: ?%s (%s) finds nothing', async (query) => {
    expect(await page(query)).toEqual({ ids: [], pagination: pagination(0) });
  });

  it.each([
    ['network_type=evm&network=mainnet', ['f03', 'f04', 'f05']],
    ['network_type=stellar&network=mainnet', ['f09', 'g10']],
    ['network_type=evm&state=enabled', ['f01', 'f03']],
    ['network=mainnet&state=disabled', ['f04', 'f05']],
    ['network_type=solana&network=sepolia', []],
    ['network_type=evm&network=sepolia&state=paused', ['f02']],
    ['state=paused&network_type=evm&network=mainnet', []],
    ['network_type=evm&paused=true', ['f02', 'f05']],
    ['state=disabled&paused=true', ['f05']],
    ['state=disabled&paused=false', ['f04', 'f08']],
    ['state=enabled&paused=true', []],
  ])('filters combined with AND: ?%s', async (query, expected) => {
    expect(await page(query)).toEqual({ ids: expected, pagination: pagination(expected.length) });
  });

  it('a filtered page is the relayers as read one by one, in the envelope', async () => {
    const res = await app().get('/api/v1/relayers?network_type=stellar&network=mainnet&state=paused');
    const g10 = (await app().get('/api/v1/relayers/g10').expect(200)).body.data as unknown;
    expect({ status: res.status, body: res.body as unknown }).toEqual({
      status: 200,
      body: { ...successBody([g10]), pagination: pagination(1) },
    });
    const f04 = (await app().get('/api/v1/relayers/f04').expect(200)).body.data as Record<string, unknown>;
    expect(f04).toMatchObject({
      paused: false,
      system_disabled: true,
      disabled_reason: { type: 'NonceSyncFailed', details: 'nonce gap' },
    });
  });

  it.each([1, 2, 3])(
    'pages of %i: complete, in order, the filtered total on each, past the end empty',
    async (perPage) => {
      const expected = ['f03', 'f04', 'f05', 'f09', 'g10'];
      const pages = Math.ceil(expected.length / perPage);
      const seen: string[] = [];
      for (let n = 1; n <= pages + 1; n++) {
        const got = await page(`network=mainnet&per_page=${perPage}&page=${n}`);
        expect(got.pagination).toEqual(pagination(expected.length, perPage, n));
        expect(got.ids).toEqual(expected.slice((n - 1) * perPage, n * perPage));
        seen.push(...got.ids);
      }
      expect(seen).toEqual(expected);
    },
  );

  it('with a scoped key: the filters apply within its scope, counts included', async () => {
    expect(await page('', scopedKey)).toEqual({
      ids: ['f01', 'f02', 'f03', 'f04', 'f05', 'f06', 'f07', 'f08', 'f09'],
      pagination: pagination(9),
    });
    expect(await page('state=paused', scopedKey)).toEqual({ ids: ['f02', 'f07'], pagination: pagination(2) });
    expect(await page('network_type=stellar&network=mainnet', scopedKey)).toEqual({
      ids: ['f09'],
      pagination: pagination(1),
    });
    expect(await page('network_type=stellar&state=paused', scopedKey)).toEqual({
      ids: [],
      pagination: pagination(0),
    });
    expect(await page('network=mainnet&per_page=2&page=2', scopedKey)).toEqual({
      ids: ['f05', 'f09'],
      pagination: pagination(4, 2, 2),
    });
  });

  it.each([
    ['network_type=EVM', NETWORK_TYPE_RULE],
    ['network_type=bitcoin', NETWORK_TYPE_RULE],
    ['network_type=', NETWORK_TYPE_RULE],
    ['network_type=evm&network_type=solana', NETWORK_TYPE_RULE],
    ['state=active', STATE_RULE],
    ['state=ENABLED', STATE_RULE],
    ['state=', STATE_RULE],
    ['state=paused&state=enabled', STATE_RULE],
    ['network=', NETWORK_RULE],
    [`network=${'n'.repeat(101)}`, NETWORK_RULE],
    ['network=a&network=b', NETWORK_RULE],
    ['paused=yes', PAUSED_RULE],
    ['paused=TRUE', PAUSED_RULE],
    ['paused=1', PAUSED_RULE],
    ['paused=', PAUSED_RULE],
    ['paused=true&paused=false', PAUSED_RULE],
    [
      'network_type=x&state=y&per_page=0',
      `${NETWORK_TYPE_RULE}; per_page must be a whole number from 1 to 100; ${STATE_RULE}`,
    ],
    ['network_type=evm&order=name', 'order is not an allowed field'],
    ['filter=name', 'filter is not an allowed field'],
  ])('?%s → 400 naming the parameter and its allowed values', async (query, message) => {
    expectError(await app().get(`/api/v1/relayers?${query}`), 400, message);
  });

  it('a key without relayers:read: 403, whatever the filters', async () => {
    const writer = (await createKey(app(), { name: 'writer', permissions: ['relayers:write'] })).key;
    expectError(await as(app(), writer).get('/api/v1/relayers?state=enabled'), 403, 'Forbidden');
  });

  it('the OpenAPI document lists the filters with their values', async () => {
    const doc = await openApiDocument<{
      paths: Record<string, Record<string, { parameters: Array<{ name: string; in: string }> }>>;
    }>(app());
    const parameters = doc.paths['/api/v1/relayers'].get.parameters;
    expect(parameters.map((p) => `${p.in} ${p.name}`)).toEqual([
      'query page',
      'query per_page',
      'query network_type',
      'query network',
      'query state',
      'query paused',
      // docs/reference/relayers.md#33-filtering-the-list and on (test/api/relayers/relayer-include-status.e2e-spec.ts).
      'query q',
      'query sort',
      'query include',
      // Every list's conditional GET (docs/reference/pagination.md#16-etag-and-304).
      'header If-None-Match',
    ]);
    expect(parameters.filter((p) => ['network_type', 'network', 'state', 'paused'].includes(p.name))).toEqual(
      [
        {
          name: 'network_type',
          in: 'query',
          required: false,
          schema: { type: 'string', enum: ['evm', 'solana', 'stellar'] },
        },
        {
          name: 'network',
          in: 'query',
          required: false,
          description: 'A network name, matched exactly (case included)',
          schema: { type: 'string', maxLength: 100, example: 'sepolia' },
        },
        {
          name: 'state',
          in: 'query',
          required: false,
          description:
            'enabled: neither paused nor disabled by the system; paused: paused, not disabled by the system; ' +
            'disabled: disabled by the system (system_disabled), paused or not; low_balance: its status says ' +
            'low_balance: true; unchecked: never checked (its status says checked_at: null)',
          schema: { type: 'string', enum: ['enabled', 'paused', 'disabled', 'low_balance', 'unchecked'] },
        },
        {
          name: 'paused',
          in: 'query',
          required: false,
          description: 'true: paused, disabled by the system or not; false: not paused',
          schema: { type: 'string', enum: ['true', 'false'] },
        },
      ],
    );
  });
});
