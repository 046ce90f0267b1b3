import { DataSource } from 'typeorm';
import { as } from '../../support/as-key';
import { expectError, successBody } from '../../support/envelope';
import { openApiDocument } from '../../support/routes';
import { useTestApp } from '../../support/test-app';
import { TestNetworkNodes } from '../../support/test-network-nodes';
import {
  createKey,
  createRelayerFixtures,
  fixtureNames,
  relayersInEveryState,
  setBalanceAlert,
  type RelayerFixture,
} from '../../factories';

/**
 * docs/reference/relayers.md#36-the-status-of-each-item: with `include=status` each item of GET
 * /api/v1/relayers also has `status` and `balance_alert`, exactly what GET .../status and
 * GET .../balance-alert answer for it, in a number of statements that does not grow with the page.
 */

const FIXTURES = relayersInEveryState('i', 'j');
const INCLUDE_RULE = 'include must be one of: status';

/** What the checks read, in this order (base units); the others are never checked. */
const CHECKS: ReadonlyArray<[id: string, balance: bigint | 'failed']> = [
  ['i01', 2n ** 64n + 1n],
  ['i03', 2n ** 64n],
  ['i04', 9n],
  ['i06', 3n],
  ['i07', 'failed'],
  ['i08', 10n],
  ['j10', 500n],
];

