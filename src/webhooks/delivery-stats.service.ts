import { Injectable } from '@nestjs/common';
import { RelayerScope } from '../common/auth/relayer-scope';
import { Transactions } from '../database/transactions';
import { NotificationsService, successRate, WEBHOOK_TARGETS, type TargetKind } from '../notifications';
import { closedUntil, HOUR_MS, wholeHours, type HourTotals } from './delivery-hours';
import { DeliveryHoursRepository } from './delivery-hours.repository';
import { DeliveryStatsRepository, type ClosedHours } from './delivery-stats.repository';
import type {
  DeliverySeriesResponse,
  DeliveryStatsResponse,
  SeriesWindow,
  StatsWindow,
} from './dto/delivery-stats.dto';

const WINDOW_MS: Record<StatsWindow, number> = {
  '1h': HOUR_MS,
  '24h': 24 * HOUR_MS,
  '7d': 7 * 24 * HOUR_MS,
};
const SERIES_HOURS: Record<SeriesWindow, number> = { '24h': 24, '7d': 7 * 24 };
/** Hours summed up per transaction: its locking reads hold a day of the log at most. */
const HOURS_PER_TRANSACTION = 24;

/** docs/reference/webhooks.md#9-stats: a target's delivery log summed up over a window. */
@Injectable()
export class DeliveryStatsService {
  constructor(
    private readonly stats: DeliveryStatsRepository,
    private readonly hours: DeliveryHoursRepository,
    private readonly notifications: NotificationsService,
    private readonly transactions: Transactions,
  ) {}

  async of(
    notificationId: string,
    window: StatsWindow,
    kind: TargetKind = WEBHOOK_TARGETS,
  ): Promise<DeliveryStatsResponse> {
    if (!(await this.notifications.exists(notificationId, kind))) throw kind.notFound();
    const now = Date.now();
    const since = now - WINDOW_MS[window];
    const closed = await this.closedHours(notificationId, since, now);
    const counts = await this.stats.countsOf(notificationId, new Date(since), closed);
    return {
      window,
      delivered: counts.delivered,
      failed: counts.failed,
      pending: counts.pending,
      retried: counts.retried,
      success_rate: successRate(counts.delivered, counts.failed),
      latency_ms: { ...counts.latency },
      last_delivered_at: counts.lastDeliveredAt?.toISOString() ?? null,
      last_failed_at: counts.lastFailedAt?.toISOString() ?? null,
      last_error: counts.lastError,
    };
  }

  /**
   * docs/reference/webhooks.md#95-the-hourly-series: every hour of the window, oldest first, the
   * last the current hour so far; an hour without deliveries counts none.
   */
  async series(
    notificationId: string,
    window: SeriesWindow,
    kind: TargetKind = WEBHOOK_TARGETS,
  ): Promise<DeliverySeriesResponse> {
    if (!(await this.notifications.exists(notificationId, kind))) throw kind.notFound();
    const hours = SERIES_HOURS[window];
    const now = Date.now();
    const first = Math.floor(now / HOUR_MS) * HOUR_MS - (hours - 1) * HOUR_MS;
    const closed = await this.closedHours(notificationId, first, now);
    const counted = await this.stats.hourlyOf(notificationId, new Date(first), hours, closed?.hours);
    return {
      window,
      buckets: counted.map((hour, i) => ({
        start: new Date(first + i * HOUR_MS).toISOString(),
        delivered: hour.delivered,
        failed: hour.failed,
        p95_ms: hour.p95,
      })),
    };
  }

  /**
   * docs/reference/webhooks.md#94-the-cost: the totals of the whole hours of the window from `since`
   * that closed by `now`, those kept and those summed up now from the deliveries (and kept, in
   * transactions of HOURS_PER_TRANSACTION hours); null for a key limited to some relayers (the totals
   * are the target's) and for a window without a closed whole hour. An hour with a failure pending
   * again is summed up for this answer and not kept; the range then ends before it, and the rest of the
   * window is read from the deliveries.
   */
  private async closedHours(notificationId: string, since: number, now: number): Promise<ClosedHours | null> {
    if (RelayerScope.current() !== null) return null;
    const wanted = wholeHours(since, closedUntil(now));
    if (wanted.length === 0) return null;
    const [from, to] = [wanted[0], wanted[wanted.length - 1] + HOUR_MS];
    const hours = new Map<number, HourTotals>(await this.hours.findBetween(notificationId, from, to));
    const missing = wanted.filter((at) => !hours.has(at));
    let end = to;
    for (let i = 0; i < missing.length; i += HOURS_PER_TRANSACTION) {
      const chunk = missing.slice(i, i + HOURS_PER_TRANSACTION);
      const { totals, unsettled } = await this.transactions.run(async (tx) => {
        const summed = await this.stats.totalsOf(notificationId, chunk, tx);
        const settled = new Map([...summed.totals].filter(([at]) => !summed.unsettled.has(at)));
        if (settled.size > 0) await this.hours.keep(notificationId, settled, tx);
        return summed;
      });
      for (const [at, hour] of totals) hours.set(at, hour);
      for (const at of unsettled) end = Math.min(end, at);
    }
    // From the first unsettled hour on, the deliveries are read as for the open hours.
    const kept = new Map([...hours].filter(([at]) => at < end));
    return end > from ? { from, to: end, hours: kept } : null;
  }
}
