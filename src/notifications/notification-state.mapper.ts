import { NotificationStateResponse } from './dto/notification.dto';
import type { NotificationEntity } from './notification.entity';

/** docs/reference/webhooks.md#10-pausing-a-target; an overlap that has ended shows as null. No key ever. */
export function toNotificationStateResponse(
  entity: NotificationEntity,
  now = new Date(),
): NotificationStateResponse {
  const overlap = entity.signingKeyOverlapUntil;
  return {
    paused: entity.pausedAt !== null,
    paused_reason: entity.pausedReason,
    paused_at: entity.pausedAt?.toISOString() ?? null,
    signing_key_overlap_until: overlap !== null && overlap > now ? overlap.toISOString() : null,
  };
}
