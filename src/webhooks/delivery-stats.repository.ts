import { Injectable } from '@nestjs/common';
import { EntityRepository } from '../database/entity-rows';
import { DeliveryEntity } from './delivery.entity';

/** What the stats of one target are made of (docs/reference/webhooks.md#9-stats). */
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

/** One hour of a target's log (docs/reference/webhooks.md#95-the-hourly-series). */
export interface HourCounts {
  readonly delivered: number;
  readonly failed: number;
  readonly p95: number | null;
}

type Count = number | string | null;

const HOUR_MS = 3600_000;

/** The hour of a stored datetime, `YYYY-MM-DD HH` (UTC): its text's first 13 characters on both databases. */
const hourOf = (column: string) => `SUBSTR(${column}, 1, 13)`;

/**
 * The `percent`th percentile by nearest rank (the value at place ceil(percent / 100 * n), from 1) of
 * the values a histogram counts, in ascending order of value; null when it counts none.
 */
export function percentileOf(
  histogram: ReadonlyArray<{ readonly value: number; readonly n: number }>,
  percent: number,
): number | null {
  const total = histogram.reduce((sum, bucket) => sum + bucket.n, 0);
  if (total === 0) return null;
  const place = Math.max(1, Math.ceil((percent * total) / 100));
  let seen = 0;
  for (const bucket of histogram) {
    seen += bucket.n;
    if (seen >= place) return bucket.value;
  }
  return histogram[histogram.length - 1].value;
}

/**
 * Every statement is a range of idx_webhook_deliveries_stats (notification_id, status, ended_at,
 * attempts, latency_ms), which holds all the columns it reads, or of idx_webhook_deliveries_failed
 * (notification_id, failed_at) for the failures as they happened: the counts and the latencies cost
 * the deliveries of the window, never the rest of the log; pending and the last ones cost the
 * backlog and one entry (and the last failure's row, for its error). The database groups the
 * latencies; only their distinct values reach Node, never the rows. A key limited to some relayers
 * gets the stats of the deliveries about them alone (docs/reference/keys-and-audit.md#3-relayer-scope):
 * each statement then has the scope's condition on `relayer_id` too, which the index does not hold,
 * so that the last ones are looked for within the window (a range of it, as the counts), not
 * through the whole log until one of the scope's turns up; without a scope, the statements are as
 * they are.
 */
@Injectable()
export class DeliveryStatsRepository extends EntityRepository(DeliveryEntity) {
  protected override readonly scopeColumn = 'relayer_id';

  async countsOf(notificationId: string, since: Date): Promise<DeliveryCounts> {
    const from = this.persisted('endedAt', since);
    const scope = this.scoped();
    const [and, p] = [scope.sql, scope.parameters];
    // A scoped key's condition on relayer_id is none of the index's columns: its last ones are looked
    // for in the window only, never in the whole log (docs/reference/webhooks.md#94-the-cost).
    const [last, lastParameters] = and === '' ? ['', []] : [' AND ended_at >= ?', [from]];
    const failedSince = and === '' ? '' : ' AND failed_at >= ?';
    const [delivered, failed, now, lastFailed] = await Promise.all([
      // The delivered ones by latency (whole milliseconds, at most about WEBHOOK_TIMEOUT_MS distinct
      // values, and null): their count, how many were retried and the histogram, in one range.
      this.repository.query<Array<{ latency_ms: Count; n: Count; retried: Count }>>(
        `SELECT latency_ms, COUNT(*) AS n, SUM(CASE WHEN attempts > 1 THEN 1 ELSE 0 END) AS retried
           FROM webhook_deliveries
          WHERE notification_id = ? AND status = 'delivered' AND ended_at >= ?${and}
          GROUP BY latency_ms
          ORDER BY latency_ms`,
        [notificationId, from, ...p],
      ),
      this.repository.query<Array<{ n: Count; retried: Count }>>(
        `SELECT COUNT(*) AS n, SUM(CASE WHEN attempts > 1 THEN 1 ELSE 0 END) AS retried
           FROM webhook_deliveries
          WHERE notification_id = ? AND status = 'failed' AND ended_at >= ?${and}`,
        [notificationId, from, ...p],
      ),
      this.repository.query<Array<{ pending: Count; last_delivered_at: unknown }>>(
        `SELECT (SELECT COUNT(*) FROM webhook_deliveries
                  WHERE notification_id = ? AND status = 'pending'${and}) AS pending,
                (SELECT MAX(ended_at) FROM webhook_deliveries
                  WHERE notification_id = ? AND status = 'delivered'${last}${and}) AS last_delivered_at`,
        [notificationId, ...p, notificationId, ...lastParameters, ...p],
      ),
      // By failed_at, which a replay, a retry and a later success keep: a failure is not forgotten.
      this.repository.query<Array<{ failed_at: unknown; failed_error: string | null }>>(
        `SELECT failed_at, failed_error FROM webhook_deliveries
          WHERE notification_id = ? AND failed_at IS NOT NULL${failedSince}${and}
          ORDER BY failed_at DESC LIMIT 1`,
        [notificationId, ...lastParameters, ...p],
      ),
    ]);
    const sum = (rows: ReadonlyArray<{ n: Count; retried: Count }>, key: 'n' | 'retried') =>
      rows.reduce((total, row) => total + Number(row[key] ?? 0), 0);
    const histogram = delivered
      .filter((row) => row.latency_ms !== null)
      .map((row) => ({ value: Number(row.latency_ms), n: Number(row.n) }));
    return {
      delivered: sum(delivered, 'n'),
      failed: sum(failed, 'n'),
      pending: Number(now[0]?.pending ?? 0),
      retried: sum(delivered, 'retried') + sum(failed, 'retried'),
      latency: {
        p50: percentileOf(histogram, 50),
        p95: percentileOf(histogram, 95),
        max: histogram.at(-1)?.value ?? null,
      },
      lastDeliveredAt: this.hydrated('endedAt', now[0]?.last_delivered_at),
      lastFailedAt: this.hydrated('failedAt', lastFailed[0]?.failed_at),
      lastError: lastFailed[0]?.failed_error ?? null,
    };
  }

