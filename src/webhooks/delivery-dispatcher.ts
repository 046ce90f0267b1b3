import { Inject, Injectable } from '@nestjs/common';
import { randomBytes, randomUUID } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import { PollingService } from '../common/scheduling/polling-loop';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { DatabaseLifecycle } from '../database/database-lifecycle.service';
import { Transactions } from '../database/transactions';
import { WorkerDatabase } from '../database/worker-database';
import { NotificationsService } from '../notifications/notifications.service';
import { DeliveriesRepository, type AttemptOutcome } from './deliveries.repository';
import type { DeliveryEntity } from './delivery.entity';
import { WebhookSender, type AttemptResult } from './webhook-sender';
import { newDelivery } from './delivery-factory';
import { WebhookMetrics } from './webhook-metrics';
import { signatureHeaders } from './webhook-signature';
import { TargetLeasesRepository } from './target-leases.repository';

/** Deliveries claimed at once (one statement); a target's are sent one after the other. */
const BATCH = 200;
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
    private readonly worker: WorkerDatabase,
    private readonly targetLeases: TargetLeasesRepository,
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
    delivery.leaseUntil = new Date(Date.now() + this.leaseMs());
    await this.transactions.run((tx) => this.deliveries.insert(tx.manager, delivery));
    const result = await this.attempt(await this.notifications.findTarget(notificationId), delivery, true);
    await this.deliveries.recordAttempt(delivery.id, this.owner, this.outcomeOf(delivery, result, true));
    return result;
  }

  protected async round(): Promise<void> {
    await this.sweep();
    const manager = await this.worker.manager();
    await this.loop.drain(
      BATCH,
      () => this.deliveries.findDue(manager, new Date(), BATCH),
      (due) => this.send(manager, due),
    );
  }

  /**
   * docs/reference/webhooks.md#2-delivery: the batch's targets are leased first, so that no other
   * instance sends their later events meanwhile (2.7), then the batch is claimed with one statement
   * and one lease; each target's deliveries go one after the other, in order, the targets side by
   * side; the delivered ones are written in one statement per status code, the others one by one.
   */
  private async send(
    manager: EntityManager,
    due: Array<{ id: string; notificationId: string }>,
  ): Promise<void> {
    const now = new Date();
    const lease = `${this.owner}-${randomBytes(4).toString('hex')}`;
    const leaseUntil = now.getTime() + this.leaseMs();
    const until = new Date(leaseUntil);
    const targets = await this.targetLeases.claim(
      manager,
      [...new Set(due.map((delivery) => delivery.notificationId))],
      lease,
      now,
      until,
    );
    try {
      const ids = due.filter((delivery) => targets.has(delivery.notificationId)).map((d) => d.id);
      const claimed = await this.deliveries.claimAll(manager, ids, lease, now, until);
      const delivered = new Map<number, string[]>();
      await Promise.all(
        [...Map.groupBy(claimed, (delivery) => delivery.notificationId)].map(([notificationId, queue]) =>
          this.sendInOrder(manager, notificationId, queue, lease, leaseUntil, delivered),
        ),
      );
      const at = new Date();
      for (const [statusCode, done] of delivered) {
        await this.deliveries.recordDelivered(manager, done, lease, statusCode, at);
      }
    } finally {
      await this.targetLeases.release(manager, lease);
    }
  }

  /** One target's deliveries of a batch; the 2xx ones are added to `delivered` by status code. */
  private async sendInOrder(
    manager: EntityManager,
    notificationId: string,
    queue: DeliveryEntity[],
    lease: string,
    leaseUntil: number,
    delivered: Map<number, string[]>,
  ): Promise<void> {
    const target = await this.notifications.findTarget(notificationId, manager);
    for (const [i, delivery] of queue.entries()) {
      // An attempt that could outlast the lease is left to the next round: never two senders at once.
      if (this.loop.isStopped || Date.now() + this.config.webhooks.timeoutMs > leaseUntil) {
        await this.deliveries.release(
          manager,
          queue.slice(i).map((left) => left.id),
          lease,
        );
        return;
      }
      const result = await this.attempt(target, delivery, false);
      if (result.delivered && result.statusCode !== null) {
        const done = delivered.get(result.statusCode);
        if (done) done.push(delivery.id);
        else delivered.set(result.statusCode, [delivery.id]);
      } else {
        await this.deliveries.recordAttempt(
          delivery.id,
          lease,
          this.outcomeOf(delivery, result, false),
          manager,
        );
      }
    }
  }

  private async attempt(
    target: { url: string; signingKey: string | null } | null,
    delivery: DeliveryEntity,
    oneShot: boolean,
  ): Promise<AttemptResult> {
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
    this.metrics.attempts.inc({
      outcome: result.delivered
        ? 'delivered'
        : this.retries(delivery, result, oneShot)
          ? 'retried'
          : 'failed',
    });
    return result;
  }

  private retries(delivery: DeliveryEntity, result: AttemptResult, oneShot: boolean): boolean {
    return result.retryable && !oneShot && delivery.attempts + 1 < this.config.webhooks.maxAttempts;
  }

  private outcomeOf(delivery: DeliveryEntity, result: AttemptResult, oneShot: boolean): AttemptOutcome {
    const attempts = delivery.attempts + 1;
    const now = new Date();
    const retry = this.retries(delivery, result, oneShot);
    return {
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
  }

  /** An attempt and its answer's wait, with room to spare; a crashed sender's deliveries wait this long. */
  private leaseMs(): number {
    return 2 * this.config.webhooks.timeoutMs + 5000;
  }

  private async sweep(): Promise<void> {
    const now = Date.now();
    if (now - this.lastSweep < SWEEP_EVERY_MS) return;
    this.lastSweep = now;
    const removed = await this.deliveries.deleteEndedBefore(new Date(now - RETENTION_MS));
    await this.targetLeases.deleteUnused(new Date(now));
    if (removed > 0) this.logger.log(`removed ${removed} deliveries that ended more than 7 days ago`);
  }
}
