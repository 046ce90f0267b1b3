// The console's pure list logic (sortable headers, the answers kept for If-None-Match), run in Node by
// the jest project `unit`.
import { TagCache } from '../../console/src/api/tag-cache';
import { ariaSort, nextSort, parseSort, sortParam, type Sort } from '../../console/src/sorting';

const KEYS = ['name', 'created_at', 'balance', 'checked_at'] as const;
type Key = (typeof KEYS)[number];

describe('console sorting', () => {
  it.each<[string | null, Sort<Key> | undefined]>([
    ['name', { key: 'name', descending: false }],
    ['-balance', { key: 'balance', descending: true }],
    ['checked_at', { key: 'checked_at', descending: false }],
    [null, undefined],
    ['', undefined],
    ['-', undefined],
    ['id', undefined],
    ['--name', undefined],
    ['Name', undefined],
  ])('reads sort=%p as %p', (value, sort) => {
    expect(parseSort(value, KEYS)).toEqual(sort);
  });

  it('writes a sort as the API names it, and reads it back', () => {
    expect(sortParam<Key>({ key: 'created_at', descending: true })).toBe('-created_at');
    expect(sortParam<Key>({ key: 'name', descending: false })).toBe('name');
    for (const key of KEYS)
      for (const descending of [false, true])
        expect(parseSort(sortParam<Key>({ key, descending }), KEYS)).toEqual({ key, descending });
  });

  it('turns a column the other way when it sorts the table, else sorts by it ascending', () => {
    const byName: Sort<Key> = { key: 'name', descending: false };
    expect(nextSort(byName, 'name')).toEqual({ key: 'name', descending: true });
    expect(nextSort({ key: 'name', descending: true }, 'name')).toEqual(byName);
    expect(nextSort({ key: 'balance', descending: true }, 'name')).toEqual(byName);
  });

  it('gives aria-sort to the column that sorts the table only', () => {
    const current: Sort<Key> = { key: 'balance', descending: true };
    expect(KEYS.map((key) => ariaSort(current, key))).toEqual([
      undefined,
      undefined,
      'descending',
      undefined,
    ]);
    expect(ariaSort<Key>({ key: 'name', descending: false }, 'name')).toBe('ascending');
  });
});

describe('console answers kept for If-None-Match', () => {
  const answer = (etag: string) => ({
    etag,
    body: `{"tag":${etag}}`,
    headers: [['ETag', etag]] as [string, string][],
  });

  it('keeps an answer by key and URL: another key or another query never gets it', () => {
    const cache = new TagCache();
    cache.set('Bearer a', '/api/v1/relayers?page=1', answer('"1"'));
    expect(cache.get('Bearer a', '/api/v1/relayers?page=1')).toEqual(answer('"1"'));
    expect(cache.get('Bearer b', '/api/v1/relayers?page=1')).toBeUndefined();
    expect(cache.get(null, '/api/v1/relayers?page=1')).toBeUndefined();
    expect(cache.get('Bearer a', '/api/v1/relayers?page=2')).toBeUndefined();
    cache.set('Bearer a', '/api/v1/relayers?page=1', answer('"2"'));
    expect(cache.get('Bearer a', '/api/v1/relayers?page=1')).toEqual(answer('"2"'));
    expect(cache.size).toBe(1);
    cache.delete('Bearer a', '/api/v1/relayers?page=1');
    expect(cache.get('Bearer a', '/api/v1/relayers?page=1')).toBeUndefined();
  });

  it('drops the least recently used beyond its limit', () => {
    const cache = new TagCache(2);
    cache.set('k', 'a', answer('"a"'));
    cache.set('k', 'b', answer('"b"'));
    // Reading a makes b the least recently used.
    expect(cache.get('k', 'a')?.etag).toBe('"a"');
    cache.set('k', 'c', answer('"c"'));
    expect([cache.get('k', 'a')?.etag, cache.get('k', 'b'), cache.get('k', 'c')?.etag]).toEqual([
      '"a"',
      undefined,
      '"c"',
    ]);
    expect(cache.size).toBe(2);
    cache.clear();
    expect(cache.size).toBe(0);
  });
});
