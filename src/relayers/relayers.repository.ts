import { Injectable } from '@nestjs/common';
import type { NetworkType } from '../catalogue';
import { RelayerScope, type ScopeCondition } from '../common/auth/relayer-scope';
import { isForeignKeyViolation, isUniqueViolation } from '../common/errors/database-errors';
import type { DatabaseDialect } from '../database/dialects/database-dialect';
import { EntityRepository } from '../database/entity-rows';
import type { ReadTx } from '../database/transactions';
import { RELAYER_STATES, type RelayerSortKey, type RelayerState } from './dto/relayer.dto';
import { RelayerEntity } from './relayer.entity';

/** What a list may be narrowed to (docs/reference/relayers.md#33-filtering-the-list); absent: any. */
export interface RelayerFilter {
  readonly networkType?: NetworkType;
  readonly network?: string;
  readonly state?: RelayerState;
  /** The `paused` flag alone, whatever `system_disabled` is. */
  readonly paused?: boolean;
  /** A search: in the name, or at the start of the id or the address (docs/reference/relayers.md#33-filtering-the-list). */
  readonly q?: string;
}

/** The order of a list (docs/reference/relayers.md#35-ordering-the-list): a field, then the id, one direction. */
export interface RelayerOrder {
  readonly key: RelayerSortKey;
  readonly descending: boolean;
}

/** Without `sort`: creation time, then id (docs/reference/pagination.md#13-a-stable-order). */
const CREATION_ORDER: RelayerOrder = { key: 'created_at', descending: false };

/**
 * Every relayer's name, id, address and creation time, ordered by name (1797800000000-AddRelayerListIndexes):
 * a search reads it whole, never the table (a substring can be found only by reading every name).
 */
const SEARCH_INDEX = 'idx_relayers_search';

/**
 * The orders by the last check read a column of `relayer_checks`, NULL where there is nothing to order
 * by (no balance read, never checked): its index gives those with a value in order, then those
 * without by id. `balance_order` is the balance as text that sorts as the number does (src/relayer-health).
 */
const CHECK_COLUMN: Readonly<Partial<Record<RelayerSortKey, string>>> = {
  balance: 'balance_order',
  checked_at: 'checked_at',
};

/** The characters of an id (RESOURCE_ID_PATTERN) and of an address (hex, base58, base32): a search with another starts neither. */
const ID_CHARACTERS = /^[A-Za-z0-9_-]{1,36}$/;
const ADDRESS_CHARACTERS = /^[A-Za-z0-9]{1,128}$/;

/**
 * `q` in the name (LIKE, its wildcards and the escape character `!` escaped), or at the start of the id
 * or the address (their first characters compared: no wildcard at all), each side LOWERed: case is
 * ignored (by SQLite for A to Z only), accents are not. The name is compared byte for byte, or MySQL's
 * default collations would find `é` for `e`.
 */
function searchCondition(q: string, dialect: DatabaseDialect): ScopeCondition {
  const parts = [`${dialect.bytewise('LOWER(relayers.name)')} LIKE LOWER(?) ESCAPE '!'`];
  const parameters = [`%${q.replace(/[!%_]/g, (character) => `!${character}`)}%`];
  // The length is that of a validated string: an integer, no parameter needed.
  if (ID_CHARACTERS.test(q)) {
    parts.push(`LOWER(SUBSTR(relayers.id, 1, ${q.length})) = ?`);
    parameters.push(q.toLowerCase());
  }
  if (ADDRESS_CHARACTERS.test(q)) {
    parts.push(`LOWER(SUBSTR(relayers.address, 1, ${q.length})) = ?`);
    parameters.push(q.toLowerCase());
  }
  return { sql: `(${parts.join(' OR ')})`, parameters };
}

/**
 * Each state of the list's filter and of the summary as a condition on a row of `relayers`. Literals,
 * not parameters: SQLite's driver takes no booleans, and both databases store them as 0 and 1.
 * `low_balance` is what GET .../status says low_balance: true of (docs/reference/balance-alerts.md#5-status):
 * the last check found the balance below the threshold, and a threshold applies now, the relayer's own
 * rule (which may be null) else its network's, whose rules are keyed by the network's id in lower case.
 */
