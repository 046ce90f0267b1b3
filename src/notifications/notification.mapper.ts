import { entityTag, Tagged } from '../common/http/tagged';
import { NotificationResponse } from './dto/notification.dto';
import { NotificationEntity } from './notification.entity';

/** A webhook target: NotificationsRepository reads no other kind. */
export function toNotificationResponse(entity: NotificationEntity): NotificationResponse {
  return { id: entity.id, type: 'webhook', url: entity.url, has_signing_key: entity.signingKey !== null };
}

export function toTaggedNotification(entity: NotificationEntity): Tagged<NotificationResponse> {
  return new Tagged(toNotificationResponse(entity), entityTag(entity.version, entity.createdAt));
}
