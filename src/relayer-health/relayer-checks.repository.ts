import { Injectable } from '@nestjs/common';
import { EntityRepository } from '../database/entity-rows';
import type { ReadTx } from '../database/transactions';
import { balanceOrder } from './balance-order';
import { RelayerCheckEntity } from './relayer-check.entity';

/**
 * A passed check's numbers as they are to be stored; `changed` when one differs from the stored row,
 * `balanceChanged` when the balance does (docs/reference/relayer-health.md#35-balance-history).
 */
export interface PassedCheck {
  readonly relayerId: string;
  readonly balance: string | null;
  readonly nonce: string | null;
  readonly sequenceNumber: string | null;
  readonly changed: boolean;
  readonly balanceChanged: boolean;
}

/** Whom a threshold written reaches: one relayer, or a network's relayers without a rule of their own. */
export type ThresholdReach = { readonly relayerId: string } | { readonly networkId: string };

/** A relayer whose comparison a threshold written changed across it: `low` below now, else back from below. */
export interface ThresholdCrossing {
  readonly relayerId: string;
  readonly balance: string;
  readonly low: boolean;
}

/** Ids bound in one statement: far below SQLite's limit on parameters. */
const IDS_PER_STATEMENT = 500;

/** A check is claimed with a conditional UPDATE and a lease: that holds across Galera nodes too. */
@Injectable()
export class RelayerChecksRepository extends EntityRepository(RelayerCheckEntity) {
  async insertDue(relayerId: string, dueAt: Date, tx: ReadTx): Promise<void> {
    await this.insert(
      {
        relayerId,
        nextCheckAt: dueAt,
        leaseOwner: null,
        leaseUntil: null,
        checkedAt: null,
        balance: null,
        balanceOrder: null,
        nonce: null,
        sequenceNumber: null,
        failures: 0,
        balanceLow: null,
      },
      tx,
    );
  }

  /**
   * Also takes the relayer from a check in flight (docs/reference/hardening.md): its record or
   * release, which match its own lease, can no longer push this due time later. With `owner`
   * (a dropped verdict), only while that check still has the relayer.
   */
  async dueNow(relayerId: string, now: Date, owner: string | undefined, { manager }: ReadTx): Promise<void> {
    await manager.update(
      RelayerCheckEntity,
      owner === undefined ? { relayerId } : { relayerId, leaseOwner: owner },
      { nextCheckAt: now, leaseOwner: null, leaseUntil: null },
    );
  }

  async findDueIds(now: Date, limit: number, { manager }: ReadTx): Promise<string[]> {
    const rows = await manager
      .createQueryBuilder(RelayerCheckEntity, 'c')
      .select('c.relayer_id', 'id')
      .where('c.next_check_at <= :now', { now })
      .andWhere('(c.lease_until IS NULL OR c.lease_until < :now)', { now })
      .orderBy('c.next_check_at')
      .limit(limit)
      .getRawMany<{ id: string }>();
    return rows.map((row) => row.id);
  }

  /** Those of `ids` still due and free, leased to `owner` until `until` (EntityRows.claimByIds). */
  claimAll(
    ids: readonly string[],
    owner: string,
    now: Date,
    until: Date,
    tx: ReadTx,
  ): Promise<RelayerCheckEntity[]> {
    return this.claimByIds(
      ids,
      { owner, until },
      'next_check_at <= :now AND (lease_until IS NULL OR lease_until < :now)',
      { now },
      tx,
    );
  }

