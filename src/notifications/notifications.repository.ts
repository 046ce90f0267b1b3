import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import { ConflictError } from '../common/errors/domain-errors';
import { isForeignKeyViolation, isUniqueViolation } from '../common/errors/database-errors';
import { CachedRowCount } from '../database/cached-row-count';
import { NotificationEntity } from './notification.entity';

export type NotificationChanges = Partial<Pick<NotificationEntity, 'type' | 'url' | 'signingKey'>>;

@Injectable()
export class NotificationsRepository {
  private readonly total: CachedRowCount;

  constructor(
    @InjectRepository(NotificationEntity) private readonly repository: Repository<NotificationEntity>,
  ) {
    this.total = new CachedRowCount(async () => {
      const rows = await this.repository.query<Array<{ n: number | string }>>(
        'SELECT COUNT(*) AS n FROM notifications',
      );
      return Number(rows[0].n);
    });
  }

  findById(id: string): Promise<NotificationEntity | null> {
    return this.repository.findOneBy({ id });
  }

  existsById(id: string): Promise<boolean> {
    return this.repository.existsBy({ id });
  }

  /** One page in the stable list order: creation time, then id. */
  async findPage(offset: number, limit: number): Promise<{ items: NotificationEntity[]; total: number }> {
    const [items, total] = await Promise.all([
      this.repository.find({ order: { createdAt: 'ASC', id: 'ASC' }, skip: offset, take: limit }),
      this.total.get(),
    ]);
    return { items, total };
  }

  /** Inserts a new notification; a taken id raises ConflictError (also when two requests race). */
  async insert(entity: NotificationEntity): Promise<void> {
    try {
      await this.repository.insert(entity);
      this.total.invalidate();
    } catch (error) {
      if (isUniqueViolation(error)) throw new ConflictError('Notification with this ID already exists');
      throw error;
    }
  }

  /** Applies only the given columns; false when no such notification exists. */
  async update(id: string, changes: NotificationChanges, now: Date): Promise<boolean> {
    const result = await this.repository.update({ id }, { ...changes, updatedAt: now });
    return (result.affected ?? 0) > 0;
  }

  /** Ids of the relayers that still reference the notification, in id order. */
  async findReferencingRelayerIds(id: string): Promise<string[]> {
    const rows = await this.repository.manager.query<Array<{ id: string }>>(
      'SELECT id FROM relayers WHERE notification_id = ? ORDER BY id LIMIT 50',
      [id],
    );
    return rows.map((row) => row.id);
  }

  /** Deletes the notification; a relayer still referencing it (even one written meanwhile) raises ConflictError. */
  async deleteById(id: string): Promise<boolean> {
    try {
      const result = await this.repository.delete({ id });
      this.total.invalidate();
      return (result.affected ?? 0) > 0;
    } catch (error) {
      if (isForeignKeyViolation(error)) throw await this.inUseError(id);
      throw error;
    }
  }

  async inUseError(id: string): Promise<ConflictError> {
    const ids = await this.findReferencingRelayerIds(id);
    return new ConflictError(`Notification is used by relayers: ${ids.join(', ')}`);
  }
}
