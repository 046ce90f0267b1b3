import { Injectable } from '@nestjs/common';
import { RelayerScope } from '../common/auth/relayer-scope';
import { isForeignKeyViolation } from '../common/errors/database-errors';
import { EntityRepository } from '../database/entity-rows';
import type { ReadTx } from '../database/transactions';
import { NotificationEntity } from './notification.entity';

export type NotificationChanges = Partial<
  Pick<NotificationEntity, 'type' | 'url' | 'signingKey' | 'previousSigningKey' | 'signingKeyOverlapUntil'>
>;

export type PauseChanges = Pick<NotificationEntity, 'pausedAt' | 'pausedReason'>;

/**
 * Every read of targets a request can reach goes through here, and sees only the targets of the
 * request's key (docs/reference/keys-and-audit.md#3-relayer-scope): one outside its scope is missing
 * to it, in lists (filtered in the query, counts included) as for one id, on every route under
 * `/notifications/{id}` (the webhook routes ask `exists`). Writes follow the read of the row of
 * ResourceWrites or SubResourceWrites, so they never reach one either; an insert outside the scope is
 * refused. Work outside a request (the dispatcher) has no scope and sees every target.
 */
@Injectable()
export class NotificationsRepository extends EntityRepository(NotificationEntity) {
  protected override readonly scopeColumn = 'id';

  /** 'out_of_scope': the id is not one the request's key may see (nothing written); 'duplicate': taken. */
  async insertInScope(
    entity: NotificationEntity,
    tx: ReadTx,
  ): Promise<'inserted' | 'duplicate' | 'out_of_scope'> {
    if (!RelayerScope.admits(entity.id)) return 'out_of_scope';
    return (await this.insertNew(entity, tx)) ? 'inserted' : 'duplicate';
  }

  /** Only while the row has `version`. */
  update(
    id: string,
    changes: NotificationChanges & Pick<NotificationEntity, 'updatedAt'>,
    version: number,
    tx: ReadTx,
  ): Promise<boolean> {
    return this.updateVersioned(id, version, changes, tx);
  }

  /** docs/reference/webhooks.md#10-pausing-a-target. The version stays: the resource did not change. */
  async setPause(id: string, changes: PauseChanges, { manager }: ReadTx): Promise<void> {
    await manager.update(NotificationEntity, { id }, changes);
  }

  async countPaused(): Promise<number> {
    const rows = await this.repository.query<Array<{ n: number | string }>>(
      'SELECT COUNT(*) AS n FROM notifications WHERE paused_at IS NOT NULL',
    );
    return Number(rows[0]?.n ?? 0);
  }

  /** The foreign key decides 'in_use', even against a racing write. */
  async deleteById(
    id: string,
    version: number | undefined,
    tx: ReadTx,
  ): Promise<'deleted' | 'missing' | 'in_use'> {
    try {
      return (await this.deleteVersioned(id, version, tx)) ? 'deleted' : 'missing';
    } catch (error) {
      if (isForeignKeyViolation(error)) return 'in_use';
      throw error;
    }
  }
}
