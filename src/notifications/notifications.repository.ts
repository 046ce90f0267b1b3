import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { RelayerScope, type ScopeCondition } from '../common/auth/relayer-scope';
import { isForeignKeyViolation } from '../common/errors/database-errors';
import { EntityRepository } from '../database/entity-rows';
import { NotificationEntity } from './notification.entity';

export type NotificationChanges = Partial<
  Pick<NotificationEntity, 'type' | 'url' | 'signingKey' | 'previousSigningKey' | 'signingKeyOverlapUntil'>
>;

export type PauseChanges = Pick<NotificationEntity, 'pausedAt' | 'pausedReason'>;

/**
 * Every read of targets a request can reach goes through here, and sees only the targets of the
 * request's key (docs/reference/keys-and-audit.md#3-relayer-scope): one outside its scope is missing
 * to it, in lists (filtered in the query, counts included) as for one id, on every route under
 * `/notifications/{id}` (the webhook routes ask `exists`). Writes follow ResourceWrites' read of the
 * row, so they never reach one either; an insert outside the scope is refused. Work outside a request
 * (the dispatcher) has no scope and sees every target.
 */
@Injectable()
export class NotificationsRepository extends EntityRepository(NotificationEntity) {
  /** The current request's scope as a condition on `notifications.id`; null: every target. */
  private scoped(): ScopeCondition | null {
    // `id` is binary (1797600000000-ExactIds): compared as it stands, its index serves an exact entry.
    const scope = RelayerScope.filter('id', (expression) => expression);
    return scope.sql === '' ? null : scope;
  }

  override async findById(id: string, manager?: EntityManager): Promise<NotificationEntity | null> {
    const scope = this.scoped();
    if (scope === null) return super.findById(id, manager);
    const [found] = await this.select(
      `SELECT ${this.columns} FROM ${this.table} WHERE id = ?${scope.sql}`,
      [id, ...scope.parameters],
      manager,
    );
    return found ?? null;
  }

  override async existsById(id: string): Promise<boolean> {
    const scope = this.scoped();
    if (scope === null) return super.existsById(id);
    const rows = await this.repository.query<unknown[]>(
      `SELECT 1 AS found FROM ${this.table} WHERE id = ?${scope.sql}`,
      [id, ...scope.parameters],
    );
    return rows.length > 0;
  }

  /** Without a scope, the row count cached for a second; with one, counted in the query. */
  override async findPage(
    offset: number,
    limit: number,
  ): Promise<{ items: NotificationEntity[]; total: number }> {
    const scope = this.scoped();
    if (scope === null) return super.findPage(offset, limit);
    const where = `WHERE 1 = 1${scope.sql}`;
    const [items, counted] = await Promise.all([
      this.select(
        `SELECT ${this.columns} FROM ${this.table} ${where} ORDER BY created_at, id LIMIT ? OFFSET ?`,
        [...scope.parameters, limit, offset],
      ),
      this.repository.query<Array<{ n: number | string }>>(
        `SELECT COUNT(*) AS n FROM ${this.table} ${where}`,
        [...scope.parameters],
      ),
    ]);
    return { items, total: Number(counted[0].n) };
  }

  /** 'out_of_scope': the id is not one the request's key may see (nothing written); 'duplicate': taken. */
  async insertInScope(
    manager: EntityManager,
    entity: NotificationEntity,
  ): Promise<'inserted' | 'duplicate' | 'out_of_scope'> {
    if (!RelayerScope.admits(entity.id)) return 'out_of_scope';
    return (await this.insertNew(manager, entity)) ? 'inserted' : 'duplicate';
  }

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
