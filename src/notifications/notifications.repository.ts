import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { EntityManager, Repository } from 'typeorm';
import { isForeignKeyViolation, isUniqueViolation } from '../common/errors/database-errors';
import { CachedRowCount } from '../database/cached-row-count';
import { EntityRows } from '../database/entity-rows';
import { NotificationEntity } from './notification.entity';

export type NotificationChanges = Partial<Pick<NotificationEntity, 'type' | 'url' | 'signingKey'>>;

/** Notifications rows. Writes take the EntityManager of the caller's transaction. */
@Injectable()
export class NotificationsRepository {
  private readonly total: CachedRowCount;
  private readonly rows: EntityRows<NotificationEntity>;

  constructor(
    @InjectRepository(NotificationEntity) private readonly repository: Repository<NotificationEntity>,
  ) {
    this.rows = new EntityRows(repository);
    this.total = new CachedRowCount(async () => {
      const rows = await this.repository.query<Array<{ n: number | string }>>(
        'SELECT COUNT(*) AS n FROM notifications',
      );
      return Number(rows[0].n);
    });
  }

  async findById(id: string): Promise<NotificationEntity | null> {
    const [entity] = await this.rows.select(`SELECT ${this.rows.columns} FROM notifications WHERE id = ?`, [
      id,
    ]);
    return entity ?? null;
  }

  async existsById(id: string): Promise<boolean> {
    const rows = await this.repository.query<unknown[]>('SELECT 1 AS found FROM notifications WHERE id = ?', [
      id,
    ]);
    return rows.length > 0;
  }

  /** One page in the stable list order: creation time, then id. */
  async findPage(offset: number, limit: number): Promise<{ items: NotificationEntity[]; total: number }> {
    const [items, total] = await Promise.all([
      this.rows.select(
        `SELECT ${this.rows.columns} FROM notifications ORDER BY created_at, id LIMIT ? OFFSET ?`,
        [limit, offset],
      ),
      this.total.get(),
    ]);
    return { items, total };
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
      this.total.invalidate();
    }
  }

  /** Applies only the given columns; false when no such notification exists. */
  async update(
    manager: EntityManager,
    id: string,
    changes: NotificationChanges,
    now: Date,
  ): Promise<boolean> {
    const result = await manager.update(NotificationEntity, { id }, { ...changes, updatedAt: now });
    return (result.affected ?? 0) > 0;
  }

  /** 'in_use' when a row still references it (the foreign key decides, even against a racing write). */
  async deleteById(manager: EntityManager, id: string): Promise<'deleted' | 'missing' | 'in_use'> {
    try {
      const result = await manager.delete(NotificationEntity, { id });
      return (result.affected ?? 0) > 0 ? 'deleted' : 'missing';
    } catch (error) {
      if (isForeignKeyViolation(error)) return 'in_use';
      throw error;
    } finally {
      this.total.invalidate();
    }
  }
}
