// The notifications' public face: what other features and extensions import (docs/architecture.md).
export { notificationNotFound } from './notifications.errors';
export {
  CreateNotificationDto,
  NotificationStateResponse,
  NotificationSummaryResponse,
  RotateSigningKeyDto,
} from './dto/notification.dto';
export { PutSigningSchemeDto, SigningSchemeResponse } from './dto/signing-scheme.dto';
export {
  NotificationCreateRules,
  NotificationPatchRules,
  RotateSigningKeyRules,
  SigningSchemeRules,
} from './notifications.validation';
export { NotificationsService, SIGNING_KEY_CIPHER, type DeliveryTarget } from './notifications.service';
export { NotificationStateService } from './notification-state.service';
export { successRate } from './target-health';
export { standardWebhooksSecret } from './signing-scheme';
export {
  ALERT_CHANNELS,
  WEBHOOK_TARGETS,
  alertChannelNotFound,
  kindCondition,
  kindOf,
  type TargetKind,
} from './target-kind';
export { AlertChannelsRepository } from './alert-channels.repository';
export {
  ALERT_CHANNEL_TYPES,
  NotificationEntity,
  type AlertChannelType,
  type DeliveryTargetType,
} from './notification.entity';
