import type { AlertChannelResponse } from './dto/alert-channel.dto';

/** docs/reference/extension-events.md: a channel's changes, as a notification's are published. */
export const ALERT_CHANNEL_EVENTS = {
  created: 'alert_channel.created',
  updated: 'alert_channel.updated',
  deleted: 'alert_channel.deleted',
} as const;

export interface AlertChannelEvent {
  readonly alert_channel: AlertChannelResponse;
}

declare module '../database/on-committing' {
  interface CommittingEvents {
    [ALERT_CHANNEL_EVENTS.created]: AlertChannelEvent;
    [ALERT_CHANNEL_EVENTS.updated]: AlertChannelEvent;
    [ALERT_CHANNEL_EVENTS.deleted]: AlertChannelEvent;
  }
}