describe('GET /api/v1/relayers?include=status', () => {
  const nodes = new TestNetworkNodes();
  beforeAll(() => nodes.start());
  afterAll(() => nodes.close());
  const handle = useTestApp();
  const app = () => handle.current;
  /** A key that sees only the relayers i01..i09 (not j10). */
  let scopedKey: string;

  beforeAll(async () => {
    await createRelayerFixtures(handle, FIXTURES, (f, i) => ({
      ...fixtureNames(f, i),
      custom_rpc_urls: nodes.rpcUrls(f.type, f.network),
    }));
    // Every kind of rule: a network's (evm:mainnet, stellar:mainnet), a relayer's own (i01), a
    // relayer's null that silences its network's (i06 on solana:devnet), none (sepolia's i02).
    await setBalanceAlert(app(), 'networks/evm:mainnet', '10');
    await setBalanceAlert(app(), 'networks/solana:devnet', '5');
    await setBalanceAlert(app(), 'networks/stellar:mainnet', '1000');
    await setBalanceAlert(app(), 'relayers/i01', '100');
    await setBalanceAlert(app(), 'relayers/i06', null);
    const fixture = (id: string) => FIXTURES.find((f) => f.id === id) as RelayerFixture;
    for (const [id, balance] of CHECKS) {
      const { type, network } = fixture(id);
      const { address } = (await app().get(`/api/v1/relayers/${id}`).expect(200)).body.data as {
        address: string;
      };
      if (balance === 'failed') nodes.setHttpStatus(type, network, 500);
      else nodes.setBalance(type, network, address, balance);
      await app().post(`/api/v1/relayers/${id}/check`).expect(200);
      nodes.setHttpStatus(type, network, null);
    }
    scopedKey = (await createKey(app(), { name: 'team i', relayer_ids: ['i0*'] })).key;
  });

  const answer = async (query: string, key = app().apiKey) => {
    const res = await as(app(), key).get(`/api/v1/relayers?${query}`);
    return { status: res.status, body: res.body as { data: Array<{ id: string }> } };
  };
  /** The relayer, its status and its balance alert, each as its own route answers it to `key`. */
  const oneByOne = async (id: string, key = app().apiKey) => {
    const read = async (path: string) => (await as(app(), key).get(path).expect(200)).body.data as unknown;
    return {
      ...((await read(`/api/v1/relayers/${id}`)) as object),
      status: await read(`/api/v1/relayers/${id}/status`),
      balance_alert: await read(`/api/v1/relayers/${id}/balance-alert`),
    };
  };
  /** The exact answer of `query` with include=status, built from the routes of each relayer it lists. */
  const expectIncluded = async (query: string, ids: string[], total: number, key = app().apiKey) => {
    const got = await answer(`${query}&include=status`, key);
    const params = new URLSearchParams(query);
    expect(got.body.data.map((r) => r.id)).toEqual(ids);
    expect(got).toEqual({
      status: 200,
      body: {
        ...successBody(await Promise.all(ids.map((id) => oneByOne(id, key)))),
        pagination: {
          current_page: Number(params.get('page') ?? 1),
          per_page: Number(params.get('per_page') ?? 10),
          total_items: total,
        },
      },
    });
  };

  it('each item: the relayer, its status and its balance alert, as their routes answer them', async () => {
    await expectIncluded(
      'per_page=10',
      FIXTURES.map((f) => f.id),
      10,
    );
  });

  it('what the fixtures hold: checked or not, a balance of every digit, each kind of rule, low or not', async () => {
    const got = await answer('include=status&per_page=10');
    const summary = Object.fromEntries(
      (
        got.body.data as unknown as Array<{
          id: string;
          status: { balance: string; checked_at: string | null; low_balance: boolean | null };
          balance_alert: unknown;
        }>
      ).map((r) => [
        r.id,
        [r.status.balance, r.status.checked_at !== null, r.status.low_balance, r.balance_alert],
      ]),
    );
    expect(summary).toEqual({
      i01: ['18446744073709551617', true, false, { threshold: '100', source: 'relayer' }],
      i02: ['0', false, null, { threshold: null, source: null }],
      i03: ['18446744073709551616', true, false, { threshold: '10', source: 'network' }],
      i04: ['9', true, true, { threshold: '10', source: 'network' }],
      i05: ['0', false, null, { threshold: '10', source: 'network' }],
      i06: ['3', true, null, { threshold: null, source: 'relayer' }],
      i07: ['0', true, null, { threshold: null, source: null }],
      i08: ['10', true, null, { threshold: null, source: null }],
      i09: ['0', false, null, { threshold: '1000', source: 'network' }],
      j10: ['500', true, true, { threshold: '1000', source: 'network' }],
    });
  });

  it.each([
    ['sort=-balance&per_page=3&page=2', ['i08', 'i04', 'i06'], 10],
    ['q=i0&sort=checked_at&per_page=4&page=2', ['i07', 'i08', 'i02', 'i05'], 9],
    ['state=low_balance', ['i04', 'j10'], 2],
    ['network_type=evm&sort=name', ['i04', 'i05', 'i01', 'i02', 'i03'], 5],
    ['per_page=4&page=3', ['i09', 'j10'], 10],
    ['q=nothing', [], 0],
  ])('with the filters, the search, the order and the pages: %s', async (query, ids, total) => {
    await expectIncluded(query, ids, total);
  });

  it('a scoped key: its relayers only, with what their routes answer to it', async () => {
    await expectIncluded(
      'per_page=10',
      ['i01', 'i02', 'i03', 'i04', 'i05', 'i06', 'i07', 'i08', 'i09'],
      9,
      scopedKey,
    );
    await expectIncluded('q=j10', [], 0, scopedKey);
  });

  it('without include, the items are the relayers alone', async () => {
    const got = await answer('per_page=10');
    expect(got.body.data.map((r) => Object.keys(r))).toEqual(
      FIXTURES.map(() => [
        'id',
        'name',
        'network',
        'network_type',
        'address',
        'signer_id',
        'notification_id',
        'paused',
        'system_disabled',
        'disabled_reason',
        'custom_rpc_urls',
        'policies',
        'created_at',
        'updated_at',
      ]),
    );
  });

  it('the same number of statements for a page of 1, 2 or 10 relayers', async () => {
    const dataSource = app().app.get(DataSource);
    const statements = jest.spyOn(dataSource.logger, 'logQuery');
    // Those of the list: not the webhook dispatcher's polls, which run beside it.
    const LIST_TABLES = /\b(relayers|relayer_checks|relayer_balance_alerts|network_balance_alerts)\b/;
    const count = async (query: string) => {
      statements.mockClear();
      const got = await answer(query);
      expect(got.status).toBe(200);
      const sql = statements.mock.calls.map(([text]) => text).filter((text) => LIST_TABLES.test(text));
      return { items: got.body.data.length, statements: sql.length };
    };
    try {
      const counted: Array<Record<'with' | 'without', { items: number; statements: number }>> = [];
      for (const perPage of [1, 2, 10]) {
        // A filter: the count is made on every request (a plain list's is cached for a second).
        counted.push({
          with: await count(`include=status&network_type=evm&per_page=${perPage}`),
          without: await count(`network_type=evm&per_page=${perPage}`),
        });
      }
      expect(counted.map((c) => c.with.items)).toEqual([1, 2, 5]);
      expect(counted.map((c) => c.with.statements)).toEqual([1, 2, 3].map(() => counted[0].with.statements));
      // The checks, the relayers again, their own rules, the networks' rules.
      expect(counted.map((c) => c.with.statements - c.without.statements)).toEqual([4, 4, 4]);
    } finally {
      statements.mockRestore();
    }
  });

  it.each([
    'include=bogus',
    'include=STATUS',
    'include=',
    'include=status,balance',
    'include=status&include=status',
  ])('?%s → 400 naming include and its values', async (query) => {
    expectError(await app().get(`/api/v1/relayers?${query}`), 400, INCLUDE_RULE);
  });

  it('the OpenAPI document: the parameters, and the optional fields of an item', async () => {
    const doc = await openApiDocument<{
      paths: Record<
        string,
        Record<
          string,
          {
            parameters: Array<{ name: string }>;
            responses: Record<string, { content: Record<string, { schema: unknown }> }>;
          }
        >
      >;
      components: { schemas: Record<string, { required?: string[]; properties: Record<string, unknown> }> };
    }>(app());
    const list = doc.paths['/api/v1/relayers'].get;
    expect(list.parameters.filter((p) => ['q', 'sort', 'include'].includes(p.name))).toEqual([
      {
        name: 'q',
        in: 'query',
        required: false,
        description:
          'Relayers whose name contains it, or whose id or address starts with it, case ignored; ' +
          '%, _ and \\ are matched as themselves; control characters (U+0000 to U+001F, U+007F) are refused',
        schema: { type: 'string', minLength: 1, maxLength: 255, example: 'payments' },
      },
      {
        name: 'sort',
        in: 'query',
        required: false,
        description:
          'The order of the list, ties by id; - before a field: descending. balance (numeric, in base units ' +
          'whatever the network) and checked_at come from the last check: relayers without one last, either way. ' +
          'Absent: creation time, then id',
        schema: {
          type: 'string',
          enum: [
            'id',
            '-id',
            'name',
            '-name',
            'created_at',
            '-created_at',
            'balance',
            '-balance',
            'checked_at',
            '-checked_at',
          ],
        },
      },
      {
        name: 'include',
        in: 'query',
        required: false,
        description:
          'status: each item also has status and balance_alert, as GET /api/v1/relayers/{relayer_id}/status and ' +
          '/balance-alert answer them',
        schema: { type: 'string', enum: ['status'] },
      },
    ]);
    expect(list.responses['200'].content['application/json'].schema).toEqual({
      type: 'object',
      properties: {
        success: { type: 'boolean', example: true },
        data: { type: 'array', items: { $ref: '#/components/schemas/RelayerListItemResponse' } },
        error: { type: ['string', 'null'], example: null },
        pagination: expect.any(Object) as unknown,
      },
    });
    const item = doc.components.schemas.RelayerListItemResponse;
    const relayer = doc.components.schemas.RelayerResponse;
    expect({ required: item.required, properties: item.properties }).toEqual({
      required: relayer.required,
      properties: {
        ...relayer.properties,
        status: {
          description: 'With include=status: what GET /api/v1/relayers/{relayer_id}/status answers',
          allOf: [{ $ref: '#/components/schemas/RelayerStatusResponse' }],
        },
        balance_alert: {
          description: 'With include=status: what GET /api/v1/relayers/{relayer_id}/balance-alert answers',
          allOf: [{ $ref: '#/components/schemas/BalanceAlertResponse' }],
        },
      },
    });
  });
});
