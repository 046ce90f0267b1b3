import { setTimeout as sleep } from 'node:timers/promises';
import { as } from '../../support/as-key';
import { expectError, successBody } from '../../support/envelope';
import { useTestApp } from '../../support/test-app';
import { TestNetworkNodes } from '../../support/test-network-nodes';
import {
  createKey,
  createRelayerFixtures,
  fixtureNames,
  relayersInEveryState,
  type RelayerFixture,
} from '../../factories';

/**
 * docs/reference/relayers.md#35-ordering-the-list: `sort` orders GET /api/v1/relayers by id, name,
 * creation time, balance or last check, `-` for descending, ties by id; balances as numbers of any
 * size, and relayers without a balance read (or never checked) last either way. The balances are
 * written by the health checks themselves, each relayer checked against a local node of its network.
 */

const FIXTURES = relayersInEveryState('s', 't');
const SORT_RULE =
  'sort must be one of: id, -id, name, -name, created_at, -created_at, balance, -balance, checked_at, -checked_at';

/**
 * What each check reads, in base units of its network (wei, lamports, stroops), in the order the checks
 * run: `failed` when its node answers 500 (a check that read no balance). s05 and s09 are never checked.
 */
const CHECKS: ReadonlyArray<[id: string, balance: bigint | 'failed']> = [
  ['s08', 10n],
  ['s01', 2n ** 64n + 1n],
  ['t10', 9n],
  ['s03', 2n ** 64n],
  ['s07', 'failed'],
  ['s06', 2n ** 64n - 1n],
  ['s02', 10n ** 21n],
  ['s04', 9n],
];

/** 9, 9 (a tie: s04 before t10), 10 (after 9, as a number), then past 2^64, then 10^21; none read: s05, s07, s09. */
const BY_BALANCE = ['s04', 't10', 's08', 's06', 's03', 's01', 's02', 's05', 's07', 's09'];
const BY_BALANCE_DESC = ['s02', 's01', 's03', 's06', 's08', 't10', 's04', 's09', 's07', 's05'];
/** The order of the checks (s07's failed, but ran); never checked: s05, s09. */
const BY_CHECK = ['s08', 's01', 't10', 's03', 's07', 's06', 's02', 's04', 's05', 's09'];
const BY_CHECK_DESC = ['s04', 's02', 's06', 's07', 's03', 't10', 's01', 's08', 's09', 's05'];
/** FIXTURE_NAMES with case ignored: Alpha and alpha tie (by id), `%` before `0`. */
const BY_NAME = ['s06', 's07', 's09', 's04', 's05', 's01', 's02', 's03', 's08', 't10'];
const IDS = FIXTURES.map((f) => f.id);
const reversed = (ids: readonly string[]) => [...ids].reverse();

