import { Injectable } from '@nestjs/common';
import { EntityRepository } from '../database/entity-rows';
import type { ReadTx } from '../database/transactions';
import { DeliveryHourEntity } from './delivery-hour.entity';
import { decodeHistogram, encodeHistogram, hourKey, hourStart, type HourTotals } from './delivery-hours';

/** Rows written or deleted per statement. */
const CHUNK = 200;

/**
 * webhook_delivery_hours (src/webhooks/delivery-hours.ts): a window's hours are one range of the
 * primary key (notification_id, hour).
 */
@Injectable()
export class DeliveryHoursRepository extends EntityRepository(DeliveryHourEntity) {
  /** The target's hours kept within [from, to) (starts of hours), by their start. */
  async findBetween(notificationId: string, from: number, to: number): Promise<Map<number, HourTotals>> {
    const rows = await this.repository.query<
      Array<{
        hour: string;
        delivered: number | string;
        failed: number | string;
        retried: number | string;
        failures: number | string;
        latencies: string;
      }>
    >(
      `SELECT hour, delivered, failed, retried, failures, latencies FROM webhook_delivery_hours
        WHERE notification_id = ? AND hour >= ? AND hour < ?`,
      [notificationId, hourKey(from), hourKey(to)],
    );
    return new Map(
      rows.map((row) => [
        hourStart(row.hour),
        {
          delivered: Number(row.delivered),
          failed: Number(row.failed),
          retried: Number(row.retried),
          failures: Number(row.failures),
          latencies: decodeHistogram(row.latencies),
        },
      ]),
    );
  }

  /** In the caller's transaction: keeps the totals of these hours (replacing any kept meanwhile). */
  async keep(
    notificationId: string,
    hours: ReadonlyMap<number, HourTotals>,
    { manager }: ReadTx,
  ): Promise<void> {
    const rows = [...hours].map(([at, totals]) => ({
      notificationId,
      hour: hourKey(at),
      delivered: totals.delivered,
      failed: totals.failed,
      retried: totals.retried,
      failures: totals.failures,
      latencies: encodeHistogram(totals.latencies),
    }));
    for (let i = 0; i < rows.length; i += CHUNK) {
      await manager
        .createQueryBuilder()
        .insert()
        .into(DeliveryHourEntity)
        .values(rows.slice(i, i + CHUNK))
        // Another read may have kept the same hour meanwhile: from the same deliveries, the same totals.
        .orUpdate(['delivered', 'failed', 'retried', 'failures', 'latencies'], ['notification_id', 'hour'])
        .execute();
    }
  }

  /**
   * In the caller's transaction, before it queues again ended deliveries: forgets the hours they ended
   * and last failed in (`YYYY-MM-DD HH` keys), to be summed up again by the next read that needs them.
   */
  async forget(notificationId: string, hours: Iterable<string>, { manager }: ReadTx): Promise<void> {
    const keys = [...new Set(hours)];
    for (let i = 0; i < keys.length; i += CHUNK) {
      const chunk = keys.slice(i, i + CHUNK);
      await manager.query(
        `DELETE FROM webhook_delivery_hours WHERE notification_id = ? AND hour IN (${chunk.map(() => '?').join(', ')})`,
        [notificationId, ...chunk],
      );
    }
  }
}
