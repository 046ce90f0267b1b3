import { Injectable } from '@nestjs/common';
import type { EntityManager, SelectQueryBuilder } from 'typeorm';
import { RelayerScope } from '../common/auth/relayer-scope';
import { EntityRepository } from '../database/entity-rows';
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

/** A range of idx_webhook_deliveries_notification (the target, then created_at, id). */
@Injectable()
export class DeliveryReplaysRepository extends EntityRepository(DeliveryEntity) {
  /**
   * In the caller's transaction: queues again, as the retry of one delivery does, the oldest `limit`
   * deliveries that match (commit order: created_at, then id), all due at `now`, so that they are
   * sent in that order and before the target's later events. Answers how many it queued and how
   * many that match are left.
   */
  async requeue(
    manager: EntityManager,
    filter: ReplayFilter,
    now: Date,
    limit: number,
  ): Promise<{ queued: number; remaining: number }> {
    const rows = await this.matching(manager, filter)
      .select('d.id', 'id')
      .orderBy('d.created_at')
      .addOrderBy('d.id')
      .limit(limit)
      .getRawMany<{ id: string }>();
    let queued = 0;
    for (let i = 0; i < rows.length; i += UPDATE_CHUNK) {
      const ids = rows.slice(i, i + UPDATE_CHUNK).map((row) => row.id);
      const result = await manager
        .createQueryBuilder()
        .update(DeliveryEntity)
        .set({ status: 'pending', nextAttemptAt: now, endedAt: null, leaseOwner: null, leaseUntil: null })
        // Only while it still has the status it was chosen for.
        .where('id IN (:...ids) AND status = :status', { ids, status: filter.status })
        .execute();
      queued += result.affected ?? 0;
    }
    // A locking read sees what a replay committed meanwhile queued (MySQL's plain read, its snapshot, would not).
    const [sql, parameters] = this.matching(manager, filter).select('COUNT(*)', 'n').getQueryAndParameters();
    const counted = await manager.query<Array<{ n: number | string }>>(
      sql + this.dialect.lockingRead('share'),
      parameters,
    );
    return { queued, remaining: Number(counted[0].n) };
  }

  private matching(manager: EntityManager, filter: ReplayFilter): SelectQueryBuilder<DeliveryEntity> {
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
      const { sql, parameters } = scope.condition(
        'd.relayer_id',
        (expression) => this.dialect.bytewise(expression),
        (index) => `:scope${index}`,
      );
      query.andWhere(sql, Object.fromEntries(parameters.map((value, index) => [`scope${index}`, value])));
    }
    return query;
  }
}