const STATE_CONDITION: Readonly<Record<RelayerState, string>> = {
  enabled: 'paused = 0 AND system_disabled = 0',
  paused: 'paused = 1 AND system_disabled = 0',
  disabled: 'system_disabled = 1',
  low_balance:
    'EXISTS (SELECT 1 FROM relayer_checks c LEFT JOIN relayer_balance_alerts ra ON ra.relayer_id = c.relayer_id ' +
    'WHERE c.relayer_id = relayers.id AND c.checked_at IS NOT NULL AND c.balance_low = 1 AND (CASE WHEN ' +
    'ra.relayer_id IS NOT NULL THEN ra.threshold ELSE (SELECT na.threshold FROM network_balance_alerts na ' +
    "WHERE na.network_id = LOWER(CONCAT(relayers.network_type, ':', relayers.network))) END) IS NOT NULL)",
  unchecked:
    'NOT EXISTS (SELECT 1 FROM relayer_checks c WHERE c.relayer_id = relayers.id AND c.checked_at IS NOT NULL)',
};

/** How many of the relayers a key may see are in each state (GET /api/v1/relayers/summary). */
export interface RelayerCounts {
  readonly total: number;
  readonly enabled: number;
  readonly paused: number;
  readonly disabled: number;
  readonly lowBalance: number;
  readonly unchecked: number;
}

/** Ids bound in one statement: far below SQLite's limit on parameters. */
const IDS_PER_STATEMENT = 500;

/** The `paused` flag alone, whatever `system_disabled` is (the list's `paused=true`). */
const PAUSED_CONDITION = 'paused = 1';

const count = (condition: string): string => `COALESCE(SUM(CASE WHEN ${condition} THEN 1 ELSE 0 END), 0)`;

export type RelayerChanges = Pick<
  RelayerEntity,
  'name' | 'paused' | 'notificationId' | 'customRpcUrls' | 'policies' | 'updatedAt'
>;

/**
 * Every read of relayers a request can reach goes through here, and sees only the relayers of the
 * request's key (docs/reference/keys-and-audit.md#3-relayer-scope): one outside its scope is missing to
 * it, in lists (filtered in the query, counts included) as for one id. Writes follow ResourceWrites'
 * read of the row, so they never reach one either; an insert outside the scope is refused.
 */
@Injectable()
export class RelayersRepository extends EntityRepository(RelayerEntity) {
  protected override readonly scopeColumn = 'id';
  /** Every column of `relayers`, of the alias `r` (pageColumns). */
  #pageColumns: string | undefined;

  /** Whether any relayer has `id`, whatever the request's scope: which unique key refused an insert. */
  async idTaken(id: string, { manager }: ReadTx): Promise<boolean> {
    const rows = await manager.query<unknown[]>('SELECT 1 AS found FROM relayers WHERE id = ?', [id]);
    return rows.length > 0;
  }

  /**
   * The relayers of `ids` that exist, whatever the request's scope: for the events of relayers a
   * change reached without naming them (a network's balance alert). Never an answer of a route.
   */
  async findAnyByIds(ids: readonly string[], tx: ReadTx): Promise<RelayerEntity[]> {
    const found: RelayerEntity[] = [];
    for (let start = 0; start < ids.length; start += IDS_PER_STATEMENT) {
      const chunk = ids.slice(start, start + IDS_PER_STATEMENT);
      found.push(
        ...(await this.select(
          `SELECT ${this.columns} FROM ${this.table} WHERE id IN (${chunk.map(() => '?').join(', ')})`,
          chunk,
          tx,
        )),
      );
    }
    return found;
  }

  /**
   * Filtered (the request's scope and `filter`, all of them), in `order`, and counted in the query: every
   * page complete. Without a search, the page's ids are found on the order's index (a deep page skips
   * index entries, not rows), then its rows are read by id in the same statement.
   */
  override async findPage(
    offset: number,
    limit: number,
    filter: RelayerFilter = {},
    order: RelayerOrder = CREATION_ORDER,
  ): Promise<{ items: RelayerEntity[]; total: number }> {
    const conditions = this.filtered(filter);
    if (filter.q !== undefined) return this.searchPage(order, offset, limit, conditions);
    const checkColumn = CHECK_COLUMN[order.key];
    if (checkColumn === undefined && conditions.sql === '' && this.scoped().sql === '') {
      // The count is the cached one: a page past the middle is read from the other end, so that the
      // last page skips as few index entries as the first (docs/reference/relayers.md#37-what-a-page-costs).
      const total = await this.count();
      const fromEnd = offset > (total - limit) / 2 && offset < total;
      const items = fromEnd
        ? await this.pageByColumn(
            order,
            total - offset - Math.min(limit, total - offset),
            Math.min(limit, total - offset),
            conditions,
            true,
          )
        : await this.pageByColumn(order, offset, limit, conditions);
      return { items, total };
    }
    const [items, total] = await Promise.all([
      checkColumn === undefined
        ? this.pageByColumn(order, offset, limit, conditions)
        : this.pageByCheck(checkColumn, order.descending, offset, limit, conditions),
      this.countWhere(conditions),
    ]);
    return { items, total };
  }

