import { entityTag, Tagged } from '../common/http/etag';
import { NotificationResponse } from './dto/notification.dto';
import { NotificationEntity } from './notification.entity';

export function toNotificationResponse(entity: NotificationEntity): NotificationResponse {
  return { id: entity.id, type: entity.type, url: entity.url, has_signing_key: entity.signingKey !== null };
}

/** The notification's answer with its entity tag (docs/reference/safe-writes.md), which changes with every write of it. */
export function toTaggedNotification(entity: NotificationEntity): Tagged<NotificationResponse> {
  return new Tagged(toNotificationResponse(entity), entityTag(entity.version, entity.createdAt));
}
