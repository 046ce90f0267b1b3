import { Injectable } from '@nestjs/common';
import { NotificationsService, successRate, WEBHOOK_TARGETS, type TargetKind } from '../notifications';
import { DeliveryStatsRepository } from './delivery-stats.repository';
import type {
  DeliverySeriesResponse,
  DeliveryStatsResponse,
  SeriesWindow,
  StatsWindow,
} from './dto/delivery-stats.dto';

const HOUR_MS = 3600_000;
const WINDOW_MS: Record<StatsWindow, number> = {
  '1h': HOUR_MS,
  '24h': 24 * HOUR_MS,
  '7d': 7 * 24 * HOUR_MS,
};
const SERIES_HOURS: Record<SeriesWindow, number> = { '24h': 24, '7d': 7 * 24 };

/** docs/reference/webhooks.md#9-stats: a target's delivery log summed up over a window. */
@Injectable()
export class DeliveryStatsService {
  constructor(
    private readonly stats: DeliveryStatsRepository,
    private readonly notifications: NotificationsService,
  ) {}

  async of(
    notificationId: string,
    window: StatsWindow,
    kind: TargetKind = WEBHOOK_TARGETS,
  ): Promise<DeliveryStatsResponse> {
    if (!(await this.notifications.exists(notificationId, kind))) throw kind.notFound();
    const counts = await this.stats.countsOf(notificationId, new Date(Date.now() - WINDOW_MS[window]));
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
    const first = Math.floor(Date.now() / HOUR_MS) * HOUR_MS - (hours - 1) * HOUR_MS;
    const counted = await this.stats.hourlyOf(notificationId, new Date(first), hours);
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
}
