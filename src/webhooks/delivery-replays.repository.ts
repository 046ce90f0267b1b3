import { Injectable } from '@nestjs/common';
import type { SelectQueryBuilder } from 'typeorm';
import { RelayerScope } from '../common/auth/relayer-scope';
import { EntityRepository } from '../database/entity-rows';
import type { ReadTx } from '../database/transactions';
import { DeliveryEntity, type DeliveryStatus } from './delivery.entity';

/** Which of a target's ended deliveries a replay queues again (docs/reference/webhooks.md#7-replay). */
export interface ReplayFilter {
  readonly notificationId: string;
  readonly status: Exclude<DeliveryStatus, 'pending'>;
  /** Created at or after it. */
  readonly since: Date | null;
  /** Created before it. */
  readonly until: Date | null;
  readonly event: string | null;
}

/** Rows updated per statement. */
const UPDATE_CHUNK = 500;

/** What one replay did (docs/reference/webhooks.md#7-replay). */
export interface ReplayOutcome {
  readonly queued: number;
  /** Matching, not replayed since `replayedSince`, and left for another call. */
  readonly remaining: number;
  /** Matching, and replayed since `replayedSince`: not queued. */
  readonly skipped: number;
}

/**
 * A replay as it happened in its transaction: its outcome and the hours (`YYYY-MM-DD HH`) the
 * deliveries it queued had ended and last failed in (docs/reference/webhooks.md#94-the-cost).
 */
export interface Requeued {
  readonly outcome: ReplayOutcome;
  readonly hours: ReadonlySet<string>;
}

/** A range of idx_webhook_deliveries_notification (the target, then created_at, id). */
@Injectable()
export class DeliveryReplaysRepository extends EntityRepository(DeliveryEntity) {
  /**
   * In the caller's transaction, first: takes the target's row for the rest of it (a locking read on
   * MySQL; SQLite has one writer at a time), so that two replays of one target are one after the
   * other. False when the target does not exist.
   */
  async lockTarget(notificationId: string, { manager }: ReadTx): Promise<boolean> {
    const rows = await manager.query<unknown[]>(
      `SELECT id FROM notifications WHERE id = ?${this.dialect.lockingRead('update')}`,
      [notificationId],
    );
    return rows.length > 0;
  }

  /** The target's deliveries a replay queued that are still pending, whoever's they are. */
  async countPendingReplayed(notificationId: string, { manager }: ReadTx): Promise<number> {
    const [counted] = await manager.query<Array<{ n: number | string }>>(
      `SELECT COUNT(*) AS n FROM webhook_deliveries
        WHERE notification_id = ? AND status = 'pending' AND replayed_at IS NOT NULL`,
      [notificationId],
    );
    return Number(counted.n);
  }

  /**
   * In the caller's transaction: queues again, as the retry of one delivery does, the oldest `limit`
   * deliveries that match and were not replayed since `replayedSince` (commit order: created_at,
   * then id), all due at `now` and marked replayed at `now`, so that they are sent in that order and
   * before the target's later events. Answers how many it queued, how many that match are left, and
   * how many it skipped (replayed since `replayedSince`).
   */
  async requeue(
    filter: ReplayFilter,
    now: Date,
    replayedSince: Date,
    limit: number,
    tx: ReadTx,
  ): Promise<Requeued> {
    const { manager } = tx;
    const notRecently = '(d.replayed_at IS NULL OR d.replayed_at < :replayedSince)';
    const rows = await this.matching(filter, tx)
      .andWhere(notRecently, { replayedSince })
      .select('d.id', 'id')
      .orderBy('d.created_at')
      .addOrderBy('d.id')
      .limit(limit)
      .getRawMany<{ id: string }>();
    let queued = 0;
    const hours = new Set<string>();
    for (let i = 0; i < rows.length; i += UPDATE_CHUNK) {
      const ids = rows.slice(i, i + UPDATE_CHUNK).map((row) => row.id);
      // Locked as they are now, for the hours they ended and failed in.
      const ended = await manager.query<Array<{ ended_hour: string | null; failed_hour: string | null }>>(
        `SELECT SUBSTR(ended_at, 1, 13) AS ended_hour, SUBSTR(failed_at, 1, 13) AS failed_hour
           FROM webhook_deliveries WHERE id IN (${ids.map(() => '?').join(', ')}) AND status = ?` +
          this.dialect.lockingRead('update'),
        [...ids, filter.status],
      );
      for (const row of ended) {
        if (row.ended_hour !== null) hours.add(row.ended_hour);
        if (row.failed_hour !== null) hours.add(row.failed_hour);
      }
      const result = await manager
        .createQueryBuilder()
        .update(DeliveryEntity)
        .set({
          status: 'pending',
          nextAttemptAt: now,
          endedAt: null,
          leaseOwner: null,
          leaseUntil: null,
          replayedAt: now,
        })
        // Only while it still has the status it was chosen for.
        .where('id IN (:...ids) AND status = :status', { ids, status: filter.status })
        .execute();
      queued += result.affected ?? 0;
    }
    // A locking read sees what a replay committed meanwhile queued (MySQL's plain read, its snapshot, would not).
    const [sql, parameters] = this.matching(filter, tx)
      .select(`SUM(CASE WHEN ${notRecently} THEN 1 ELSE 0 END)`, 'remaining')
      .addSelect('COUNT(*)', 'n')
      .setParameter('replayedSince', replayedSince)
      .getQueryAndParameters();
    const [counted] = await manager.query<Array<{ remaining: number | string | null; n: number | string }>>(
      sql + this.dialect.lockingRead('share'),
      parameters,
    );
    const remaining = Number(counted.remaining ?? 0);
    return { outcome: { queued, remaining, skipped: Number(counted.n) - remaining }, hours };
  }

  private matching(filter: ReplayFilter, { manager }: ReadTx): SelectQueryBuilder<DeliveryEntity> {
    const query = manager
      .createQueryBuilder(DeliveryEntity, 'd')
      .where('d.notification_id = :notificationId AND d.status = :status', {
        notificationId: filter.notificationId,
        status: filter.status,
      });
    if (filter.since) query.andWhere('d.created_at >= :since', { since: filter.since });
    if (filter.until) query.andWhere('d.created_at < :until', { until: filter.until });
    if (filter.event) query.andWhere('d.event = :event', { event: filter.event });
    // A key limited to some relayers replays only deliveries about them, and counts only those
    // (docs/reference/keys-and-audit.md#3-relayer-scope).
    const scope = RelayerScope.current();
    if (scope !== null) {
      const { sql, parameters } = scope.condition('d.relayer_id', undefined, (index) => `:scope${index}`);
      query.andWhere(sql, Object.fromEntries(parameters.map((value, index) => [`scope${index}`, value])));
    }
    return query;
  }
}
