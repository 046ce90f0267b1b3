import { Injectable } from '@nestjs/common';
import { Counter, Gauge } from 'prom-client';
import { MetricsService } from '../metrics';
import { NotificationsService } from '../notifications';
import { DeliveriesRepository } from './deliveries.repository';

/** docs/reference/webhooks.md#5-metrics */
@Injectable()
export class WebhookMetrics {
  readonly attempts: Counter<'outcome'>;

  constructor(
    metrics: MetricsService,
    deliveries: DeliveriesRepository,
    notifications: NotificationsService,
  ) {
    this.attempts = new Counter({
      name: 'webhook_deliveries_total',
      help: 'Webhook delivery attempts by outcome: delivered, retried (failed, tried again later) or failed (given up)',
      labelNames: ['outcome'] as const,
      registers: [metrics.registry],
    });
    new Gauge({
      name: 'webhook_oldest_pending_delivery_seconds',
      help: 'Age of the oldest webhook delivery still pending (0 when none is)',
      registers: [metrics.registry],
      async collect() {
        this.set(await deliveries.oldestPendingAgeSeconds(new Date()).catch(() => 0));
      },
    });
    // docs/reference/webhooks.md#10-pausing-a-target
    new Gauge({
      name: 'webhook_targets_paused',
      help: 'Notification targets paused, by hand or by themselves after failed deliveries',
      registers: [metrics.registry],
      async collect() {
        this.set(await notifications.countPaused().catch(() => 0));
      },
    });
  }
}
