import { Injectable } from '@nestjs/common';
import { EntityRepository } from '../database/entity-rows';
import { DeliveryEntity } from './delivery.entity';

/** What the stats of one target are made of (docs/reference/webhooks.md#6-stats). */
export interface DeliveryCounts {
  readonly delivered: number;
  readonly failed: number;
  readonly pending: number;
  readonly retried: number;
  readonly latency: { readonly p50: number | null; readonly p95: number | null; readonly max: number | null };
  readonly lastDeliveredAt: Date | null;
  readonly lastFailedAt: Date | null;
  readonly lastError: string | null;
}

type Count = number | string | null;

/** The nearest-rank place of the `percent`th percentile among `n` values (1-based). */
export function nearestRank(percent: number, n: number): number {
  return Math.max(1, Math.ceil((percent * n) / 100));
}

/**
 * Every statement is a range of idx_webhook_deliveries_stats (notification_id, status, ended_at,
 * attempts, latency_ms), which holds all the columns it reads but `last_error`: the cost is the
 * deliveries of the window, never the rest of the log, and the percentiles are ranked in SQL.
 */
@Injectable()
export class DeliveryStatsRepository extends EntityRepository(DeliveryEntity) {
  async countsOf(notificationId: string, since: Date): Promise<DeliveryCounts> {
    const from = this.persisted('endedAt', since);
    const [ended, now, lastFailed] = await Promise.all([
      this.repository.query<
        Array<{ status: string; ended: Count; retried: Count; timed: Count; slowest: Count }>
      >(
        `SELECT status, COUNT(*) AS ended, SUM(CASE WHEN attempts > 1 THEN 1 ELSE 0 END) AS retried,
                COUNT(latency_ms) AS timed, MAX(latency_ms) AS slowest
           FROM webhook_deliveries
          WHERE notification_id = ? AND status IN ('delivered', 'failed') AND ended_at >= ?
          GROUP BY status`,
        [notificationId, from],
      ),
      this.repository.query<Array<{ pending: Count; last_delivered_at: unknown }>>(
        `SELECT (SELECT COUNT(*) FROM webhook_deliveries
                  WHERE notification_id = ? AND status = 'pending') AS pending,
                (SELECT MAX(ended_at) FROM webhook_deliveries
                  WHERE notification_id = ? AND status = 'delivered') AS last_delivered_at`,
        [notificationId, notificationId],
      ),
      this.repository.query<Array<{ ended_at: unknown; last_error: string | null }>>(
        `SELECT ended_at, last_error FROM webhook_deliveries
          WHERE notification_id = ? AND status = 'failed'
          ORDER BY ended_at DESC LIMIT 1`,
        [notificationId],
      ),
    ]);
    const of = (status: string) => ended.find((row) => row.status === status);
    const delivered = of('delivered');
    const failed = of('failed');
    const timed = Number(delivered?.timed ?? 0);
    const slowest = delivered?.slowest === null || delivered === undefined ? null : Number(delivered.slowest);
    return {
      delivered: Number(delivered?.ended ?? 0),
      failed: Number(failed?.ended ?? 0),
      pending: Number(now[0]?.pending ?? 0),
      retried: Number(delivered?.retried ?? 0) + Number(failed?.retried ?? 0),
      latency: { ...(await this.percentiles(notificationId, from, timed, slowest)), max: slowest },
      lastDeliveredAt: this.hydrated('endedAt', now[0]?.last_delivered_at),
      lastFailedAt: this.hydrated('endedAt', lastFailed[0]?.ended_at),
      lastError: lastFailed[0]?.last_error ?? null,
    };
  }

  /**
   * p50 and p95 by nearest rank among the `timed` delivered deliveries of the window, ranked by the
   * database; a rank a concurrent change left empty falls back to the largest value found (or `max`).
   */
  private async percentiles(
    notificationId: string,
    from: unknown,
    timed: number,
    max: number | null,
  ): Promise<{ p50: number | null; p95: number | null }> {
    if (timed === 0) return { p50: null, p95: null };
    const [p50, p95] = [nearestRank(50, timed), nearestRank(95, timed)];
    const rows = await this.repository.query<Array<{ place: Count; latency_ms: Count }>>(
      `SELECT place, latency_ms FROM (
         SELECT latency_ms, ROW_NUMBER() OVER (ORDER BY latency_ms) AS place
           FROM webhook_deliveries
          WHERE notification_id = ? AND status = 'delivered' AND ended_at >= ? AND latency_ms IS NOT NULL
       ) ranked
       WHERE place IN (?, ?)`,
      [notificationId, from, p50, p95],
    );
    const at = (place: number) => {
      const row = rows.find((r) => Number(r.place) === place);
      return row ? Number(row.latency_ms) : null;
    };
    const found = rows.map((r) => Number(r.latency_ms));
    const fallback = found.length > 0 ? Math.max(...found) : max;
    return { p50: at(p50) ?? fallback, p95: at(p95) ?? fallback };
  }

  /** A value as the driver writes the column (SQLite keeps datetimes as text). */
  private persisted(property: keyof DeliveryEntity, value: unknown): unknown {
    const column = this.repository.metadata.findColumnWithPropertyName(property);
    if (!column) throw new Error(`no column ${property} on webhook_deliveries`);
    return this.repository.manager.connection.driver.preparePersistentValue(value, column) as unknown;
  }

  private hydrated(property: keyof DeliveryEntity, value: unknown): Date | null {
    if (value === null || value === undefined) return null;
    const column = this.repository.metadata.findColumnWithPropertyName(property);
    if (!column) throw new Error(`no column ${property} on webhook_deliveries`);
    return this.repository.manager.connection.driver.prepareHydratedValue(value, column) as Date;
  }
}
