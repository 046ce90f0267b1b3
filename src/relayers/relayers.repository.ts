import { Injectable } from '@nestjs/common';
import type { NetworkType } from '../catalogue';
import { RelayerScope } from '../common/auth/relayer-scope';
import { isForeignKeyViolation, isUniqueViolation } from '../common/errors/database-errors';
import { EntityRepository } from '../database/entity-rows';
import type { ReadTx } from '../database/transactions';
import { RELAYER_STATES, type RelayerState } from './dto/relayer.dto';
import { RelayerEntity } from './relayer.entity';

/** What a list may be narrowed to (docs/reference/relayers.md#33-filtering-the-list); absent: any. */
export interface RelayerFilter {
  readonly networkType?: NetworkType;
  readonly network?: string;
  readonly state?: RelayerState;
  /** The `paused` flag alone, whatever `system_disabled` is. */
  readonly paused?: boolean;
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

  /** Filtered (the request's scope and `filter`, all of them) and counted in the query: every page complete. */
  override findPage(
    offset: number,
    limit: number,
    filter: RelayerFilter = {},
  ): Promise<{ items: RelayerEntity[]; total: number }> {
    return this.findPageWhere(offset, limit, this.filtered(filter));
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
  private filtered(filter: RelayerFilter): { sql: string; parameters: readonly string[] } {
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
