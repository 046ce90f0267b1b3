import { Injectable } from '@nestjs/common';
import { EntityRepository } from '../database/entity-rows';
import type { ReadTx } from '../database/transactions';
import { DeliveryEntity } from './delivery.entity';
import { HOUR_MS, hourStart, mergeHistograms, type Histogram, type HourTotals } from './delivery-hours';

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

/**
 * Whole closed hours of the window whose totals webhook_delivery_hours holds
 * (src/webhooks/delivery-hours.ts): [from, to), the start of an hour to the start of another.
 */
export interface ClosedHours {
  readonly from: number;
  readonly to: number;
  /** Each hour of [from, to), by its start. */
  readonly hours: ReadonlyMap<number, HourTotals>;
}

/** The latencies of rows grouped by latency_ms, the null one left out. */
const histogramOf = (rows: ReadonlyArray<{ latency_ms: Count; n: Count }>): Histogram =>
  rows
    .filter((row) => row.latency_ms !== null)
    .map((row) => ({ value: Number(row.latency_ms), n: Number(row.n) }));

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

  /**
   * `closed`: hours of the window whose totals are kept, read from them instead of the deliveries
   * (never with a key limited to some relayers: the totals are the target's); the rest of the window,
   * its first part hour and its last hours not closed yet, from the deliveries as ever.
   */
  async countsOf(
    notificationId: string,
    since: Date,
    closed: ClosedHours | null = null,
  ): Promise<DeliveryCounts> {
    const from = this.persisted('endedAt', since);
    const scope = this.scoped();
    const [and, p] = [scope.sql, scope.parameters];
    const totals = and === '' ? closed : null;
    // The ranges of ended_at read from the deliveries: [since, closed.from) and [closed.to, ...).
    const ranges: Array<[unknown, unknown]> =
      totals === null
        ? [[from, null]]
        : [
            ...(since.getTime() < totals.from
              ? [[from, this.persisted('endedAt', new Date(totals.from))] as [unknown, unknown]]
              : []),
            [this.persisted('endedAt', new Date(totals.to)), null],
          ];
    const within = ([, until]: [unknown, unknown]) => (until === null ? '' : ' AND ended_at < ?');
    const bounds = ([start, until]: [unknown, unknown]) => (until === null ? [start] : [start, until]);
    // A scoped key's condition on relayer_id is none of the index's columns: its last ones are looked
    // for in the window only, never in the whole log (docs/reference/webhooks.md#94-the-cost).
    const [last, lastParameters] = and === '' ? ['', []] : [' AND ended_at >= ?', [from]];
    const failedSince = and === '' ? '' : ' AND failed_at >= ?';
    const [delivered, failed, now, lastFailed] = await Promise.all([
      // The delivered ones by latency (whole milliseconds, at most about WEBHOOK_TIMEOUT_MS distinct
      // values, and null): their count, how many were retried and the histogram, in one range.
      Promise.all(
        ranges.map((range) =>
          this.repository.query<Array<{ latency_ms: Count; n: Count; retried: Count }>>(
            `SELECT latency_ms, COUNT(*) AS n, SUM(CASE WHEN attempts > 1 THEN 1 ELSE 0 END) AS retried
               FROM webhook_deliveries
              WHERE notification_id = ? AND status = 'delivered' AND ended_at >= ?${within(range)}${and}
              GROUP BY latency_ms
              ORDER BY latency_ms`,
            [notificationId, ...bounds(range), ...p],
          ),
        ),
      ),
      Promise.all(
        ranges.map((range) =>
          this.repository.query<Array<{ n: Count; retried: Count }>>(
            `SELECT COUNT(*) AS n, SUM(CASE WHEN attempts > 1 THEN 1 ELSE 0 END) AS retried
               FROM webhook_deliveries
              WHERE notification_id = ? AND status = 'failed' AND ended_at >= ?${within(range)}${and}`,
            [notificationId, ...bounds(range), ...p],
          ),
        ),
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
    const kept = [...(totals?.hours.values() ?? [])];
    const add = (key: 'delivered' | 'failed' | 'retried') =>
      kept.reduce((total, hour) => total + hour[key], 0);
    const histogram = mergeHistograms([...delivered.map(histogramOf), ...kept.map((hour) => hour.latencies)]);
    return {
      delivered: delivered.reduce((total, rows) => total + sum(rows, 'n'), add('delivered')),
      failed: failed.reduce((total, rows) => total + sum(rows, 'n'), add('failed')),
      pending: Number(now[0]?.pending ?? 0),
      retried: [...delivered, ...failed].reduce(
        (total, rows) => total + sum(rows, 'retried'),
        add('retried'),
      ),
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
   * (percentileOf over their histogram). An hour `closed` holds is read from it (never with a key
   * limited to some relayers). The others: their failures are one range of
   * idx_webhook_deliveries_failed grouped by hour; the delivered ones one range of
   * idx_webhook_deliveries_stats per hour, grouped by latency: one hour's histogram (at most about
   * WEBHOOK_TIMEOUT_MS values) reaches Node at a time, never a delivery. One statement per hour, one
   * after the other: grouping a whole week by hour and latency at once took MariaDB 30 s and more for
   * 1,000,000 deliveries (its temporary table), the hours one by one about 2 s
   * (docs/reference/webhooks.md#96-the-cost-of-the-series).
   */
  async hourlyOf(
    notificationId: string,
    first: Date,
    hours: number,
    closed: ReadonlyMap<number, HourTotals> = new Map(),
  ): Promise<HourCounts[]> {
    const { sql: and } = this.scoped();
    const kept = and === '' ? closed : new Map<number, HourTotals>();
    const starts = Array.from({ length: hours }, (_, i) => first.getTime() + i * HOUR_MS);
    const read = starts.filter((at) => !kept.has(at));
    const counted = new Map<number, HourCounts>(
      [...kept].map(([at, hour]) => [
        at,
        { delivered: hour.delivered, failed: hour.failures, p95: percentileOf(hour.latencies, 95) },
      ]),
    );
    if (read.length > 0) {
      for (const [at, hour] of await this.hoursFromDeliveries(notificationId, read)) {
        counted.set(at, {
          delivered: hour.delivered,
          failed: hour.failures,
          p95: percentileOf(hour.latencies, 95),
        });
      }
    }
    return starts.map((at) => counted.get(at) ?? { delivered: 0, failed: 0, p95: null });
  }

  /**
   * In the caller's transaction: the totals of the target's closed hours `hours` (starts of hours,
   * ascending) from its deliveries, read with a locking read (MySQL; SQLite has one writer at a time)
   * so that no retry or replay of them commits until the caller has kept them. `unsettled`: hours one
   * of whose failures (by `failed_at`) is pending again, after a retry or a replay: its next end may
   * move that failure out of the hour, so that such an hour is not kept until it has ended.
   */
  async totalsOf(
    notificationId: string,
    hours: readonly number[],
    tx: ReadTx,
  ): Promise<{ totals: Map<number, HourTotals>; unsettled: Set<number> }> {
    const totals = await this.hoursFromDeliveries(notificationId, hours, tx);
    const unsettled = new Set([...totals].filter(([, hour]) => hour.pendingFailures > 0).map(([at]) => at));
    return { totals, unsettled };
  }

  /** The hours `hours` (ascending) from the target's deliveries: in `tx` with locking reads, or not. */
  private async hoursFromDeliveries(
    notificationId: string,
    hours: readonly number[],
    tx?: ReadTx,
  ): Promise<Map<number, HourTotals & { readonly pendingFailures: number }>> {
    const { sql: and, parameters: p } = tx === undefined ? this.scoped() : { sql: '', parameters: [] };
    const query = tx === undefined ? this.repository.manager : tx.manager;
    const lock = tx === undefined ? '' : this.dialect.lockingRead('share');
    const at = (ms: number) => this.persisted('endedAt', new Date(ms));
    const [start, end] = [at(hours[0]), at(hours[hours.length - 1] + HOUR_MS)];
    const byHour = <R extends { at_hour: string }>(rows: R[]) =>
      new Map(rows.map((row) => [hourStart(row.at_hour), row]));
    const failures = byHour(
      await query.query<Array<{ at_hour: string; n: Count; pending: Count }>>(
        `SELECT ${hourOf('failed_at')} AS at_hour, COUNT(*) AS n,
                SUM(CASE WHEN status = 'pending' THEN 1 ELSE 0 END) AS pending
           FROM webhook_deliveries
          WHERE notification_id = ? AND failed_at >= ? AND failed_at < ?${and}
          GROUP BY ${hourOf('failed_at')}${lock}`,
        [notificationId, start, end, ...p],
      ),
    );
    // Those that ended failed, by the hour they ended (the stats' `failed`); none for the series.
    const failed =
      tx === undefined
        ? new Map<number, { n: Count; retried: Count }>()
        : byHour(
            await query.query<Array<{ at_hour: string; n: Count; retried: Count }>>(
              `SELECT ${hourOf('ended_at')} AS at_hour, COUNT(*) AS n,
                      SUM(CASE WHEN attempts > 1 THEN 1 ELSE 0 END) AS retried
                 FROM webhook_deliveries
                WHERE notification_id = ? AND status = 'failed' AND ended_at >= ? AND ended_at < ?
                GROUP BY ${hourOf('ended_at')}${lock}`,
              [notificationId, start, end],
            ),
          );
    const counted = new Map<number, HourTotals & { readonly pendingFailures: number }>();
    for (const hour of hours) {
      const delivered = await query.query<Array<{ latency_ms: Count; n: Count; retried: Count }>>(
        `SELECT latency_ms, COUNT(*) AS n, SUM(CASE WHEN attempts > 1 THEN 1 ELSE 0 END) AS retried
           FROM webhook_deliveries
          WHERE notification_id = ? AND status = 'delivered' AND ended_at >= ? AND ended_at < ?${and}
          GROUP BY latency_ms
          ORDER BY latency_ms${lock}`,
        [notificationId, at(hour), at(hour + HOUR_MS), ...p],
      );
      const failedIn = failed.get(hour);
      counted.set(hour, {
        delivered: delivered.reduce((sum, row) => sum + Number(row.n ?? 0), 0),
        failed: Number(failedIn?.n ?? 0),
        retried:
          delivered.reduce((sum, row) => sum + Number(row.retried ?? 0), 0) + Number(failedIn?.retried ?? 0),
        failures: Number(failures.get(hour)?.n ?? 0),
        latencies: histogramOf(delivered),
        pendingFailures: Number(failures.get(hour)?.pending ?? 0),
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
