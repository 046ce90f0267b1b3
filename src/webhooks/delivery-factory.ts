import { randomUUID } from 'node:crypto';
import { DeliveryEntity } from './delivery.entity';

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
    // docs/reference/webhooks.md#1-events
    body: JSON.stringify({ id: eventId, event, payload, timestamp: now.toISOString() }),
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
    latencyMs: null,
  });
}