  /**
   * The target's deliveries in each of `hours` hours from `first` (the start of an hour), oldest
   * first: those delivered in it (by `ended_at`), those whose last failure was in it (by
   * `failed_at`), and the 95th percentile of the delivered ones' latencies as `countsOf` finds it
   * (percentileOf over their histogram). The failures are one range of idx_webhook_deliveries_failed
   * grouped by hour; the delivered ones one range of idx_webhook_deliveries_stats per hour, grouped by
   * latency: one hour's histogram (at most about WEBHOOK_TIMEOUT_MS values) reaches Node at a time,
   * never a delivery. One statement per hour, one after the other: grouping a whole week by hour and
   * latency at once took MariaDB 30 s and more for 1,000,000 deliveries (its temporary table), the
   * hours one by one about 2 s (docs/reference/webhooks.md#96-the-cost-of-the-series).
   */
  async hourlyOf(notificationId: string, first: Date, hours: number): Promise<HourCounts[]> {
    const { sql: and, parameters: p } = this.scoped();
    const hourStart = (i: number) => this.persisted('endedAt', new Date(first.getTime() + i * HOUR_MS));
    const failures = await this.repository.query<Array<{ at_hour: string; n: Count }>>(
      `SELECT ${hourOf('failed_at')} AS at_hour, COUNT(*) AS n
         FROM webhook_deliveries
        WHERE notification_id = ? AND failed_at >= ? AND failed_at < ?${and}
        GROUP BY ${hourOf('failed_at')}`,
      [notificationId, hourStart(0), hourStart(hours), ...p],
    );
    const failedIn = new Map(
      failures.map((row) => [Date.parse(`${row.at_hour.replace(' ', 'T')}:00:00.000Z`), Number(row.n ?? 0)]),
    );
    const counted: HourCounts[] = [];
    for (let i = 0; i < hours; i++) {
      const delivered = await this.repository.query<Array<{ latency_ms: Count; n: Count }>>(
        `SELECT latency_ms, COUNT(*) AS n
           FROM webhook_deliveries
          WHERE notification_id = ? AND status = 'delivered' AND ended_at >= ? AND ended_at < ?${and}
          GROUP BY latency_ms
          ORDER BY latency_ms`,
        [notificationId, hourStart(i), hourStart(i + 1), ...p],
      );
      const histogram = delivered
        .filter((row) => row.latency_ms !== null)
        .map((row) => ({ value: Number(row.latency_ms), n: Number(row.n) }));
      counted.push({
        delivered: delivered.reduce((sum, row) => sum + Number(row.n ?? 0), 0),
        failed: failedIn.get(first.getTime() + i * HOUR_MS) ?? 0,
        p95: percentileOf(histogram, 95),
      });
    }
    return counted;
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