describe('GET /api/v1/relayers?sort=', () => {
  const nodes = new TestNetworkNodes();
  beforeAll(() => nodes.start());
  afterAll(() => nodes.close());
  const handle = useTestApp();
  const app = () => handle.current;
  /** Each fixture as GET /api/v1/relayers/{id} answers it once checked. */
  const relayers = new Map<string, unknown>();
  /** A key that sees only the relayers s01..s09 (not t10). */
  let scopedKey: string;

  beforeAll(async () => {
    await createRelayerFixtures(handle, FIXTURES, (f, i) => ({
      ...fixtureNames(f, i),
      custom_rpc_urls: nodes.rpcUrls(f.type, f.network),
    }));
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
      // Checks a few milliseconds apart: each its own checked_at.
      await sleep(5);
    }
    for (const id of IDS) relayers.set(id, (await app().get(`/api/v1/relayers/${id}`).expect(200)).body.data);
    scopedKey = (await createKey(app(), { name: 'team s', relayer_ids: ['s0*'] })).key;
  });

  const answer = async (query: string, key = app().apiKey) => {
    const res = await as(app(), key).get(`/api/v1/relayers?${query}`);
    return { status: res.status, body: res.body as unknown };
  };
  /** The exact answer of a page: the relayers as read one by one, and the pagination. */
  const page = (ids: readonly string[], total = ids.length, perPage = 10, current = 1) => ({
    status: 200,
    body: {
      ...successBody(ids.map((id) => relayers.get(id))),
      pagination: { current_page: current, per_page: perPage, total_items: total },
    },
  });

  it('the checks wrote what the nodes answered: balances of every digit, or none where the check failed', async () => {
    const statuses: Record<string, unknown> = {};
    for (const id of ['s01', 's02', 's05', 's06', 's07', 't10']) {
      const status = (await app().get(`/api/v1/relayers/${id}/status`).expect(200)).body.data as {
        balance: string;
        checked_at: string | null;
      };
      statuses[id] = { balance: status.balance, checked: status.checked_at !== null };
    }
    expect(statuses).toEqual({
      s01: { balance: '18446744073709551617', checked: true },
      s02: { balance: '1000000000000000000000', checked: true },
      // Never checked, and checked without a balance read: the status says 0 for both (relayer health).
      s05: { balance: '0', checked: false },
      s06: { balance: '18446744073709551615', checked: true },
      s07: { balance: '0', checked: true },
      t10: { balance: '9', checked: true },
    });
  });

  it.each([
    ['id', IDS],
    ['-id', reversed(IDS)],
    ['created_at', IDS],
    ['-created_at', reversed(IDS)],
    ['name', BY_NAME],
    ['-name', reversed(BY_NAME)],
    ['balance', BY_BALANCE],
    ['-balance', BY_BALANCE_DESC],
    ['checked_at', BY_CHECK],
    ['-checked_at', BY_CHECK_DESC],
  ])('sort=%s', async (sort, ids) => {
    expect(await answer(`sort=${sort}`)).toEqual(page(ids));
  });

  it('without sort: creation time, then id, as before', async () => {
    expect(await answer('')).toEqual(page(IDS));
    expect(await answer('per_page=4&page=2')).toEqual(page(IDS.slice(4, 8), 10, 4, 2));
  });

  // A page past the middle of an unfiltered list is read from the other end (docs/reference/relayers.md#37-what-a-page-costs).
  it.each([
    'balance',
    '-balance',
    'checked_at',
    '-checked_at',
    'name',
    '-id',
    'id',
    '-name',
    'created_at',
    '-created_at',
    '',
  ])(
    'sort=%s in pages of 1 to 10: each page complete, in order, the total on each, past the end empty',
    async (sort) => {
      const all = (await answer(sort ? `sort=${sort}` : '')).body as { data: Array<{ id: string }> };
      const order = all.data.map((r) => r.id);
      for (const perPage of [1, 2, 3, 4, 7, 10]) {
        const pages = Math.ceil(order.length / perPage);
        for (let n = 1; n <= pages + 1; n++) {
          expect(await answer(`${sort ? `sort=${sort}&` : ''}per_page=${perPage}&page=${n}`)).toEqual(
            page(order.slice((n - 1) * perPage, n * perPage), order.length, perPage, n),
          );
        }
      }
    },
  );

  it.each([
    ['network_type=evm&sort=balance', ['s04', 's03', 's01', 's02', 's05']],
    ['network_type=evm&sort=-balance', ['s02', 's01', 's03', 's04', 's05']],
    ['paused=true&sort=-checked_at', ['s02', 's07', 't10', 's05']],
    ['network=mainnet&sort=-name', ['t10', 's03', 's05', 's04', 's09']],
    ['q=s0&sort=-balance', ['s02', 's01', 's03', 's06', 's08', 's04', 's09', 's07', 's05']],
    ['q=s0&sort=checked_at&per_page=3&page=3', ['s04', 's05', 's09'], 9, 3, 3],
    ['state=unchecked&sort=balance', ['s05', 's09']],
  ] as Array<[string, string[], number?, number?, number?]>)(
    'with the filters and the search: %s',
    async (query, ids, total = ids.length, perPage = 10, current = 1) => {
      expect(await answer(query)).toEqual(page(ids, total, perPage, current));
    },
  );

  it('a scoped key: only the relayers of its scope, in the same order, counted', async () => {
    const inScope = (ids: readonly string[]) => ids.filter((id) => id !== 't10');
    expect(await answer('sort=balance', scopedKey)).toEqual(page(inScope(BY_BALANCE)));
    expect(await answer('sort=-checked_at', scopedKey)).toEqual(page(inScope(BY_CHECK_DESC)));
    expect(await answer('sort=-name', scopedKey)).toEqual(page(inScope(reversed(BY_NAME))));
    // After the six with a balance (s04 s08 s06 s03 s01 s02), those without: s05 s07 s09.
    expect(await answer('sort=balance&per_page=4&page=2', scopedKey)).toEqual(
      page(['s01', 's02', 's05', 's07'], 9, 4, 2),
    );
    expect(await answer('sort=balance&per_page=4&page=3', scopedKey)).toEqual(page(['s09'], 9, 4, 3));
    expect(await answer('sort=balance&per_page=4&page=4', scopedKey)).toEqual(page([], 9, 4, 4));
    expect(await answer('sort=balance&per_page=7&page=2', scopedKey)).toEqual(page(['s07', 's09'], 9, 7, 2));
  });

  it.each([
    'sort=bogus',
    'sort=NAME',
    'sort=%2Bname',
    'sort=--name',
    'sort=name,id',
    'sort=',
    'sort=name&sort=id',
    'sort=status',
  ])('?%s → 400 naming sort and its values', async (query) => {
    expectError(await app().get(`/api/v1/relayers?${query}`), 400, SORT_RULE);
  });
});
