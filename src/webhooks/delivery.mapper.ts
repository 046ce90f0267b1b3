import type { DeliveryEntity } from './delivery.entity';
import { DeliveryResponse, RelayerDeliveryResponse } from './dto/delivery.dto';

export function toDeliveryResponse(delivery: DeliveryEntity): DeliveryResponse {
  return {
    id: delivery.id,
    event_id: delivery.eventId,
    event: delivery.event,
    relayer_id: delivery.relayerId,
    status: delivery.status,
    attempts: delivery.attempts,
    last_status_code: delivery.lastStatusCode,
    last_error: delivery.lastError,
    next_attempt_at: delivery.status === 'pending' ? delivery.nextAttemptAt.toISOString() : null,
    created_at: delivery.createdAt.toISOString(),
    delivered_at: delivery.deliveredAt?.toISOString() ?? null,
  };
}

/** docs/reference/webhooks.md#312-the-deliveries-of-one-relayer: with the target it goes to. */
export function toRelayerDeliveryResponse(delivery: DeliveryEntity): RelayerDeliveryResponse {
  return { ...toDeliveryResponse(delivery), notification_id: delivery.notificationId };
}