  /**
   * Checks that passed and change no relayer: their numbers, times and lease in one statement, while
   * `owner` has them. The numbers go in a CASE per column, only where one differs from what is stored.
   */
  async recordPassed(
    rows: readonly PassedCheck[],
    owner: string,
    checkedAt: Date,
    nextCheckAt: Date,
    { manager }: ReadTx,
  ): Promise<void> {
    const parameters: Record<string, string | null> = { owner };
    rows.forEach((row, i) => (parameters[`id${i}`] = row.relayerId));
    const byRow = (
      column: string,
      name: string,
      value: (row: PassedCheck) => string | null,
    ): (() => string) => {
      const arms: string[] = [];
      rows.forEach((row, i) => {
        if (!row.changed) return;
        parameters[`${column}${i}`] = value(row);
        arms.push(`WHEN :id${i} THEN :${column}${i}`);
      });
      const sql = `CASE relayer_id ${arms.join(' ')} ELSE ${name} END`;
      return () => sql;
    };
    const numbers = rows.some((row) => row.changed)
      ? {
          balance: byRow('balance', 'balance', (row) => row.balance),
          balanceOrder: byRow('balanceOrder', 'balance_order', (row) => balanceOrder(row.balance)),
          nonce: byRow('nonce', 'nonce', (row) => row.nonce),
          sequenceNumber: byRow('sequenceNumber', 'sequence_number', (row) => row.sequenceNumber),
        }
      : {};
    await manager
      .createQueryBuilder()
      .update(RelayerCheckEntity)
      .set({ checkedAt, nextCheckAt, failures: 0, leaseOwner: null, leaseUntil: null, ...numbers })
      .where(`relayer_id IN (${rows.map((_row, i) => `:id${i}`).join(', ')})`)
      .andWhere('lease_owner = :owner')
      .setParameters(parameters)
      .execute();
  }

  /** Due or not: a check asked for through the API. */
  async claim(relayerId: string, owner: string, now: Date, until: Date): Promise<boolean> {
    const result = await this.repository
      .createQueryBuilder()
      .update(RelayerCheckEntity)
      .set({ leaseOwner: owner, leaseUntil: until })
      .where('relayer_id = :relayerId', { relayerId })
      .andWhere('(lease_until IS NULL OR lease_until < :now)', { now })
      .execute();
    return (result.affected ?? 0) > 0;
  }

  /** Only while `owner` holds the check: whether it did. With the balance, its order (balanceOrder). */
  async record(
    relayerId: string,
    owner: string,
    outcome: Omit<
      RelayerCheckEntity,
      'relayerId' | 'leaseOwner' | 'leaseUntil' | 'balanceLow' | 'balanceOrder'
    >,
    { manager }: ReadTx,
  ): Promise<boolean> {
    const result = await manager
      .createQueryBuilder()
      .update(RelayerCheckEntity)
      .set({ ...outcome, balanceOrder: balanceOrder(outcome.balance), leaseOwner: null, leaseUntil: null })
      .where('relayer_id = :relayerId AND lease_owner = :owner', { relayerId, owner })
      .execute();
    return (result.affected ?? 0) > 0;
  }

  /**
   * Sets the balance alert's state to `next` with a conditional UPDATE (docs/reference/balance-alerts.md#4-once-per-crossing):
   * of several instances writing the same crossing, one finds the row still in the old state, and only
   * it answers the crossing ('low', or 'restored' from below). Null clears it (no threshold): no crossing.
   */
  async flipBalanceLow(
    relayerId: string,
    next: boolean | null,
    { manager }: ReadTx,
  ): Promise<'low' | 'restored' | null> {
    const set = async (value: boolean | null, from: string): Promise<boolean> => {
      const result = await manager
        .createQueryBuilder()
        .update(RelayerCheckEntity)
        .set({ balanceLow: value })
        .where(`relayer_id = :relayerId AND ${from}`, { relayerId })
        .execute();
      return (result.affected ?? 0) > 0;
    };
    if (next === null) {
      await set(null, 'balance_low IS NOT NULL');
      return null;
    }
    if (next) return (await set(true, '(balance_low IS NULL OR balance_low = 0)')) ? 'low' : null;
    if (await set(false, 'balance_low = 1')) return 'restored';
    await set(false, 'balance_low IS NULL');
    return null;
  }

