import { Injectable } from '@nestjs/common';
import { Transactions } from '../database/transactions';
import { NotificationsService, notificationNotFound } from '../notifications';
import { DeliveryDispatcher } from './delivery-dispatcher';
import { DeliveryReplaysRepository } from './delivery-replays.repository';
import type { ReplayResponse } from './dto/replay.dto';
import type { ReplayRequest } from './replay.validation';

/** docs/reference/webhooks.md#7-replay: at most this many deliveries are queued by one call. */
export const MAX_REPLAYED = 10_000;

/**
 * docs/reference/webhooks.md#7-replay: a target's ended deliveries queued again as the retry of one
 * is (WebhooksService.retry), many at once, in one transaction: the same rows, so the same bodies
 * and `X-Event-Id`s, sent by the dispatcher in commit order.
 */
@Injectable()
export class DeliveryReplaysService {
  constructor(
    private readonly replays: DeliveryReplaysRepository,
    private readonly notifications: NotificationsService,
    private readonly dispatcher: DeliveryDispatcher,
    private readonly transactions: Transactions,
  ) {}

  async replay(notificationId: string, request: ReplayRequest): Promise<ReplayResponse> {
    if (!(await this.notifications.exists(notificationId))) throw notificationNotFound();
    const answer = await this.transactions.run((tx) =>
      this.replays.requeue(tx.manager, { notificationId, ...request }, new Date(), MAX_REPLAYED),
    );
    if (answer.queued > 0) this.dispatcher.wake(notificationId);
    return answer;
  }
}
