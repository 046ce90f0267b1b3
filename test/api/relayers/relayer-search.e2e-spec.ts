import { as } from '../../support/as-key';
import { expectError, successBody } from '../../support/envelope';
import { useTestApp } from '../../support/test-app';
import {
  createKey,
  createRelayerFixtures,
  fixtureNames,
  FIXTURE_NAMES,
  relayerBody,
  relayersInEveryState,
} from '../../factories';

/**
 * docs/reference/relayers.md#33-filtering-the-list: `q` finds the relayers whose name contains it, or
 * whose id or address starts with it, case ignored, its characters taken literally; with every other
 * filter and within the key's relayer scope, counted in the query.
 */

const FIXTURES = relayersInEveryState('s', 't');
const SEARCH_RULE = 'q must be a string of 1 to 255 characters';
const CONTROL_RULE = 'q must not contain control characters (U+0000 to U+001F, U+007F)';

/** A text with the case of each letter swapped: `0xAb` is `0XaB`. */
const swapCase = (text: string): string =>
  [...text].map((c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase())).join('');

describe('GET /api/v1/relayers?q=', () => {
  const handle = useTestApp();
  const app = () => handle.current;
  /** Each fixture as GET /api/v1/relayers/{id} answers it. */
  const relayers = new Map<string, { id: string; name: string; address: string }>();
  /** A key that sees only the relayers s01..s09 (not t10). */
  let scopedKey: string;

  beforeAll(async () => {
    await createRelayerFixtures(handle, FIXTURES, fixtureNames);
    for (const f of FIXTURES) {
      relayers.set(f.id, (await app().get(`/api/v1/relayers/${f.id}`).expect(200)).body.data);
    }
    scopedKey = (await createKey(app(), { name: 'team s', relayer_ids: ['s0*'] })).key;
  });

  /** The whole answer of a page: its status and exact body, the relayers as read one by one. */
  const answer = async (query: string, key = app().apiKey) => {
    const res = await as(app(), key).get(`/api/v1/relayers?${query}`);
    return { status: res.status, body: res.body as unknown };
  };
  const page = (ids: string[], total = ids.length, perPage = 10, current = 1) => ({
    status: 200,
    body: {
      ...successBody(ids.map((id) => relayers.get(id))),
      pagination: { current_page: current, per_page: perPage, total_items: total },
    },
  });
  const q = (text: string) => `q=${encodeURIComponent(text)}`;

  it('the fixtures have the names of the search', () => {
    expect(FIXTURES.map((f) => relayers.get(f.id)?.name)).toEqual([...FIXTURE_NAMES]);
  });

  it.each([
    ['payments', ['s01', 's02']],
    ['PAYMENTS', ['s01', 's02']],
    ['ments e', ['s01']],
    ['alpha', ['s06', 's07']],
    ['ALPHA', ['s06', 's07']],
    [' reserve', ['s04', 's05']],
    ['ZETA', ['t10']],
  ])('a substring of the name, case ignored: q=%s', async (text, ids) => {
    expect(await answer(q(text))).toEqual(page(ids));
  });

  it.each([
    ['s0', ['s01', 's02', 's03', 's04', 's05', 's06', 's07', 's08', 's09']],
    ['S0', ['s01', 's02', 's03', 's04', 's05', 's06', 's07', 's08', 's09']],
    ['s07', ['s07']],
    ['T10', ['t10']],
  ])('a prefix of the id, case ignored: q=%s', async (text, ids) => {
    expect(await answer(q(text))).toEqual(page(ids));
  });

  it('the id only from its start: a part of it further in finds nothing', async () => {
    expect(await answer(q('01'))).toEqual(page([]));
    expect(await answer(q('10'))).toEqual(page([]));
  });

  it.each(['s03', 's06', 's08'])(
    "a prefix of the address in another case: %s's, whatever its network type",
    async (id) => {
      const address = relayers.get(id)?.address ?? '';
      expect(await answer(q(swapCase(address.slice(0, 10))))).toEqual(page([id]));
      expect(await answer(q(address))).toEqual(page([id]));
      // Not from further in.
      expect(await answer(q(address.slice(3, 13)))).toEqual(page([]));
    },
  );

  it.each([
    ['50%', ['s04'], '% is a wildcard of LIKE: ops 500 reserve would match'],
    ['%', ['s04'], 'every relayer would match'],
    ['_', ['s08'], 'every relayer would match'],
    ['r_s', ['s08'], 'both reserves would match too'],
    ['\\', ['s09'], "MySQL's default escape character"],
    ['k\\s', ['s09'], "an escape before a letter: 'back\\slash' as written"],
    ['!', ['t10'], 'the escape character the service uses'],
    ['!%', [], "an escaped % to LIKE if ! were not escaped: 'ops 50% reserve'"],
  ])('LIKE wildcards and escapes are literal: q=%s (%s)', async (text, ids) => {
    expect(await answer(q(text))).toEqual(page(ids));
  });

  it('no match: an empty page, counted 0', async () => {
    expect(await answer(q('nothing like this'))).toEqual(page([]));
    // Beyond ASCII: no id or address has such characters, names are searched all the same.
    expect(await answer(q('é'))).toEqual(page([]));
    expect(await answer(q('Ω✓'))).toEqual(page([]));
  });

  it.each([
    ['payments&state=paused', ['s02']],
    ['payments&state=enabled', ['s01']],
    ['ops&state=disabled', ['s04', 's05']],
    ['ops&paused=true', ['s05']],
    ['s0&network_type=solana', ['s06', 's07']],
    ['s0&network=mainnet', ['s03', 's04', 's05', 's09']],
    ['alpha&network_type=evm', []],
    ['s0&network_type=stellar&state=disabled', ['s08']],
  ])('combined with the filters (AND): q=%s', async (query, ids) => {
    expect(await answer(`q=${query}`)).toEqual(page(ids));
  });

  it('paged: each page complete, the total of the search on each', async () => {
    const all = ['s01', 's02', 's03', 's04', 's05', 's06', 's07', 's08', 's09'];
    for (let n = 1; n <= 4; n++) {
      expect(await answer(`q=s0&per_page=4&page=${n}`)).toEqual(
        page(all.slice((n - 1) * 4, n * 4), all.length, 4, n),
      );
    }
  });

  it('ordered: q with sort', async () => {
    expect(await answer('q=payments&sort=-name')).toEqual(page(['s02', 's01']));
    expect(await answer('q=s0&sort=-id&per_page=3')).toEqual(page(['s09', 's08', 's07'], 9, 3));
  });

  it('a scoped key finds only within its scope, and counts only those', async () => {
    expect(await answer(q('t10'), scopedKey)).toEqual(page([]));
    expect(await answer(q('zeta'), scopedKey)).toEqual(page([]));
    expect(await answer(q('alpha'), scopedKey)).toEqual(page(['s06', 's07']));
    expect(await answer('q=s&per_page=2&page=2', scopedKey)).toEqual(page(['s03', 's04'], 9, 2, 2));
    // What the administrator finds, t10 included.
    expect(await answer(q('a'))).toEqual(page(['s01', 's02', 's03', 's06', 's07', 's09', 't10']));
    expect(await answer(q('a'), scopedKey)).toEqual(page(['s01', 's02', 's03', 's06', 's07', 's09']));
  });

  it.each([
    ['q=', SEARCH_RULE],
    [`q=${'x'.repeat(256)}`, SEARCH_RULE],
    ['q=a&q=b', SEARCH_RULE],
    [
      'q=&state=bogus',
      `${SEARCH_RULE}; state must be one of: enabled, paused, disabled, low_balance, unchecked`,
    ],
    // SQLite would cut the pattern at a NUL and find every relayer, or those matching what precedes it.
    ['q=%00', CONTROL_RULE],
    ['q=payments%00xyz', CONTROL_RULE],
    ['q=a%09b', CONTROL_RULE],
    ['q=a%0Ab', CONTROL_RULE],
    ['q=%1F', CONTROL_RULE],
    ['q=a%7F', CONTROL_RULE],
    [
      'q=%00&state=bogus',
      `${CONTROL_RULE}; state must be one of: enabled, paused, disabled, low_balance, unchecked`,
    ],
  ])('?%s → 400 naming q', async (query, message) => {
    expectError(await app().get(`/api/v1/relayers?${query}`), 400, message);
  });

  it('case is ignored, accents are not', async () => {
    const created = await app().post('/api/v1/relayers', relayerBody('evm', { id: 'u11', name: 'Café Ω' }));
    relayers.set('u11', created.body.data);
    try {
      expect(await answer(q('CAFé'))).toEqual(page(['u11']));
      expect(await answer(q('é Ω'))).toEqual(page(['u11']));
      expect(await answer(q('cafe'))).toEqual(page([]));
    } finally {
      await app().delete('/api/v1/relayers/u11').expect(200);
    }
  });

  it('255 characters are a search', async () => {
    expect(await answer(q('x'.repeat(255)))).toEqual(page([]));
  });
});
