import { Injectable } from '@nestjs/common';
import { EntityRepository } from '../database/entity-rows';
import type { ReadTx } from '../database/transactions';
import { TargetLeaseEntity } from './target-lease.entity';

const FREE = '(lease_until IS NULL OR lease_until < :now)';

/** docs/reference/webhooks.md#27-order: one sender per target at a time, across instances. */
@Injectable()
export class TargetLeasesRepository extends EntityRepository(TargetLeaseEntity) {
  /**
   * Those of `ids` that no other instance is sending to, leased to `owner` until `until`: one
   * statement makes the missing rows, one conditional UPDATE takes the free ones (EntityRows.claimByIds).
   */
  async claim(
    ids: readonly string[],
    owner: string,
    now: Date,
    until: Date,
    tx: ReadTx,
  ): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    await tx.manager
      .createQueryBuilder()
      .insert()
      .into(TargetLeaseEntity)
      .values(
        ids.map((notificationId) => ({
          notificationId,
          leaseOwner: null,
          leaseUntil: null,
          consecutiveFailures: 0,
        })),
      )
      .orIgnore()
      .execute();
    const taken = await this.claimByIds(ids, { owner, until }, FREE, { now }, tx);
    return new Set(taken.map((lease) => lease.notificationId));
  }

  /** Whether `owner` still holds the target, now until `until`. */
  async extend(id: string, owner: string, until: Date, { manager }: ReadTx): Promise<boolean> {
    const result = await manager
      .createQueryBuilder()
      .update(TargetLeaseEntity)
      .set({ leaseUntil: until })
      .where('notification_id = :id AND lease_owner = :owner', { id, owner })
      .execute();
    return (result.affected ?? 0) > 0;
  }

  /** Gives back those of `ids` that `owner` holds. */
  async release(owner: string, ids: readonly string[], { manager }: ReadTx): Promise<void> {
    if (ids.length === 0) return;
    await manager
      .createQueryBuilder()
      .update(TargetLeaseEntity)
      .set({ leaseOwner: null, leaseUntil: null })
      .where('notification_id IN (:...ids) AND lease_owner = :owner', { ids, owner })
      .execute();
  }

  /**
   * One more of the target's deliveries ended failed: the count of those in a row
   * (docs/reference/webhooks.md#10-pausing-a-target), in the transaction that ended it.
   */
  async countFailure(id: string, { manager }: ReadTx): Promise<number> {
    await manager
      .createQueryBuilder()
      .update(TargetLeaseEntity)
      .set({ consecutiveFailures: () => 'consecutive_failures + 1' })
      .where('notification_id = :id', { id })
      .execute();
    const row = await manager.findOne(TargetLeaseEntity, { where: { notificationId: id } });
    return row?.consecutiveFailures ?? 0;
  }

  /** A delivery of each of `ids` ended delivered (or the target resumed): their counts start again. */
  async clearFailures(ids: readonly string[], { manager }: ReadTx): Promise<void> {
    if (ids.length === 0) return;
    await manager
      .createQueryBuilder()
      .update(TargetLeaseEntity)
      .set({ consecutiveFailures: 0 })
      .where('notification_id IN (:...ids) AND consecutive_failures > 0', { ids })
      .execute();
  }

  /** The rows of deleted targets that nobody holds. */
  async deleteUnused(now: Date): Promise<void> {
    await this.repository
      .createQueryBuilder()
      .delete()
      .where(`${FREE} AND notification_id NOT IN (SELECT id FROM notifications)`, { now })
      .execute();
  }
}
