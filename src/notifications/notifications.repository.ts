import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { EntityManager, Repository } from 'typeorm';
import { isForeignKeyViolation, isUniqueViolation } from '../common/errors/database-errors';
import { EntityRows } from '../database/entity-rows';
import { NotificationEntity } from './notification.entity';

export type NotificationChanges = Partial<Pick<NotificationEntity, 'type' | 'url' | 'signingKey'>>;

/** Notifications rows. Writes take the EntityManager of the caller's transaction. */
@Injectable()
export class NotificationsRepository {
  private readonly rows: EntityRows<NotificationEntity>;

  constructor(@InjectRepository(NotificationEntity) repository: Repository<NotificationEntity>) {
    this.rows = new EntityRows(repository);
  }

  /** With a transaction's manager, read inside that transaction. */
  findById(id: string, manager?: EntityManager): Promise<NotificationEntity | null> {
    return manager ? manager.findOneBy(NotificationEntity, { id }) : this.rows.findById(id);
  }

  existsById(id: string): Promise<boolean> {
    return this.rows.existsById(id);
  }

  findPage(offset: number, limit: number): Promise<{ items: NotificationEntity[]; total: number }> {
    return this.rows.findPage(offset, limit);
  }

  /** Inserts a new notification; false when the id is taken (also when two requests race). */
  async insert(manager: EntityManager, entity: NotificationEntity): Promise<boolean> {
    try {
      await manager.insert(NotificationEntity, entity);
      return true;
    } catch (error) {
      if (isUniqueViolation(error)) return false;
      throw error;
    } finally {
      this.rows.countChanged();
    }
  }

  /**
   * Applies only the given columns and bumps the version; with `version`, only while the
   * notification still has it. False when no such notification (at that version) exists.
   */
  async update(
    manager: EntityManager,
    id: string,
    changes: NotificationChanges,
    now: Date,
    version?: number,
  ): Promise<boolean> {
    const result = await manager.update(
      NotificationEntity,
      version === undefined ? { id } : { id, version },
      { ...changes, updatedAt: now, version: () => 'version + 1' },
    );
    return (result.affected ?? 0) > 0;
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
      const result = await manager.delete(
        NotificationEntity,
        version === undefined ? { id } : { id, version },
      );
      return (result.affected ?? 0) > 0 ? 'deleted' : 'missing';
    } catch (error) {
      if (isForeignKeyViolation(error)) return 'in_use';
      throw error;
    } finally {
      this.rows.countChanged();
    }
  }
}
