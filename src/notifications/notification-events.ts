import type { NotificationResponse } from './dto/notification.dto';

/** The notification changes published on @nestjs/event-emitter after commit (docs/reference/extension-events.md). */
export const NOTIFICATION_EVENTS = {
  created: 'notification.created',
  updated: 'notification.updated',
  deleted: 'notification.deleted',
} as const;

export interface NotificationEvent {
  readonly notification: NotificationResponse;
}