  /** Without a filter or a scope, the row count cached for a second (EntityRows.count). */
  private async countWhere(conditions: ScopeCondition, from = ''): Promise<number> {
    const scope = this.scoped();
    if (conditions.sql === '' && scope.sql === '') return this.count();
    const rows = await this.repository.query<Array<{ n: number | string }>>(
      `SELECT COUNT(*) AS n FROM relayers${from} WHERE 1 = 1${conditions.sql}${scope.sql}`,
      [...conditions.parameters, ...scope.parameters],
    );
    return Number(rows[0].n);
  }

  /**
   * A search (`conditions` hold it): no index finds a part of a name, so every name, id and address is
   * read from SEARCH_INDEX (never the table), and what matched is ordered and counted in the same
   * statement (a window over the matches), in `order`: by the last check's value, those without one
   * last (`k IS NULL` sorts false first either way). A page past the end has no row to carry the count:
   * counted then, unless it is the first (nothing matched).
   */
  private async searchPage(
    { key, descending }: RelayerOrder,
    offset: number,
    limit: number,
    conditions: ScopeCondition,
  ): Promise<{ items: RelayerEntity[]; total: number }> {
    const direction = descending ? ' DESC' : '';
    const checkColumn = CHECK_COLUMN[key];
    const value = checkColumn === undefined ? `relayers.${key}` : `rc.${checkColumn}`;
    const checks =
      checkColumn === undefined ? '' : ' LEFT JOIN relayer_checks rc ON rc.relayer_id = relayers.id';
    const orderBy = (k: string, id: string): string =>
      [
        ...(checkColumn === undefined ? [] : [`${k} IS NULL`]),
        ...(key === 'id' ? [] : [`${key === 'name' ? this.dialect.caseless(k) : k}${direction}`]),
        `${id}${direction}`,
      ].join(', ');
    const scope = this.scoped();
    const from = this.dialect.throughIndex(SEARCH_INDEX);
    const rows = await this.repository.query<Array<Record<string, unknown>>>(
      `SELECT ${this.pageColumns()}, page.total AS page_total FROM (` +
        `SELECT relayers.id AS id, ${value} AS k, COUNT(*) OVER () AS total FROM relayers${from}${checks} ` +
        `WHERE 1 = 1${conditions.sql}${scope.sql} ORDER BY ${orderBy(value, 'relayers.id')} LIMIT ? OFFSET ?` +
        `) page JOIN relayers r ON r.id = page.id ORDER BY ${orderBy('page.k', 'page.id')}`,
      [...conditions.parameters, ...scope.parameters, limit, offset],
    );
    if (rows.length > 0) {
      return { items: rows.map((row) => this.hydrate(row)), total: Number(rows[0].page_total) };
    }
    return { items: [], total: offset === 0 ? 0 : await this.countWhere(conditions, from) };
  }

  /**
   * Ordered by a column of `relayers`, then the id: the index of that order gives the page (SEARCH_INDEX
   * for a name). `fromEnd`: `offset` counts from the other end (the index read the other way), and the
   * page's rows are then put in `order`.
   */
  private pageByColumn(
    { key, descending }: RelayerOrder,
    offset: number,
    limit: number,
    conditions: ScopeCondition,
    fromEnd = false,
  ): Promise<RelayerEntity[]> {
    const scope = this.scoped();
    const orderBy = (value: string, id: string, reverse: boolean): string => {
      const direction = descending !== reverse ? ' DESC' : '';
      return key === 'id'
        ? `${id}${direction}`
        : `${key === 'name' ? this.dialect.caseless(value) : value}${direction}, ${id}${direction}`;
    };
    return this.rowsOf(
      `SELECT relayers.id AS id, relayers.${key} AS k FROM relayers WHERE 1 = 1${conditions.sql}${scope.sql} ` +
        `ORDER BY ${orderBy(`relayers.${key}`, 'relayers.id', fromEnd)} LIMIT ? OFFSET ?`,
      [...conditions.parameters, ...scope.parameters, limit, offset],
      orderBy('page.k', 'page.id', false),
    );
  }

