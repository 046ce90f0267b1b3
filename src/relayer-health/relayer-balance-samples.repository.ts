import { Injectable } from '@nestjs/common';
import { EntityRepository } from '../database/entity-rows';
import type { ReadTx } from '../database/transactions';
import { RelayerBalanceSampleEntity } from './relayer-balance-sample.entity';

/** docs/reference/relayer-health.md#36-what-is-kept: a flapping balance cannot grow the table without bound. */
export const MAX_SAMPLES_PER_RELAYER = 1000;

/** Pairs per DELETE of the prune: well below every driver's limit of parameters. */
const DELETE_CHUNK = 250;

/**
 * docs/reference/relayer-health.md#35-balance-history. Every read of one relayer is a range of the
 * primary key (relayer_id, at); the prune a range of idx_relayer_balance_samples_at.
 */
@Injectable()
export class RelayerBalanceSamplesRepository extends EntityRepository(RelayerBalanceSampleEntity) {
  /**
   * In the transaction that wrote their checks at `checkedAt`: a sample of each of `relayerIds`,
   * the balance its check row holds now, read back from that row (only a row this transaction wrote
   * has that `checked_at`: a check whose lease was lost writes none). Then each relayer's samples
   * beyond its newest MAX_SAMPLES_PER_RELAYER are dropped, the oldest first: a range of its key.
   */
  async recordChecked(relayerIds: readonly string[], checkedAt: Date, { manager }: ReadTx): Promise<void> {
    if (relayerIds.length === 0) return;
    await manager.query(
      `INSERT INTO relayer_balance_samples (relayer_id, at, balance)
       SELECT c.relayer_id, c.checked_at, c.balance FROM relayer_checks c
        WHERE c.relayer_id IN (${relayerIds.map(() => '?').join(', ')}) AND c.checked_at = ?
          AND c.balance IS NOT NULL
          AND NOT EXISTS (SELECT 1 FROM relayer_balance_samples s
                           WHERE s.relayer_id = c.relayer_id AND s.at = c.checked_at)`,
      [...relayerIds, this.persistedAt(checkedAt)],
    );
    for (const relayerId of relayerIds) {
      // The derived table is materialised first: MySQL refuses a DELETE reading its own table otherwise.
      await manager.query(
        `DELETE FROM relayer_balance_samples
          WHERE relayer_id = ?
            AND at <= (SELECT at FROM (SELECT at FROM relayer_balance_samples WHERE relayer_id = ?
                                        ORDER BY at DESC LIMIT 1 OFFSET ${MAX_SAMPLES_PER_RELAYER}) dropped)`,
        [relayerId, relayerId],
      );
    }
  }

  /** The relayer's samples from `since` on, oldest first, after the last one before it (if any). */
  async findFrom(relayerId: string, since: Date): Promise<RelayerBalanceSampleEntity[]> {
    const from = this.persistedAt(since);
    const [before, within] = await Promise.all([
      this.select(
        `SELECT ${this.columns} FROM relayer_balance_samples WHERE relayer_id = ? AND at < ?
          ORDER BY at DESC LIMIT 1`,
        [relayerId, from],
      ),
      this.select(
        `SELECT ${this.columns} FROM relayer_balance_samples WHERE relayer_id = ? AND at >= ? ORDER BY at`,
        [relayerId, from],
      ),
    ]);
    return [...before, ...within];
  }

  /**
   * Up to `limit` samples taken before `before`, the oldest first, but never a relayer's newest (its
   * balance since then): the ones found by a range of idx_relayer_balance_samples_at, each checked
   * against its relayer's key. How many it found, and how many of those it deleted (another
   * instance may have deleted some meanwhile).
   */
  async deleteTakenBefore(
    before: Date,
    limit: number,
    { manager }: ReadTx,
  ): Promise<{ found: number; deleted: number }> {
    const rows = await manager.query<Array<{ relayer_id: string; at: unknown }>>(
      `SELECT s.relayer_id, s.at FROM relayer_balance_samples s
        WHERE s.at < ?
          AND EXISTS (SELECT 1 FROM relayer_balance_samples n WHERE n.relayer_id = s.relayer_id AND n.at > s.at)
        ORDER BY s.at
        LIMIT ${Math.trunc(limit)}`,
      [this.persistedAt(before)],
    );
    let deleted = 0;
    for (let i = 0; i < rows.length; i += DELETE_CHUNK) {
      const chunk = rows.slice(i, i + DELETE_CHUNK);
      const result = await manager
        .createQueryBuilder()
        .delete()
        .from(RelayerBalanceSampleEntity)
        .where(chunk.map((_row, j) => `(relayer_id = :id${j} AND at = :at${j})`).join(' OR '))
        .setParameters(
          Object.fromEntries(
            chunk.flatMap((row, j) => [
              [`id${j}`, row.relayer_id],
              [`at${j}`, row.at],
            ]),
          ),
        )
        .execute();
      deleted += result.affected ?? 0;
    }
    return { found: rows.length, deleted };
  }

  /** A time as the driver writes the column (SQLite keeps datetimes as text). */
  private persistedAt(value: Date): unknown {
    const column = this.repository.metadata.findColumnWithPropertyName('at');
    if (!column) throw new Error('no column at on relayer_balance_samples');
    return this.repository.manager.connection.driver.preparePersistentValue(value, column) as unknown;
  }
}
