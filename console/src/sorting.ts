// The order of a table whose column headers sort it, as the API's `sort` parameter says it
// (`name`, `-name`: descending). No import: test/console/sorting.spec.ts runs it in Node.

export interface Sort<K extends string> {
  key: K;
  descending: boolean;
}

/** A `sort` value of the address (`-balance`) as a sort of one of `keys`; undefined for anything else. */
export function parseSort<K extends string>(value: string | null, keys: readonly K[]): Sort<K> | undefined {
  if (value === null) return undefined;
  const descending = value.startsWith('-');
  const key = keys.find((k) => k === (descending ? value.slice(1) : value));
  return key === undefined ? undefined : { key, descending };
}

/** A sort as the API's `sort` parameter: `name`, `-name`. */
export function sortParam<K extends string>(sort: Sort<K>): `${K}` | `-${K}` {
  return sort.descending ? `-${sort.key}` : `${sort.key}`;
}

/** What a click on the header of `key` asks: the other way when the table is sorted by it, else ascending. */
export function nextSort<K extends string>(current: Sort<K>, key: K): Sort<K> {
  return current.key === key ? { key, descending: !current.descending } : { key, descending: false };
}

/** The header's aria-sort: only the column the table is sorted by has one. */
export function ariaSort<K extends string>(current: Sort<K>, key: K): 'ascending' | 'descending' | undefined {
  if (current.key !== key) return undefined;
  return current.descending ? 'descending' : 'ascending';
}
