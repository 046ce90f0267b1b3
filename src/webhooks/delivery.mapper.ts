import type { DeliveryEntity } from './delivery.entity';
import { DeliveryResponse } from './dto/delivery.dto';

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
