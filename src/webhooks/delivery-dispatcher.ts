import { Inject, Injectable } from '@nestjs/common';
import { OnEvent } from '@nestjs/event-emitter';
import { randomBytes, randomUUID } from 'node:crypto';
import { PollingService } from '../common/scheduling/polling.service';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/app-config.module';
import { DatabaseLifecycle } from '../database/database-lifecycle';
import { OnCommitting } from '../database/on-committing';
import { Transactions, type CommittingEvent, type ReadTx } from '../database/transactions';
import { WorkerDatabase } from '../database/worker-database';
import {
  kindOf,
  NotificationsService,
  NotificationStateService,
  standardWebhooksSecret,
  type DeliveryTarget,
  type TargetKind,
} from '../notifications';
import {
  NOTIFICATION_EVENTS,
  NOTIFICATION_RESUMED,
  type NotificationEvent,
  type NotificationResumedEvent,
} from '../notifications/notification-events';
import { DeliveriesRepository, type AttemptOutcome, type OutgoingDelivery } from './deliveries.repository';
import type { DeliveryEntity } from './delivery.entity';
import { WebhookSender, type AttemptResult } from './webhook-sender';
import { newDelivery, newEvent } from './delivery-factory';
import { WebhookMetrics } from './webhook-metrics';
import { signatureHeaders, standardWebhooksHeaders } from './webhook-signature';
import { TargetLeasesRepository } from './target-leases.repository';
import { DeliveredWriter } from './delivered-writer';
import { WebhookEventsRepository } from './webhook-events.repository';
import { ChannelSenders } from './channel-senders';

/** Deliveries in flight at once, all targets together; a round claims at most this many. */
const BATCH = 1000;
/** At most this many of one target's deliveries are claimed at once: a slow target holds a 50th of BATCH. */
const TARGET_SHARE = 20;
const IDLE_POLL_MS = 500;
const RETENTION_MS = 7 * 24 * 3600 * 1000;
const SWEEP_EVERY_MS = 3600 * 1000;
const FULL_CLEAN_EVERY_MS = 24 * 3600 * 1000;
const MAX_ERROR_TEXT = 500;
/**
 * How long a run trusts what it read of its target (pause, URL, keys) before reading it again: a
 * pause committed meanwhile stops the run within this, without a read per attempt of a fast backlog.
 */
const TARGET_FRESH_MS = 250;
/** Answers that one statement writes delivered without a transaction (DeliveriesRepository.recordDelivered). */
const DELIVERED_ALONE = 250;

function retryDelayMs(baseMs: number, failedAttempts: number): number {
  return Math.round(baseMs * 2 ** (failedAttempts - 1) * (0.8 + 0.4 * Math.random()));
}

