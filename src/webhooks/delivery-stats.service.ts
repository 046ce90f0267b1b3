import { Injectable } from '@nestjs/common';
import { NotificationsService, notificationNotFound } from '../notifications';
import { DeliveryStatsRepository } from './delivery-stats.repository';
import type { DeliveryStatsResponse, StatsWindow } from './dto/delivery-stats.dto';

const WINDOW_MS: Record<StatsWindow, number> = {
  '1h': 3600_000,
  '24h': 24 * 3600_000,
  '7d': 7 * 24 * 3600_000,
};

/** docs/reference/webhooks.md#9-stats: a target's delivery log summed up over a window. */
@Injectable()
export class DeliveryStatsService {
  constructor(
    private readonly stats: DeliveryStatsRepository,
    private readonly notifications: NotificationsService,
  ) {}

  async of(notificationId: string, window: StatsWindow): Promise<DeliveryStatsResponse> {
    if (!(await this.notifications.exists(notificationId))) throw notificationNotFound();
    const counts = await this.stats.countsOf(notificationId, new Date(Date.now() - WINDOW_MS[window]));
    const ended = counts.delivered + counts.failed;
    return {
      window,
      delivered: counts.delivered,
      failed: counts.failed,
      pending: counts.pending,
      retried: counts.retried,
      success_rate: ended === 0 ? null : Math.round((counts.delivered / ended) * 10_000) / 10_000,
      latency_ms: { ...counts.latency },
      last_delivered_at: counts.lastDeliveredAt?.toISOString() ?? null,
      last_failed_at: counts.lastFailedAt?.toISOString() ?? null,
      last_error: counts.lastError,
    };
  }
}
