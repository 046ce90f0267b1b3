import { Injectable } from '@nestjs/common';
import { Transactions } from '../database/transactions';
import { NotificationsService, WEBHOOK_TARGETS, type TargetKind } from '../notifications';
import { DeliveryDispatcher } from './delivery-dispatcher';
import { DeliveryHoursRepository } from './delivery-hours.repository';
import { DeliveryReplaysRepository } from './delivery-replays.repository';
import type { ReplayResponse } from './dto/replay.dto';
import type { ReplayRequest } from './replay.validation';
import { replayInProgress } from './webhooks.errors';

/** docs/reference/webhooks.md#7-replay: at most this many deliveries are queued by one call. */
export const MAX_REPLAYED = 10_000;

/** docs/reference/webhooks.md#7-replay: a delivery is replayed at most once in this long. */
export const REPLAY_AGAIN_AFTER_MS = 3600_000;

/**
 * docs/reference/webhooks.md#7-replay: a target's ended deliveries queued again as the retry of one
 * is (WebhooksService.retry), many at once, in one transaction: the same rows, so the same bodies
 * and `X-Event-Id`s, sent by the dispatcher in commit order. Bounded: at most MAX_REPLAYED per call,
 * a delivery at most once per REPLAY_AGAIN_AFTER_MS, and no call while the target still has
 * replayed deliveries pending.
 */
@Injectable()
export class DeliveryReplaysService {
  constructor(
    private readonly replays: DeliveryReplaysRepository,
    private readonly notifications: NotificationsService,
    private readonly dispatcher: DeliveryDispatcher,
    private readonly transactions: Transactions,
    private readonly hours: DeliveryHoursRepository,
  ) {}

  async replay(
    notificationId: string,
    request: ReplayRequest,
    kind: TargetKind = WEBHOOK_TARGETS,
  ): Promise<ReplayResponse> {
    if (!(await this.notifications.exists(notificationId, kind))) throw kind.notFound();
    const answer = await this.transactions.run(async (tx) => {
      if (!(await this.replays.lockTarget(notificationId, tx))) throw kind.notFound();
      const pending = await this.replays.countPendingReplayed(notificationId, tx);
      if (pending > 0) throw replayInProgress(pending);
      const now = new Date();
      const { outcome, hours } = await this.replays.requeue(
        { notificationId, ...request },
        now,
        new Date(now.getTime() - REPLAY_AGAIN_AFTER_MS),
        MAX_REPLAYED,
        tx,
      );
      // docs/reference/webhooks.md#94-the-cost: summed up again when next read.
      await this.hours.forget(notificationId, hours, tx);
      return outcome;
    });
    if (answer.queued > 0) this.dispatcher.wake(notificationId);
    return answer;
  }
}
