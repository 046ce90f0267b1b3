import { randomUUID } from 'node:crypto';
import { DeliveryEntity } from './delivery.entity';

/** docs/reference/webhooks.md#1-events */
export function webhookBody(id: string, event: string, payload: Record<string, unknown>, at: Date): string {
  return JSON.stringify({ id, event, payload, timestamp: at.toISOString() });
}

export function newDelivery(
  notificationId: string,
  event: string,
  relayerId: string | null,
  payload: Record<string, unknown>,
): DeliveryEntity {
  const now = new Date();
  const eventId = randomUUID();
  return Object.assign(new DeliveryEntity(), {
    id: randomUUID(),
    notificationId,
    eventId,
    event,
    relayerId,
    body: webhookBody(eventId, event, payload, now),
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
  });
}
