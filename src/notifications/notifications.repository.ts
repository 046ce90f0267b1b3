import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { isForeignKeyViolation } from '../common/errors/database-errors';
import { EntityRepository } from '../database/entity-rows';
import { NotificationEntity } from './notification.entity';

export type NotificationChanges = Partial<
  Pick<NotificationEntity, 'type' | 'url' | 'signingKey' | 'previousSigningKey' | 'signingKeyOverlapUntil'>
>;

export type PauseChanges = Pick<NotificationEntity, 'pausedAt' | 'pausedReason'>;

@Injectable()
export class NotificationsRepository extends EntityRepository(NotificationEntity) {
  /** Only while the row has `version`. */
  update(
    manager: EntityManager,
    id: string,
    changes: NotificationChanges & Pick<NotificationEntity, 'updatedAt'>,
    version: number,
  ): Promise<boolean> {
    return this.updateVersioned(manager, id, version, changes);
  }

  /**
   * Pauses (pausedAt set) only a running target, resumes only a paused one: false when it was not
   * (docs/reference/webhooks.md#10-pausing-a-target). The version stays: the resource did not change.
   */
  async setPause(manager: EntityManager, id: string, changes: PauseChanges): Promise<boolean> {
    const result = await manager
      .createQueryBuilder()
      .update(NotificationEntity)
      .set(changes)
      .where(`id = :id AND paused_at IS ${changes.pausedAt === null ? 'NOT NULL' : 'NULL'}`, { id })
      .execute();
    return (result.affected ?? 0) > 0;
  }

  async countPaused(): Promise<number> {
    const rows = await this.repository.query<Array<{ n: number | string }>>(
      'SELECT COUNT(*) AS n FROM notifications WHERE paused_at IS NOT NULL',
    );
    return Number(rows[0]?.n ?? 0);
  }

  /** The foreign key decides 'in_use', even against a racing write. */
  async deleteById(
    manager: EntityManager,
    id: string,
    version?: number,
  ): Promise<'deleted' | 'missing' | 'in_use'> {
    try {
      return (await this.deleteVersioned(manager, id, version)) ? 'deleted' : 'missing';
    } catch (error) {
      if (isForeignKeyViolation(error)) return 'in_use';
      throw error;
    }
  }
}
