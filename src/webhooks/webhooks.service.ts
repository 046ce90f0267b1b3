import { Injectable } from '@nestjs/common';
import { cursorPage } from '../common/http/cursor-page-query.dto';
import { Page } from '../common/http/page.dto';
import { NotificationsService, WEBHOOK_TARGETS, type TargetKind } from '../notifications';
import { RelayersService, relayerNotFound } from '../relayers';
import { DeliveriesRepository, type DeliveryPage } from './deliveries.repository';
import type { DeliveryEntity } from './delivery.entity';
import { DeliveryDispatcher } from './delivery-dispatcher';
import { toDeliveryResponse, toRelayerDeliveryResponse } from './delivery.mapper';
import { deliveryNotFound } from './webhooks.errors';
import { TargetLeasesRepository } from './target-leases.repository';
import { Transactions, type ReadTx } from '../database/transactions';
import { hourKey } from './delivery-hours';
import { DeliveryHoursRepository } from './delivery-hours.repository';
import {
  DeliveryQueryDto,
  DeliveryResponse,
  DeliveryStatusQueryDto,
  RelayerDeliveryResponse,
  TestDeliveryResponse,
} from './dto/delivery.dto';

/** By number, or by keyset with one more than the limit to know whether a next page exists. */
function deliveryPage(query: DeliveryStatusQueryDto): DeliveryPage {
  return query.byCursor
    ? { after: query.position, limit: query.cursorLimit + 1 }
    : { offset: query.offset, limit: query.per_page };
}

function answerPage<T>(
  rows: DeliveryEntity[],
  query: DeliveryStatusQueryDto,
  total: number | null,
  toResponse: (row: DeliveryEntity) => T,
): Page<T> {
  if (!query.byCursor) return new Page(rows.map(toResponse), query, total);
  const limit = query.cursorLimit;
  const { items, nextCursor } = cursorPage(rows, limit, (row) => ({ at: row.createdAt, id: row.id }));
  return new Page(items.map(toResponse), query, null, { limit, next: nextCursor });
}

/** docs/reference/webhooks.md#3-the-delivery-log and #4-trying-a-target. */
@Injectable()
export class WebhooksService {
  constructor(
    private readonly deliveries: DeliveriesRepository,
    private readonly notifications: NotificationsService,
    private readonly dispatcher: DeliveryDispatcher,
    private readonly relayers: RelayersService,
    private readonly targetLeases: TargetLeasesRepository,
    private readonly hours: DeliveryHoursRepository,
    private readonly transactions: Transactions,
  ) {}

  /**
   * A target of another kind than the webhooks' was created, in its transaction: one made again with
   * the id of a deleted one starts with no failures counted (as DeliveryDispatcher.onCreating does
   * for a webhook).
   */
  async targetCreated(id: string, tx: ReadTx): Promise<void> {
    await this.targetLeases.clearFailures([id], tx);
  }

  /** Such a target was deleted: its deliveries went with it (DeliveryDispatcher.onTargetDeleted). */
  targetDeleted(): void {
    this.dispatcher.onTargetDeleted();
  }

  async list(
    notificationId: string,
    query: DeliveryQueryDto,
    kind: TargetKind = WEBHOOK_TARGETS,
  ): Promise<Page<DeliveryResponse>> {
    await this.assertExists(notificationId, kind);
    const { items, total } = await this.deliveries.findPageOfNotification(
      notificationId,
      { status: query.status, relayerId: query.relayer_id },
      deliveryPage(query),
    );
    return answerPage(items, query, total, toDeliveryResponse);
  }

  /**
   * docs/reference/webhooks.md#312-the-deliveries-of-one-relayer: to every target. A relayer
   * outside the key's scope is missing, as on every relayer route.
   */
  async listOfRelayer(
    relayerId: string,
    query: DeliveryStatusQueryDto,
  ): Promise<Page<RelayerDeliveryResponse>> {
    if (!(await this.relayers.exists(relayerId))) throw relayerNotFound(relayerId);
    const { items, total } = await this.deliveries.findPageOfRelayer(
      relayerId,
      { status: query.status },
      deliveryPage(query),
    );
    return answerPage(items, query, total, toRelayerDeliveryResponse);
  }

  async retry(
    notificationId: string,
    deliveryId: string,
    kind: TargetKind = WEBHOOK_TARGETS,
  ): Promise<DeliveryResponse> {
    await this.assertExists(notificationId, kind);
    const current = await this.deliveries.findById(deliveryId);
    if (!current || current.notificationId !== notificationId) throw deliveryNotFound();
    if (current.status !== 'pending') {
      await this.transactions.run(async (tx) => {
        const ended = await this.deliveries.findForUpdate(deliveryId, tx);
        if (!ended || ended.status === 'pending') return;
        // The hours it ended and last failed in no longer hold it as they sum it up
        // (docs/reference/webhooks.md#94-the-cost): summed up again when next read.
        const times = [ended.endedAt, ended.failedAt].flatMap((at) =>
          at === null ? [] : [hourKey(at.getTime())],
        );
        await this.hours.forget(notificationId, times, tx);
        await this.deliveries.requeue(deliveryId, notificationId, new Date(), tx);
      });
    }
    // Read before waking the dispatcher: the answer is the delivery as queued, not as a fast send left it.
    const queued = await this.deliveries.findById(deliveryId);
    if (!queued) throw deliveryNotFound();
    this.dispatcher.wake();
    return toDeliveryResponse(queued);
  }

  async test(notificationId: string, kind: TargetKind = WEBHOOK_TARGETS): Promise<TestDeliveryResponse> {
    await this.assertExists(notificationId, kind);
    const result = await this.dispatcher.sendTest(notificationId);
    return {
      delivered: result.delivered,
      status_code: result.statusCode,
      error: result.error,
      duration_ms: result.durationMs,
    };
  }

  /** A webhook under `/notifications/{id}`, an alert channel under `/alert-channels/{id}` (TargetKind). */
  private async assertExists(id: string, kind: TargetKind): Promise<void> {
    if (!(await this.notifications.exists(id, kind))) throw kind.notFound();
  }
}
