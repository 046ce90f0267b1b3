import { Injectable } from '@nestjs/common';
import { Page } from '../common/http/page.dto';
import { NotificationsService, notificationNotFound } from '../notifications';
import { DeliveriesRepository } from './deliveries.repository';
import { DeliveryDispatcher } from './delivery-dispatcher';
import { toDeliveryResponse } from './delivery.mapper';
import { deliveryNotFound } from './webhooks.errors';
import { DeliveryQueryDto, DeliveryResponse, TestDeliveryResponse } from './dto/delivery.dto';

/** docs/reference/webhooks.md#3-the-delivery-log and #4-trying-a-target. */
@Injectable()
export class WebhooksService {
  constructor(
    private readonly deliveries: DeliveriesRepository,
    private readonly notifications: NotificationsService,
    private readonly dispatcher: DeliveryDispatcher,
  ) {}

  async list(notificationId: string, query: DeliveryQueryDto): Promise<Page<DeliveryResponse>> {
    await this.assertNotificationExists(notificationId);
    const { items, total } = await this.deliveries.findPageOfNotification(
      notificationId,
      { status: query.status, relayerId: query.relayer_id },
      query.offset,
      query.per_page,
    );
    return new Page(items.map(toDeliveryResponse), query, total);
  }

  async retry(notificationId: string, deliveryId: string): Promise<DeliveryResponse> {
    await this.assertNotificationExists(notificationId);
    const current = await this.deliveries.findById(deliveryId);
    if (!current || current.notificationId !== notificationId) throw deliveryNotFound();
    if (current.status !== 'pending') await this.deliveries.requeue(deliveryId, notificationId, new Date());
    // Read before waking the dispatcher: the answer is the delivery as queued, not as a fast send left it.
    const queued = await this.deliveries.findById(deliveryId);
    if (!queued) throw deliveryNotFound();
    this.dispatcher.wake();
    return toDeliveryResponse(queued);
  }

  async test(notificationId: string): Promise<TestDeliveryResponse> {
    await this.assertNotificationExists(notificationId);
    const result = await this.dispatcher.sendTest(notificationId);
    return {
      delivered: result.delivered,
      status_code: result.statusCode,
      error: result.error,
      duration_ms: result.durationMs,
    };
  }

  private async assertNotificationExists(id: string): Promise<void> {
    if (!(await this.notifications.exists(id))) throw notificationNotFound();
  }
}
