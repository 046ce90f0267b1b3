import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { isForeignKeyViolation } from '../common/errors/database-errors';
import { EntityRepository } from '../database/entity-repository';
import { NotificationEntity } from './notification.entity';

export type NotificationChanges = Partial<Pick<NotificationEntity, 'type' | 'url' | 'signingKey'>>;

/** Notifications rows. Writes take the EntityManager of the caller's transaction. */
@Injectable()
export class NotificationsRepository extends EntityRepository(NotificationEntity) {
  /**
   * Applies only the given columns and bumps the version; with `version`, only while the
   * notification still has it. False when no such notification (at that version) exists.
   */
  update(
    manager: EntityManager,
    id: string,
    changes: NotificationChanges,
    now: Date,
    version?: number,
  ): Promise<boolean> {
    return this.updateVersioned(manager, id, version, { ...changes, updatedAt: now });
  }

  /**
   * 'in_use' when a row still references it (the foreign key decides, even against a racing write);
   * with `version`, 'missing' unless the notification still has it.
   */
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
