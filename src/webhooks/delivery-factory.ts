import { randomUUID } from 'node:crypto';
import { DeliveryEntity } from './delivery.entity';
import { WebhookEventEntity } from './webhook-event.entity';

/** An event's body (docs/reference/webhooks.md#11-the-body), written once for all its targets. */
export function newEvent(
  event: string,
  payload: Record<string, unknown>,
  now = new Date(),
): WebhookEventEntity {
  const id = randomUUID();
  return Object.assign(new WebhookEventEntity(), {
    id,
    body: JSON.stringify({ id, event, payload, timestamp: now.toISOString() }),
    createdAt: now,
  });
}

/** One target's delivery of `webhookEvent`, due at once. */
export function newDelivery(
  notificationId: string,
  webhookEvent: WebhookEventEntity,
  event: string,
  relayerId: string | null,
): DeliveryEntity {
  const now = webhookEvent.createdAt;
  return Object.assign(new DeliveryEntity(), {
    id: randomUUID(),
    notificationId,
    eventId: webhookEvent.id,
    event,
    relayerId,
    status: 'pending',
    attempts: 0,
    lastStatusCode: null,
    lastError: null,
    nextAttemptAt: now,
    leaseOwner: null,
    leaseUntil: null,
    createdAt: now,
    deliveredAt: null,
    endedAt: null,
    replayedAt: null,
    latencyMs: null,
    failedAt: null,
    failedError: null,
  });
}
