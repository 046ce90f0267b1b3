import { RequestContext } from '../http/request-context';

/** At most this many entries in one key's `relayer_ids`. */
export const MAX_RELAYER_SCOPE_ENTRIES = 100;
/** A relayer id (RESOURCE_ID_PATTERN), or 1 to 35 of its characters followed by `*`. */
export const RELAYER_SCOPE_ENTRY = /^(?:[A-Za-z0-9_-]{1,36}|[A-Za-z0-9_-]{1,35}\*)$/;
export const RELAYER_SCOPE_RULE =
  "must be a relayer id (1 to 36 characters of letters, digits, '-' or '_') or a prefix of 1 to 35 such characters ending in '*'";

/** A condition on an id column, for a WHERE clause: `sql` has one placeholder per parameter, in order. */
export interface ScopeCondition {
  readonly sql: string;
  readonly parameters: readonly string[];
}

/**
 * The relayers a key may see (docs/reference/keys-and-audit.md#3-relayer-scope): exact ids and
 * prefixes (`team-a-*`), compared byte for byte on every database. The principal of a request
 * carries it; the repositories that read relayers, their audit records and their deliveries filter by
 * `RelayerScope.current()`, so that no route can forget it. Null stands for every relayer.
 */
export class RelayerScope {
  private readonly ids: ReadonlySet<string>;
  private readonly prefixes: readonly string[];

  private constructor(readonly entries: readonly string[]) {
    this.ids = new Set(entries.filter((entry) => !entry.endsWith('*')));
    this.prefixes = entries.filter((entry) => entry.endsWith('*')).map((entry) => entry.slice(0, -1));
  }

  /** Null for no list (every relayer). */
  static of(entries: readonly string[] | null | undefined): RelayerScope | null {
    return entries ? new RelayerScope(entries) : null;
  }

  /**
   * The scope of the current request's principal; null outside a request, for the administrator and
   * for a key without `relayer_ids`.
   */
  static current(): RelayerScope | null {
    return RelayerScope.of(RequestContext.current()?.principal?.relayerIds);
  }

  covers(id: string): boolean {
    return this.ids.has(id) || this.prefixes.some((prefix) => id.startsWith(prefix));
  }

  /** Every relayer `inner` can see, this one can (null: every relayer, only within null). */
  static contains(outer: RelayerScope | null, inner: RelayerScope | null): boolean {
    if (outer === null) return true;
    if (inner === null) return false;
    return inner.entries.every((entry) =>
      entry.endsWith('*')
        ? outer.prefixes.some((prefix) => entry.slice(0, -1).startsWith(prefix))
        : outer.covers(entry),
    );
  }

  /**
   * `column` (an id, possibly null) within the scope. `bytewise` makes a comparison byte for byte
   * (DatabaseDialect: MySQL's default collation ignores case). No LIKE: SQLite's ignores case, and
   * `_` is one of its wildcards; a prefix is compared as the column's leading characters.
   */
  condition(
    column: string,
    bytewise: (expression: string) => string,
    placeholder: (index: number) => string = () => '?',
  ): ScopeCondition {
    const parts: string[] = [];
    const parameters: string[] = [];
    const next = (value: string): string => placeholder(parameters.push(value) - 1);
    if (this.ids.size > 0) {
      parts.push(`${bytewise(column)} IN (${[...this.ids].map(next).join(', ')})`);
    }
    for (const prefix of this.prefixes) {
      // The length is an integer of a validated entry: no parameter needed.
      parts.push(`${bytewise(`SUBSTR(${column}, 1, ${prefix.length})`)} = ${next(prefix)}`);
    }
    return { sql: `(${column} IS NOT NULL AND (${parts.join(' OR ')}))`, parameters };
  }
}