/** docs/reference/webhooks.md#2-delivery; a row whose sender died is sent again once its lease ends. */
@Injectable()
export class DeliveryDispatcher extends PollingService {
  private readonly owner = `${process.pid}-${randomUUID().slice(0, 8)}`;
  private lastSweep = 0;
  /** When cleanBodies last looked through every body (0: not since the start). */
  private lastFullClean = 0;
  /** A target was deleted through this instance since then (cleanBodies). */
  private targetDeleted = false;
  private cleaning: Promise<void> | null = null;
  /** The targets this instance is sending to, each run on its own (docs/reference/webhooks.md#29-batches). */
  private readonly runs = new Map<string, Promise<void>>();
  /** Deliveries claimed by the runs under way and not yet ended. */
  private inFlight = 0;
  private readonly delivered: DeliveredWriter;
  /**
   * Targets whose failure count this instance cleared in their current run, with no failure counted
   * since: a delivery to them need not clear it again. Only during the run: the next one clears it
   * again (another instance may have counted failures meanwhile).
   */
  private readonly countCleared = new Set<string>();

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
    private readonly states: NotificationStateService,
    private readonly events: WebhookEventsRepository,
    private readonly channels: ChannelSenders,
  ) {
    super('Webhooks', IDLE_POLL_MS, database);
    this.delivered = new DeliveredWriter(async (answered, at) => {
      // The count of a target is cleared once per run, and again after a failure it counted: the
      // others of its deliveries are one statement, as before counting (docs/benchmarks.md).
      const counted = [...new Set(answered.map((a) => a.notificationId))].filter(
        (id) => !this.countCleared.has(id),
      );
      if (counted.length === 0 && answered.length <= DELIVERED_ALONE) {
        // Run again after a conflict (a deadlock's victim): the answers of every target in it wait on it.
        await this.worker.statement((tx) => this.deliveries.recordDelivered(answered, at, tx));
        return;
      }
      await this.worker.transaction(async (tx) => {
        await this.deliveries.recordDelivered(answered, at, tx);
        await this.targetLeases.clearFailures(counted, tx);
      });
      for (const id of counted) this.countCleared.add(id);
    });
  }

  override async onApplicationShutdown(): Promise<void> {
    // In-flight attempts are cut short: their rows stay pending and are sent again after the lease.
    await this.loop.stop(() => this.sender.close());
    await Promise.all([...this.runs.values(), this.cleaning]);
  }

  /**
   * A new delivery of a target this instance is sending to waits for that target's run to end (which
   * wakes the loop): no round is spent looking past that target's backlog.
   */
  wake(notificationId?: string): void {
    if (notificationId === undefined || !this.runs.has(notificationId)) this.loop.wake();
  }

  /** A resumed target's count starts again, with the resume (docs/reference/webhooks.md#10-pausing-a-target). */
  @OnCommitting(NOTIFICATION_RESUMED)
  async onResuming(tx: CommittingEvent<NotificationResumedEvent>): Promise<void> {
    await this.targetLeases.clearFailures([tx.event.notificationId], tx);
  }

  /** A target made again with the id of a deleted one starts with no failures counted. */
  @OnCommitting(NOTIFICATION_EVENTS.created)
  async onCreating(tx: CommittingEvent<NotificationEvent>): Promise<void> {
    await this.targetLeases.clearFailures([tx.event.notification.id], tx);
  }

  /** Its deliveries went with it: the next sweep looks through every body (cleanBodies). */
  @OnEvent(NOTIFICATION_EVENTS.deleted)
  onTargetDeleted(): void {
    this.targetDeleted = true;
  }

  /** Its backlog goes out now, in commit order. */
  @OnEvent(NOTIFICATION_RESUMED)
  onResumed(): void {
    this.loop.wake();
  }

  /** docs/reference/webhooks.md#4-trying-a-target; leased to this instance from the start, so no poller takes it. */
  async sendTest(notificationId: string): Promise<AttemptResult> {
    const event = newEvent('notification_test', {
      payload_type: 'notification_test',
      notification_id: notificationId,
    });
    const delivery: OutgoingDelivery = Object.assign(
      newDelivery(notificationId, event, 'notification_test', null),
      { body: event.body },
    );
    delivery.leaseOwner = this.owner;
    delivery.leaseUntil = new Date(Date.now() + this.leaseMs());
    await this.transactions.run(async (tx) => {
      await this.events.insert(event, tx);
      await this.deliveries.insertAll([delivery], tx);
    });
    const result = await this.attempt(await this.notifications.findTarget(notificationId), delivery, true);
    await this.deliveries.recordAttempt(delivery.id, this.owner, this.outcomeOf(delivery, result, true));
    return result;
  }

  /**
   * docs/reference/webhooks.md#29-batches: claims what is due for the targets not being sent to,
   * at most TARGET_SHARE of each, and starts a run per target without waiting for it. A run that
   * ends wakes the loop, so a slow target never holds back the others' next deliveries.
   */
  protected async round(): Promise<void> {
    await this.sweep();
    const room = BATCH - this.inFlight;
    if (room <= 0) return;
    const worker = await this.worker.connection();
    const due = (await this.deliveries.findDue(new Date(), room, TARGET_SHARE, worker)).filter(
      (delivery) => !this.runs.has(delivery.notificationId),
    );
    if (due.length > 0) await this.claim(due, worker);
  }

  /**
   * docs/reference/webhooks.md#27-order: the targets are leased first, so that no other instance
   * sends their later events meanwhile, then their deliveries are claimed with one statement and one
   * lease (2.6).
   */
  private async claim(due: Array<{ id: string; notificationId: string }>, worker: ReadTx) {
    const now = new Date();
    const lease = `${this.owner}-${randomBytes(4).toString('hex')}`;
    const leaseUntil = now.getTime() + this.leaseMs();
    const until = new Date(leaseUntil);
    const wanted = [...new Set(due.map((delivery) => delivery.notificationId))];
    const targets = await this.targetLeases.claim(wanted, lease, now, until, worker);
    const ids = due.filter((delivery) => targets.has(delivery.notificationId)).map((d) => d.id);
    const queues = Map.groupBy(
      await this.deliveries.claimAll(ids, lease, now, until, worker),
      (delivery) => delivery.notificationId,
    );
    // A target whose due deliveries another instance sent between the query and the claim.
    await this.targetLeases.release(
      lease,
      [...targets].filter((id) => !queues.has(id)),
      worker,
    );
    for (const [notificationId, queue] of queues) {
      const run = this.run(notificationId, queue, lease, leaseUntil, worker).finally(() => {
        this.runs.delete(notificationId);
        this.loop.wake();
      });
      this.runs.set(notificationId, run);
    }
  }

  /**
   * One target's deliveries, one after the other, in order, TARGET_SHARE at a time: once it has sent
   * those it claimed, the run claims the target's next due ones itself (the target stays leased to
   * it), until none is due. The target is given back after its deliveries; after a failed write both
   * wait for their lease to end, so that no instance sends the target's later events first.
   */
  private async run(
    notificationId: string,
    claimed: OutgoingDelivery[],
    lease: string,
    claimedUntil: number,
    worker: ReadTx,
  ): Promise<void> {
    let queue = claimed;
    let leaseUntil = claimedUntil;
    this.countCleared.delete(notificationId);
    this.inFlight += queue.length;
    try {
      while (queue.length > 0) {
        if (!(await this.sendInOrder(notificationId, queue, lease, leaseUntil, worker))) break;
        this.inFlight -= queue.length;
        queue = [];
        const room = Math.min(TARGET_SHARE, BATCH - this.inFlight);
        if (room <= 0 || this.loop.isStopped) break;
        const now = new Date();
        leaseUntil = now.getTime() + this.leaseMs();
        const until = new Date(leaseUntil);
        const ids = await this.deliveries.findDueOfTarget(notificationId, now, room, worker);
        if (ids.length === 0) break;
        // The target's lease and its next deliveries' with one commit.
        const next = await this.worker.transaction(async (tx) =>
          (await this.targetLeases.extend(notificationId, lease, until, tx))
            ? this.deliveries.claimAll(ids, lease, now, until, tx)
            : null,
        );
        if (next === null) break;
        queue = next;
        this.inFlight += queue.length;
      }
      await this.targetLeases.release(lease, [notificationId], worker);
    } catch (error) {
      this.logger.warn(
        { err: error },
        `sending to notification ${notificationId} failed; its deliveries are sent again when their lease ends`,
      );
    } finally {
      this.inFlight -= queue.length;
      this.countCleared.delete(notificationId);
    }
  }

  /**
   * Claimed deliveries of one target, in order, each written as it ends (a 2xx through
   * DeliveredWriter), so that a process killed meanwhile sends again only the attempt in flight.
   * False when it stopped early: the deliveries it did not attempt are given back. The target is
   * read again before an attempt once TARGET_FRESH_MS have passed: a target paused meanwhile
   * (docs/reference/webhooks.md#10-pausing-a-target) receives nothing more, a rotated key signs.
   */
  private async sendInOrder(
    notificationId: string,
    queue: OutgoingDelivery[],
    lease: string,
    leaseUntil: number,
    worker: ReadTx,
  ): Promise<boolean> {
    const giveBack = (from: number) =>
      this.deliveries.release(
        queue.slice(from).map((left) => left.id),
        lease,
        worker,
      );
    let target: DeliveryTarget | null = null;
    let readAt = -Infinity;
    for (const [i, delivery] of queue.entries()) {
      // An attempt that could outlast the lease is left to the next round: never two senders at once.
      if (this.loop.isStopped || Date.now() + this.config.webhooks.timeoutMs > leaseUntil) {
        await giveBack(i);
        return false;
      }
      if (Date.now() - readAt >= TARGET_FRESH_MS) {
        target = await this.notifications.findTarget(notificationId, worker);
        readAt = Date.now();
      }
      if (target?.paused) {
        await giveBack(i);
        return false;
      }
      const result = await this.attempt(target, delivery, false);
      if (result.delivered && result.statusCode !== null) {
        await this.delivered.record({
          notificationId,
          id: delivery.id,
          lease,
          statusCode: result.statusCode,
          latencyMs: result.durationMs,
        });
        continue;
      }
      const outcome = this.outcomeOf(delivery, result, false);
      if (outcome.status !== 'failed') {
        await this.deliveries.recordAttempt(delivery.id, lease, outcome, worker);
      } else if (
        target !== null &&
        (await this.endFailed(notificationId, kindOf(target.type), delivery, lease, outcome))
      ) {
        await giveBack(i + 1);
        return false;
      }
    }
    return true;
  }

  /**
   * Writes a delivery that ended failed and counts it, in one transaction; after
   * WEBHOOK_PAUSE_AFTER_FAILURES of them in a row the target pauses itself
   * (docs/reference/webhooks.md#10-pausing-a-target). Whether it is paused now. One sender per target
   * (its lease) counts, so the count reaches the limit once.
   */
  private async endFailed(
    notificationId: string,
    kind: TargetKind,
    delivery: DeliveryEntity,
    lease: string,
    outcome: AttemptOutcome,
  ): Promise<boolean> {
    this.countCleared.delete(notificationId);
    const failures = await this.worker.transaction(async (tx) =>
      (await this.deliveries.recordAttempt(delivery.id, lease, outcome, tx))
        ? this.targetLeases.countFailure(notificationId, tx)
        : 0,
    );
    const limit = this.config.webhooks.pauseAfterFailures;
    if (limit === 0 || failures < limit) return false;
    const paused = await this.states.pauseAfterFailures(
      notificationId,
      kind,
      failures,
      outcome.lastError ?? `HTTP ${outcome.lastStatusCode ?? 'error'}`,
    );
    if (paused) {
      this.logger.warn(
        `notification ${notificationId} paused itself: ${failures} deliveries in a row failed`,
      );
    }
    return paused;
  }

  private async attempt(
    target: DeliveryTarget | null,
    delivery: OutgoingDelivery,
    oneShot: boolean,
  ): Promise<AttemptResult> {
    const result: AttemptResult = target
      ? await this.send(target, delivery)
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

  /** A webhook gets the body as it is, signed; another target what its sender makes of it (ChannelSenders). */
  private send(target: DeliveryTarget, delivery: OutgoingDelivery): Promise<AttemptResult> {
    if (target.type !== 'webhook') return this.channels.send(delivery.notificationId, target, delivery.body);
    return this.sender.send(target.url, delivery.body, {
      'X-Event-Id': delivery.eventId,
      'X-Event-Type': delivery.event,
      ...(target.signingKey === null
        ? {}
        : this.signed(target, target.signingKey, delivery.eventId, delivery.body)),
    });
  }

  /**
   * With the previous key too while its overlap lasts (docs/reference/webhooks.md#11-rotating-the-signing-key);
   * a `standard` target's Standard Webhooks headers besides, `webhook-id` the event's id
   * (docs/reference/webhooks.md#13-standard-webhooks): a previous key that is no whsec_ key signs
   * only the reference headers.
   */
  private signed(target: DeliveryTarget, key: string, eventId: string, body: string): Record<string, string> {
    const now = new Date();
    const until = target.previousSigningKeyUntil;
    const previous = until !== null && until > now ? target.previousSigningKey : null;
    const headers = signatureHeaders(key, body, now, previous);
    const secret = target.signingScheme === 'standard' ? standardWebhooksSecret(key) : null;
    if (secret === null) return { ...headers };
    const previousSecret = standardWebhooksSecret(previous);
    const secrets: [Buffer, ...Buffer[]] = previousSecret === null ? [secret] : [secret, previousSecret];
    return { ...headers, ...standardWebhooksHeaders(eventId, secrets, body, now) };
  }

  private retries(delivery: DeliveryEntity, result: AttemptResult, oneShot: boolean): boolean {
    return result.retryable && !oneShot && delivery.attempts + 1 < this.config.webhooks.maxAttempts;
  }

  private outcomeOf(delivery: DeliveryEntity, result: AttemptResult, oneShot: boolean): AttemptOutcome {
    const attempts = delivery.attempts + 1;
    const now = new Date();
    const retry = this.retries(delivery, result, oneShot);
    const status = result.delivered ? 'delivered' : retry ? 'pending' : 'failed';
    const lastError = result.error?.slice(0, MAX_ERROR_TEXT) ?? null;
    return {
      status,
      attempts,
      lastStatusCode: result.statusCode,
      lastError,
      nextAttemptAt: retry
        ? new Date(now.getTime() + retryDelayMs(this.config.webhooks.retryBaseMs, attempts))
        : delivery.nextAttemptAt,
      deliveredAt: result.delivered ? now : delivery.deliveredAt,
      endedAt: retry ? null : now,
      latencyMs: result.durationMs,
      // docs/reference/webhooks.md#93-the-fields: a failure outlives a replay, a retry and a later success.
      failedAt: status === 'failed' ? now : delivery.failedAt,
      failedError: status === 'failed' ? lastError : delivery.failedError,
    };
  }

  /** An attempt and its answer's wait, with room to spare; a crashed sender's deliveries wait this long. */
  private leaseMs(): number {
    return 2 * this.config.webhooks.timeoutMs + 5000;
  }

  /**
   * docs/reference/webhooks.md#33-retention: deliveries that ended 7 days ago, then, beside the
   * rounds, the bodies no delivery references any more (cleanBodies).
   */
  private async sweep(): Promise<void> {
    const now = Date.now();
    if (now - this.lastSweep < SWEEP_EVERY_MS) return;
    this.lastSweep = now;
    const before = new Date(now - RETENTION_MS);
    const removed = await this.deliveries.deleteEndedBefore(before);
    await this.targetLeases.deleteUnused(new Date(now));
    if (removed > 0) this.logger.log(`removed ${removed} deliveries that ended more than 7 days ago`);
    this.cleanBodies(now, before);
  }

  /**
   * The bodies older than the deliveries kept that none references; every body none references at
   * the first sweep, once a day, and after a target was deleted through this instance (its deliveries
   * went with it). In short statements, beside the rounds: a pass over every body takes a while.
   */
  private cleanBodies(now: number, before: Date): void {
    if (this.cleaning) return;
    const everyBody = this.targetDeleted || now - this.lastFullClean >= FULL_CLEAN_EVERY_MS;
    this.targetDeleted = false;
    if (everyBody) this.lastFullClean = now;
    const stopped = () => this.loop.isStopped;
    this.cleaning = (async () => {
      const worker = await this.worker.connection();
      return everyBody
        ? this.events.deleteUnreferenced(stopped, worker)
        : this.events.deleteUnreferencedBefore(before, stopped, worker);
    })()
      .then((bodies) => {
        if (bodies > 0) this.logger.log(`removed ${bodies} event bodies no delivery references`);
      })
      .catch((error: unknown) => {
        if (everyBody) this.lastFullClean = 0;
        this.logger.warn({ err: error }, 'removing the event bodies no delivery references failed');
      })
      .finally(() => {
        this.cleaning = null;
      });
  }
}
