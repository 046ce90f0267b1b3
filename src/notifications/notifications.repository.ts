import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { isForeignKeyViolation } from '../common/errors/database-errors';
import { EntityRepository } from '../database/entity-rows';
import { NotificationEntity } from './notification.entity';

export type NotificationChanges = Partial<Pick<NotificationEntity, 'type' | 'url' | 'signingKey'>>;

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
