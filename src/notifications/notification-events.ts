import type { NotificationResponse } from './dto/notification.dto';

/** docs/reference/extension-events.md */
export const NOTIFICATION_EVENTS = {
  created: 'notification.created',
  updated: 'notification.updated',
  deleted: 'notification.deleted',
} as const;

export interface NotificationEvent {
  readonly notification: NotificationResponse;
}

declare module '../database/on-committing' {
  interface CommittingEvents {
    [NOTIFICATION_EVENTS.created]: NotificationEvent;
    [NOTIFICATION_EVENTS.updated]: NotificationEvent;
    [NOTIFICATION_EVENTS.deleted]: NotificationEvent;
  }
}