  /**
   * Ordered by the last check's `column` (CHECK_COLUMN), then the id; those without a value last, by id,
   * in either direction. Each part is a range of the column's index: the page is read from the first part,
   * and past its end from the second, whose offset is what the first part holds (counted only when
   * this page does not show where it ends). Every relayer has its check row, written with it
   * (RelayerHealthScheduler.onCreated), and by the migration that made the table for those before.
   */
  private async pageByCheck(
    column: string,
    descending: boolean,
    offset: number,
    limit: number,
    conditions: ScopeCondition,
  ): Promise<RelayerEntity[]> {
    const direction = descending ? ' DESC' : '';
    // Only a filter needs the relayers' columns; the scope is on the check's relayer_id.
    const checks =
      conditions.sql === ''
        ? 'relayer_checks rc'
        : 'relayer_checks rc JOIN relayers ON relayers.id = rc.relayer_id';
    const scope = RelayerScope.filter('rc.relayer_id');
    const where = (known: boolean): string =>
      `WHERE rc.${column} IS ${known ? 'NOT ' : ''}NULL${conditions.sql}${scope.sql}`;
    const parameters = [...conditions.parameters, ...scope.parameters];
    const part = (known: boolean, partOffset: number, partLimit: number): Promise<RelayerEntity[]> =>
      this.rowsOf(
        known
          ? `SELECT rc.relayer_id AS id, rc.${column} AS k FROM ${checks} ${where(true)} ` +
              `ORDER BY rc.${column}${direction}, rc.relayer_id${direction} LIMIT ? OFFSET ?`
          : `SELECT rc.relayer_id AS id FROM ${checks} ${where(false)} ORDER BY rc.relayer_id${direction} LIMIT ? OFFSET ?`,
        [...parameters, partLimit, partOffset],
        known ? `page.k${direction}, page.id${direction}` : `page.id${direction}`,
      );
    const valued = await part(true, offset, limit);
    if (valued.length === limit) return valued;
    let valuedTotal = offset + valued.length;
    if (valued.length === 0 && offset > 0) {
      const rows = await this.repository.query<Array<{ n: number | string }>>(
        `SELECT COUNT(*) AS n FROM ${checks} ${where(true)}`,
        parameters,
      );
      valuedTotal = Number(rows[0].n);
    }
    const rest = await part(false, offset + valued.length - valuedTotal, limit - valued.length);
    return [...valued, ...rest];
  }

  /** The rows of the ids `idsSql` selects (as `id`, with their order's key as `k`), in `order` over `page`. */
  private rowsOf(idsSql: string, parameters: unknown[], order: string): Promise<RelayerEntity[]> {
    return this.select(
      `SELECT ${this.pageColumns()} FROM (${idsSql}) page JOIN relayers r ON r.id = page.id ORDER BY ${order}`,
      parameters,
    );
  }

  /** Every column of `relayers`, of the alias `r`. */
  private pageColumns(): string {
    this.#pageColumns ??= this.repository.metadata.columns
      .map((column) => `r.${this.repository.manager.connection.driver.escape(column.databaseName)}`)
      .join(', ');
    return this.#pageColumns;
  }

  /** The relayers of the request's scope counted by each state of the list's filter, in one statement. */
  async countByState(tx?: ReadTx): Promise<RelayerCounts> {
    const scope = this.scoped();
    // Paused as `paused=true` finds them, disabled by the system or not (docs/reference/relayers.md#34-the-summary).
    const counts = RELAYER_STATES.map(
      (state) => `${count(state === 'paused' ? PAUSED_CONDITION : STATE_CONDITION[state])} AS ${state}`,
    );
    const [row] = await this.managerOf(tx).query<Array<Record<string, number | string>>>(
      `SELECT COUNT(*) AS total, ${counts.join(', ')} FROM relayers WHERE 1 = 1${scope.sql}`,
      [...scope.parameters],
    );
    return {
      total: Number(row.total),
      enabled: Number(row.enabled),
      paused: Number(row.paused),
      disabled: Number(row.disabled),
      lowBalance: Number(row.low_balance),
      unchecked: Number(row.unchecked),
    };
  }

