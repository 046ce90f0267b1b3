import { Inject, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { PollingService } from '../common/scheduling/polling-loop';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { DatabaseLifecycle } from '../database/database-lifecycle.service';
import { Transactions } from '../database/transactions';
import { NotificationsService } from '../notifications/notifications.service';
import { DeliveriesRepository, type AttemptOutcome } from './deliveries.repository';
import type { DeliveryEntity } from './delivery.entity';
import { WebhookSender, type AttemptResult } from './webhook-sender';
import { newDelivery } from './delivery-factory';
import { WebhookMetrics } from './webhook-metrics';
import { signatureHeaders } from './webhook-signature';

const BATCH = 32;
const IDLE_POLL_MS = 500;
const RETENTION_MS = 7 * 24 * 3600 * 1000;
const SWEEP_EVERY_MS = 3600 * 1000;
const MAX_ERROR_TEXT = 500;

function retryDelayMs(baseMs: number, failedAttempts: number): number {
  return Math.round(baseMs * 2 ** (failedAttempts - 1) * (0.8 + 0.4 * Math.random()));
}

/** docs/reference/webhooks.md#2-delivery; a row whose sender died is sent again once its lease ends. */
@Injectable()
export class DeliveryDispatcher extends PollingService {
  private readonly owner = `${process.pid}-${randomUUID().slice(0, 8)}`;
  private lastSweep = 0;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly deliveries: DeliveriesRepository,
    private readonly notifications: NotificationsService,
    private readonly sender: WebhookSender,
    database: DatabaseLifecycle,
    private readonly metrics: WebhookMetrics,
    private readonly transactions: Transactions,
  ) {
    super('Webhooks', IDLE_POLL_MS, database);
  }

  override async onApplicationShutdown(): Promise<void> {
    // In-flight attempts are cut short: their rows stay pending and are sent again after the lease.
    await this.loop.stop(() => this.sender.close());
  }

  wake(): void {
    this.loop.wake();
  }

  /** docs/reference/webhooks.md#4-trying-a-target; leased to this instance from the start, so no poller takes it. */
  async sendTest(notificationId: string): Promise<AttemptResult> {
    const delivery = newDelivery(notificationId, 'notification_test', null, {
      payload_type: 'notification_test',
      notification_id: notificationId,
    });
    delivery.leaseOwner = this.owner;
    delivery.leaseUntil = new Date(Date.now() + 2 * this.config.webhooks.timeoutMs + 5000);
    await this.transactions.run((tx) => this.deliveries.insert(tx.manager, delivery));
    return this.attempt(delivery, { oneShot: true });
  }

  protected async round(): Promise<void> {
    await this.sweep();
    let now = new Date();
    await this.loop.drain(
      BATCH,
      () => this.deliveries.findDueIds((now = new Date()), BATCH),
      (ids) => this.send(ids, now),
    );
  }

  private async send(ids: string[], now: Date): Promise<void> {
    const leaseUntil = new Date(now.getTime() + 2 * this.config.webhooks.timeoutMs + 5000);
    // One target's events in the order they were committed; targets side by side.
    const byTarget = new Map<string, DeliveryEntity[]>();
    for (const id of ids) {
      if (!(await this.deliveries.claim(id, this.owner, now, leaseUntil).catch(() => false))) continue;
      const delivery = await this.deliveries.findById(id);
      if (!delivery) continue;
      byTarget.set(delivery.notificationId, [...(byTarget.get(delivery.notificationId) ?? []), delivery]);
    }
    await Promise.all(
      [...byTarget.values()].map(async (queue) => {
        for (const delivery of queue) await this.attempt(delivery, { oneShot: false });
      }),
    );
  }

  private async attempt(delivery: DeliveryEntity, { oneShot }: { oneShot: boolean }): Promise<AttemptResult> {
    const target = await this.notifications.findTarget(delivery.notificationId);
    const result: AttemptResult = target
      ? await this.sender.send(target.url, delivery.body, {
          'X-Event-Id': delivery.eventId,
          'X-Event-Type': delivery.event,
          ...(target.signingKey === null ? {} : signatureHeaders(target.signingKey, delivery.body)),
        })
      : {
          delivered: false,
          retryable: false,
          statusCode: null,
          error: 'notification deleted',
          durationMs: 0,
        };
    const attempts = delivery.attempts + 1;
    const now = new Date();
    const retry = result.retryable && !oneShot && attempts < this.config.webhooks.maxAttempts;
    const outcome: AttemptOutcome = {
      status: result.delivered ? 'delivered' : retry ? 'pending' : 'failed',
      attempts,
      lastStatusCode: result.statusCode,
      lastError: result.error?.slice(0, MAX_ERROR_TEXT) ?? null,
      nextAttemptAt: retry
        ? new Date(now.getTime() + retryDelayMs(this.config.webhooks.retryBaseMs, attempts))
        : delivery.nextAttemptAt,
      deliveredAt: result.delivered ? now : delivery.deliveredAt,
      endedAt: retry ? null : now,
    };
    await this.deliveries.recordAttempt(delivery.id, this.owner, outcome);
    this.metrics.attempts.inc({ outcome: result.delivered ? 'delivered' : retry ? 'retried' : 'failed' });
    return result;
  }

  private async sweep(): Promise<void> {
    const now = Date.now();
    if (now - this.lastSweep < SWEEP_EVERY_MS) return;
    this.lastSweep = now;
    const removed = await this.deliveries.deleteEndedBefore(new Date(now - RETENTION_MS));
    if (removed > 0) this.logger.log(`removed ${removed} deliveries that ended more than 7 days ago`);
  }
}
