import { Injectable } from '@nestjs/common';
import { EntityRepository } from '../database/entity-rows';
import type { ReadTx } from '../database/transactions';
import { WebhookEventEntity } from './webhook-event.entity';

/** Events looked at per statement of a clean-up. */
const CLEANUP_CHUNK = 1000;

const UNREFERENCED =
  'id IN (:...ids) AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = webhook_events.id)';

/**
 * The bodies of events (docs/reference/webhooks.md#33-retention): written with their deliveries,
 * removed once no delivery references them. A delivery of an event is only ever written in the
 * event's own transaction, so a body without one never gets one again.
 */
@Injectable()
export class WebhookEventsRepository extends EntityRepository(WebhookEventEntity) {
  /**
   * Removes the bodies of events created before `before` that no delivery references, oldest first, a
   * range of idx_webhook_events_created per statement (what retention just left behind, and the
   * bodies of long pending deliveries, looked at and kept), until done or `stopped()`. Answers how
   * many it removed.
   */
  async deleteUnreferencedBefore(before: Date, stopped: () => boolean, tx: ReadTx): Promise<number> {
    const { manager } = tx;
    const column = this.repository.metadata.findColumnWithPropertyName('createdAt');
    if (!column) throw new Error('no column created_at on webhook_events');
    const until = manager.connection.driver.preparePersistentValue(before, column) as unknown;
    let removed = 0;
    let from: { at: unknown; id: string } | null = null;
    while (!stopped()) {
      const after: string = from ? ' AND created_at >= ? AND (created_at > ? OR id > ?)' : '';
      const rows: Array<{ id: string; created_at: unknown }> = await manager.query(
        `SELECT id, created_at FROM webhook_events WHERE created_at < ?${after}
          ORDER BY created_at, id LIMIT ${CLEANUP_CHUNK}`,
        from ? [until, from.at, from.at, from.id] : [until],
      );
      const last = rows.at(-1);
      if (last === undefined) break;
      removed += await this.deleteUnreferencedOf(
        rows.map((row) => row.id),
        tx,
      );
      from = { at: last.created_at, id: last.id };
    }
    return removed;
  }

  /**
   * Removes every body no delivery references, whatever its age, a range of the primary key per
   * statement, until done or `stopped()`: after a target was deleted with its deliveries, and now and
   * then. Answers how many it removed.
   */
  async deleteUnreferenced(stopped: () => boolean, tx: ReadTx): Promise<number> {
    const { manager } = tx;
    let removed = 0;
    for (let after = ''; !stopped();) {
      const rows = await manager.query<Array<{ id: string }>>(
        `SELECT id FROM webhook_events WHERE id > ? ORDER BY id LIMIT ${CLEANUP_CHUNK}`,
        [after],
      );
      const last = rows.at(-1);
      if (last === undefined) break;
      removed += await this.deleteUnreferencedOf(
        rows.map((row) => row.id),
        tx,
      );
      after = last.id;
    }
    return removed;
  }

  /** Those of `ids` no delivery references, checked again as they are deleted. */
  private async deleteUnreferencedOf(ids: readonly string[], { manager }: ReadTx): Promise<number> {
    const result = await manager
      .createQueryBuilder()
      .delete()
      .from(WebhookEventEntity)
      .where(UNREFERENCED, { ids })
      .execute();
    return result.affected ?? 0;
  }
}
