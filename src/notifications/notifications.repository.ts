import { Injectable } from '@nestjs/common';
import { RelayerScope, type ScopeCondition } from '../common/auth/relayer-scope';
import { isForeignKeyViolation } from '../common/errors/database-errors';
import { EntityRepository } from '../database/entity-rows';
import type { ReadTx } from '../database/transactions';
import { NotificationEntity } from './notification.entity';
import { rateBelowFailing } from './target-health';
import { kindCondition, WEBHOOK_TARGETS, type TargetKind } from './target-kind';

export type NotificationChanges = Partial<
  Pick<
    NotificationEntity,
    'type' | 'url' | 'signingKey' | 'previousSigningKey' | 'signingKeyOverlapUntil' | 'channelConfig'
  >
>;

export type PauseChanges = Pick<NotificationEntity, 'pausedAt' | 'pausedReason'>;

export type SchemeChanges = Pick<NotificationEntity, 'signingScheme'>;

/** The index of the delivery log by end time (1795400000000-CreateWebhookDeliveries). */
const ENDED_INDEX = 'idx_webhook_deliveries_ended_at';

/** What the list may be filtered by (docs/reference/notifications.md#13-read-and-list). */
export interface NotificationFilter {
  /** Only the failing targets (true) or only the others (false), judged on what ended since `since`. */
  readonly failing?: { readonly is: boolean; readonly since: Date };
}

/** How many of the targets a key may see there are, and how many paused and failing (the summary). */
export interface NotificationCounts {
  readonly total: number;
  readonly paused: number;
  readonly failing: number;
}

/**
 * Every read of targets a request can reach goes through here, and sees only the targets of the
 * request's key (docs/reference/keys-and-audit.md#3-relayer-scope): one outside its scope is missing
 * to it, in lists (filtered in the query, counts included) as for one id, on every route under
 * `/notifications/{id}` (the webhook routes ask `exists`). Writes follow the read of the row of
 * ResourceWrites or SubResourceWrites, so they never reach one either; an insert outside the scope is
 * refused. Work outside a request (the dispatcher) has no scope and sees every target.
 *
 * Each read here sees only the webhook targets (TargetKind): AlertChannelsRepository reads the alert
 * channels of the same table, and findDeliveryTarget, for the dispatcher, either.
 */
@Injectable()
export class NotificationsRepository extends EntityRepository(NotificationEntity) {
  protected override readonly scopeColumn = 'id';
  readonly kind: TargetKind = WEBHOOK_TARGETS;

  /** The request's scope and this repository's kind. */
  protected override scoped(): ScopeCondition {
    const scope = super.scoped();
    return { sql: `${kindCondition(this.kind)}${scope.sql}`, parameters: scope.parameters };
  }

  /**
   * Any target, webhook or alert channel, within the request's scope (none outside a request): what
   * the dispatcher sends to. Read on `tx` when given (WorkerDatabase).
   */
  async findDeliveryTarget(id: string, tx?: ReadTx): Promise<NotificationEntity | null> {
    const scope = super.scoped();
    const [found] = await this.select(
      `SELECT ${this.columns} FROM notifications WHERE id = ?${scope.sql}`,
      [id, ...scope.parameters],
      tx,
    );
    return found ?? null;
  }

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

  /** docs/reference/webhooks.md#13-standard-webhooks. The version stays, as for a pause. */
  async setSigningScheme(id: string, changes: SchemeChanges, { manager }: ReadTx): Promise<void> {
    await manager.update(NotificationEntity, { id }, changes);
  }

  /** One page of the request's scope, filtered in the query, `total` counting the filtered list. */
  override findPage(
    offset: number,
    limit: number,
    filter: NotificationFilter = {},
  ): Promise<{ items: NotificationEntity[]; total: number }> {
    if (filter.failing === undefined) return super.findPage(offset, limit);
    const failing = this.failing(filter.failing.since);
    return this.findPageWhere(offset, limit, {
      sql: ` AND ${filter.failing.is ? '' : 'NOT '}${failing.sql}`,
      parameters: failing.parameters,
    });
  }

  /** The targets of the request's scope counted, paused and failing, in one statement. */
  async countByHealth(since: Date): Promise<NotificationCounts> {
    const scope = this.scoped();
    const failing = this.failing(since);
    const [row] = await this.repository.query<Array<Record<'total' | 'paused' | 'failing', number | string>>>(
      `SELECT COUNT(*) AS total,
              COALESCE(SUM(CASE WHEN paused_at IS NOT NULL THEN 1 ELSE 0 END), 0) AS paused,
              COALESCE(SUM(CASE WHEN ${failing.sql} THEN 1 ELSE 0 END), 0) AS failing
         FROM notifications WHERE 1 = 1${scope.sql}`,
      [...failing.parameters, ...scope.parameters],
    );
    return { total: Number(row.total), paused: Number(row.paused), failing: Number(row.failing) };
  }

  /**
   * A row of `notifications` failing (docs/reference/webhooks.md#97-failing-targets-and-the-summary):
   * paused, or among the targets whose deliveries that ended since `since` are under the success rate
   * of FAILING_BELOW (rateBelowFailing). Those are found once per statement, not per target: one range
   * of idx_webhook_deliveries_ended_at over the window, every target's deliveries in it, each row read
   * for its target, status and relayer, grouped in the database. The index is named: SQLite's planner,
   * without statistics, took idx_webhook_deliveries_due (every delivered and failed one of the log);
   * and a subquery per target on idx_webhook_deliveries_stats, a range of the window on SQLite, is read
   * by MariaDB through its (notification_id, status) prefix only: the target's whole log. For a key
   * limited to some relayers only the deliveries about them count, as in its stats
   * (docs/reference/webhooks.md#94-the-cost).
   */
  private failing(since: Date): { sql: string; parameters: unknown[] } {
    const deliveries = RelayerScope.filter('relayer_id');
    const count = (status: 'delivered' | 'failed') => `SUM(CASE WHEN status = '${status}' THEN 1 ELSE 0 END)`;
    const below =
      `SELECT notification_id FROM webhook_deliveries${this.dialect.throughIndex(ENDED_INDEX)} ` +
      `WHERE ended_at >= ? AND status IN ('delivered', 'failed')${deliveries.sql} ` +
      `GROUP BY notification_id HAVING ${rateBelowFailing(count('delivered'), count('failed'))}`;
    return {
      sql: `(notifications.paused_at IS NOT NULL OR notifications.id IN (${below}))`,
      parameters: [this.persistedTime(since), ...deliveries.parameters],
    };
  }

  /** A time as the driver writes a datetime(3) column, as paused_at and ended_at (SQLite keeps text). */
  private persistedTime(at: Date): unknown {
    const column = this.repository.metadata.findColumnWithPropertyName('pausedAt');
    if (!column) throw new Error('no column pausedAt on notifications');
    return this.repository.manager.connection.driver.preparePersistentValue(at, column) as unknown;
  }

  async countPaused(): Promise<number> {
    const rows = await this.repository.query<Array<{ n: number | string }>>(
      `SELECT COUNT(*) AS n FROM notifications WHERE paused_at IS NOT NULL${kindCondition(this.kind)}`,
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
