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

/**
 * A paused target resumed (docs/reference/webhooks.md#10-pausing-a-target): the dispatcher, woken
 * after commit, sends its backlog. In the transaction, the webhooks reset its failure count.
 */
export const NOTIFICATION_RESUMED = 'notification.resumed';

export interface NotificationResumedEvent {
  readonly notificationId: string;
}

declare module '../database/on-committing' {
  interface CommittingEvents {
    [NOTIFICATION_RESUMED]: NotificationResumedEvent;
  }
}