  /**
   * A threshold written (docs/reference/balance-alerts.md#34-a-threshold-written): the comparison of the
   * last balance read of each relayer it reaches (a check that read one: `checked_at` and `balance` set)
   * with `threshold`, in the write's transaction, as set-based statements whatever the number of
   * relayers. Answers the crossings, as a check's flipBalanceLow would find them: below from not below
   * or never compared, or back from below. Those rows are read locked and written by id, so that each
   * crossing stored is one answered; the other rows change only from never compared to not below, and a
   * row a concurrent check turned into a crossing meanwhile is left to the next check. Null forgets the
   * comparison: no crossing.
   */
  async compareWithThreshold(
    reach: ThresholdReach,
    threshold: string | null,
    { manager }: ReadTx,
  ): Promise<ThresholdCrossing[]> {
    const reached =
      'relayerId' in reach
        ? { sql: 'relayer_id = ?', parameters: [reach.relayerId] }
        : {
            // Keyed as GET .../status and the list's state=low_balance find a network's rule.
            sql:
              'relayer_id IN (SELECT r.id FROM relayers r WHERE ' +
              "LOWER(CONCAT(r.network_type, ':', r.network)) = ? AND NOT EXISTS " +
              '(SELECT 1 FROM relayer_balance_alerts ra WHERE ra.relayer_id = r.id))',
            parameters: [reach.networkId],
          };
    if (threshold === null) {
      await manager.query(
        `UPDATE relayer_checks SET balance_low = NULL WHERE ${reached.sql} AND balance_low IS NOT NULL`,
        reached.parameters,
      );
      return [];
    }
    // Both are canonical decimal strings (a bigint's text; thresholdText), no leading zeros: the
    // shorter is the smaller, and of equal lengths the text orders them, at any size.
    const below = '(LENGTH(balance) < ? OR (LENGTH(balance) = ? AND balance < ?))';
    const byThreshold = [threshold.length, threshold.length, threshold];
    const compared = `${reached.sql} AND checked_at IS NOT NULL AND balance IS NOT NULL`;
    const rows = await manager.query<Array<{ relayer_id: string; balance: string; low: number | string }>>(
      `SELECT relayer_id, balance, CASE WHEN ${below} THEN 1 ELSE 0 END AS low FROM relayer_checks ` +
        `WHERE ${compared} AND ((${below} AND (balance_low IS NULL OR balance_low = 0)) OR ` +
        `(NOT ${below} AND balance_low = 1)) ORDER BY relayer_id${this.dialect.lockingRead('update')}`,
      [...byThreshold, ...reached.parameters, ...byThreshold, ...byThreshold],
    );
    await manager.query(
      `UPDATE relayer_checks SET balance_low = 0 WHERE ${compared} AND balance_low IS NULL AND NOT ${below}`,
      [...reached.parameters, ...byThreshold],
    );
    const crossings = rows.map((row) => ({
      relayerId: row.relayer_id,
      balance: row.balance,
      low: Number(row.low) === 1,
    }));
    for (const low of [true, false]) {
      const ids = crossings.filter((crossing) => crossing.low === low).map((crossing) => crossing.relayerId);
      for (let start = 0; start < ids.length; start += IDS_PER_STATEMENT) {
        const chunk = ids.slice(start, start + IDS_PER_STATEMENT);
        await manager.query(
          `UPDATE relayer_checks SET balance_low = ${low ? 1 : 0} WHERE relayer_id IN (${chunk.map(() => '?').join(', ')})`,
          chunk,
        );
      }
    }
    return crossings;
  }

  /**
   * For the metrics: every relayer not disabled by its checks and checked at least once, with what the
   * last check found (docs/reference/balance-alerts.md#6-metrics).
   */
  async findCheckedEnabled(): Promise<
    Array<{ id: string; networkType: string; network: string; balance: string; balanceLow: boolean | null }>
  > {
    const rows = await this.repository.query<
      Array<{ id: string; network_type: string; network: string; balance: string; balance_low: unknown }>
    >(
      'SELECT r.id, r.network_type, r.network, c.balance, c.balance_low FROM relayers r ' +
        'JOIN relayer_checks c ON c.relayer_id = r.id ' +
        'WHERE r.system_disabled = 0 AND c.checked_at IS NOT NULL AND c.balance IS NOT NULL',
    );
    return rows.map((row) => ({
      id: row.id,
      networkType: row.network_type,
      network: row.network,
      balance: row.balance,
      balanceLow: row.balance_low === null ? null : Number(row.balance_low) === 1,
    }));
  }

  async release(relayerId: string, owner: string): Promise<void> {
    await this.repository.update({ relayerId, leaseOwner: owner }, { leaseOwner: null, leaseUntil: null });
  }

  async countDisabled(): Promise<number> {
    const rows = await this.repository.query<Array<{ n: number | string }>>(
      'SELECT COUNT(*) AS n FROM relayers WHERE system_disabled = 1',
    );
    return Number(rows[0].n);
  }
}
