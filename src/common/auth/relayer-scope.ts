import { RequestContext } from '../http/request-context';

/** At most this many entries in one key's `relayer_ids`. */
export const MAX_RELAYER_SCOPE_ENTRIES = 100;
/** A relayer id (RESOURCE_ID_PATTERN), or 1 to 35 of its characters followed by `*`. */
export const RELAYER_SCOPE_ENTRY = /^(?:[A-Za-z0-9_-]{1,36}|[A-Za-z0-9_-]{1,35}\*)$/;
export const RELAYER_SCOPE_RULE =
  "must be a relayer id (1 to 36 characters of letters, digits, '-' or '_') or a prefix of 1 to 35 such characters ending in '*'";

/**
 * The 400 of a create without `id` by a scoped key: a generated id would fall outside its scope.
 * `kind` is the resource in the plural (`relayers`).
 */
export const idRequiredInScope = (kind: string): string =>
  `id is required: this API key may create only ${kind} of its relayer_ids, so it must name one`;

/** A condition on an id column, for a WHERE clause: `sql` has one placeholder per parameter, in order. */
export interface ScopeCondition {
  readonly sql: string;
  readonly parameters: readonly string[];
}

/**
 * What a key may see (docs/reference/keys-and-audit.md#3-relayer-scope): exact ids and prefixes
 * (`team-a-*`), compared byte for byte on every database. Its key's `relayer_ids` name a team's
 * relayers, signers and notification targets alike (a team names its resources with its prefix; a
 * shared one is listed by its exact id). The principal of a request carries it; the repositories and
 * services that read each of those resources (and the audit records and deliveries about relayers)
 * filter by `RelayerScope.current()`, so that no route can forget it. Null stands for every id.
 */
export class RelayerScope {
  private readonly ids: ReadonlySet<string>;
  private readonly prefixes: readonly string[];

  private constructor(readonly entries: readonly string[]) {
    this.ids = new Set(entries.filter((entry) => !entry.endsWith('*')));
    this.prefixes = entries.filter((entry) => entry.endsWith('*')).map((entry) => entry.slice(0, -1));
  }

  /** Null for no list (every id). */
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

  /** Whether the current request's key may see the relayer, signer or target `id` (true without a scope). */
  static admits(id: string): boolean {
    return RelayerScope.current()?.covers(id) ?? true;
  }

  /**
   * The current request's scope as ` AND <condition>` on `column`, to append to a WHERE clause, or
   * `''` and no parameters without one (see `condition`).
   */
  static filter(
    column: string,
    bytewise?: (expression: string) => string,
    placeholder?: (index: number) => string,
  ): ScopeCondition {
    const scope = RelayerScope.current();
    if (scope === null) return { sql: '', parameters: [] };
    const { sql, parameters } = scope.condition(column, bytewise, placeholder);
    return { sql: ` AND ${sql}`, parameters };
  }

  covers(id: string): boolean {
    return this.ids.has(id) || this.prefixes.some((prefix) => id.startsWith(prefix));
  }

  /** Every id `inner` can see, this one can (null: every id, only within null). */
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
   * where the column's collation does not (DatabaseDialect); an id column compares exactly as it
   * stands (1797600000000-ExactIds) and needs none. No LIKE: SQLite's ignores case, and `_` is one
   * of its wildcards; a prefix is compared as the column's leading characters.
   */
  condition(
    column: string,
    bytewise: (expression: string) => string = (expression) => expression,
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
