// The notifications' public face: what other features and extensions import (docs/architecture.md).
export { notificationNotFound } from './notifications.errors';
export {
  CreateNotificationDto,
  NotificationStateResponse,
  RotateSigningKeyDto,
} from './dto/notification.dto';
export {
  NotificationCreateRules,
  NotificationPatchRules,
  RotateSigningKeyRules,
} from './notifications.validation';
export { NotificationsService, SIGNING_KEY_CIPHER, type DeliveryTarget } from './notifications.service';
export { NotificationStateService } from './notification-state.service';
export { successRate } from './target-health';