  /** `filter` as conditions to append to a WHERE clause; '' for none. */
  private filtered(filter: RelayerFilter): ScopeCondition {
    const parts: string[] = [];
    const parameters: string[] = [];
    if (filter.networkType !== undefined) {
      parts.push('network_type = ?');
      parameters.push(filter.networkType);
    }
    if (filter.network !== undefined) {
      // The plain comparison can use an index; the bytewise one keeps trailing spaces, which MySQL's
      // binary collations ignore (docs/reference/relayers.md#33-filtering-the-list).
      parts.push(`network = ? AND ${this.dialect.bytewise('network')} = ?`);
      parameters.push(filter.network, filter.network);
    }
    if (filter.state !== undefined) parts.push(STATE_CONDITION[filter.state]);
    if (filter.paused !== undefined) parts.push(filter.paused ? PAUSED_CONDITION : 'paused = 0');
    if (filter.q !== undefined) {
      const search = searchCondition(filter.q, this.dialect);
      parts.push(search.sql);
      parameters.push(...search.parameters);
    }
    return { sql: parts.map((part) => ` AND ${part}`).join(''), parameters };
  }

  async findIdBySignerOnNetwork(
    networkType: NetworkType,
    network: string,
    signerId: string,
    tx?: ReadTx,
  ): Promise<string | null> {
    const rows = await this.managerOf(tx).query<Array<{ id: string }>>(
      'SELECT id FROM relayers WHERE network_type = ? AND network = ? AND signer_id = ?',
      [networkType, network, signerId],
    );
    return rows[0]?.id ?? null;
  }

  /**
   * The relayers that reference a notification or signer, as the request's key may see them (the
   * others are counted by countOutsideScope); by signer, on MySQL a locking read: no relayer using it
   * can be inserted until the transaction ends.
   */
  async findIdsBy(
    column: 'notification_id' | 'signer_id',
    id: string,
    limit: number,
    tx?: ReadTx,
  ): Promise<string[]> {
    const lock = column === 'signer_id' ? this.dialect.lockingRead('share') : '';
    const scope = this.scoped();
    const rows = await this.managerOf(tx).query<Array<{ id: string }>>(
      `SELECT id FROM relayers WHERE ${column} = ?${scope.sql} ORDER BY id LIMIT ?${lock}`,
      [id, ...scope.parameters, limit],
    );
    return rows.map((row) => row.id);
  }

  /**
   * How many relayers that reference a notification or signer lie outside the request's scope: a
   * 409 counts them without naming them (docs/reference/keys-and-audit.md#3-relayer-scope); 0 without
   * a scope, and no query.
   */
  async countOutsideScope(column: 'notification_id' | 'signer_id', id: string, tx?: ReadTx): Promise<number> {
    const scope = RelayerScope.current();
    if (scope === null) return 0;
    const inside = scope.condition('id');
    const rows = await this.managerOf(tx).query<Array<{ n: number | string }>>(
      `SELECT COUNT(*) AS n FROM relayers WHERE ${column} = ? AND NOT ${inside.sql}`,
      [id, ...inside.parameters],
    );
    return Number(rows[0]?.n ?? 0);
  }

  /** Each existing relayer's version, by id: one statement, nothing hydrated. */
  async findVersions(ids: readonly string[], { manager }: ReadTx): Promise<Map<string, number>> {
    if (ids.length === 0) return new Map();
    const scope = this.scoped();
    const rows = await manager.query<Array<{ id: string; version: number | string }>>(
      `SELECT id, version FROM relayers WHERE id IN (${ids.map(() => '?').join(', ')})${scope.sql}`,
      [...ids, ...scope.parameters],
    );
    return new Map(rows.map((row) => [row.id, Number(row.version)]));
  }

  /** 'out_of_scope': the id is not one the request's key may see (nothing written). */
  override async insert(
    entity: RelayerEntity,
    tx: ReadTx,
  ): Promise<'duplicate' | 'missing_notification' | 'out_of_scope' | null> {
    if (!RelayerScope.admits(entity.id)) return 'out_of_scope';
    try {
      await super.insert(entity, tx);
    } catch (error) {
      if (isUniqueViolation(error)) return 'duplicate';
      if (isForeignKeyViolation(error)) return 'missing_notification';
      throw error;
    }
    return null;
  }

  /** 'stale' when the version moved on (or the relayer is gone): re-read and retry. */
  async updateIfVersion(
    id: string,
    version: number,
    changes: RelayerChanges | Pick<RelayerEntity, 'systemDisabled' | 'disabledReason' | 'updatedAt'>,
    tx: ReadTx,
  ): Promise<'written' | 'stale' | 'missing_notification'> {
    try {
      return (await this.updateVersioned(id, version, changes, tx)) ? 'written' : 'stale';
    } catch (error) {
      if (isForeignKeyViolation(error)) return 'missing_notification';
      throw error;
    }
  }

  deleteById(id: string, version: number | undefined, tx: ReadTx): Promise<boolean> {
    return this.deleteVersioned(id, version, tx);
  }
}
