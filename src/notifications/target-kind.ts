import { NotFoundError } from '../common/errors/domain-errors';
import { ALERT_CHANNEL_TYPES, NOTIFICATION_TYPES, type DeliveryTargetType } from './notification.entity';
import { notificationNotFound } from './notifications.errors';

export const alertChannelNotFound = (): NotFoundError => new NotFoundError('Alert channel not found');

/**
 * Which delivery targets a route reaches (docs/reference/alert-channels.md#7-one-machinery): the
 * webhooks under `/notifications` or the alert channels under `/alert-channels`. Each kind reads only
 * its own rows of `notifications` (NotificationsRepository, AlertChannelsRepository): a channel is
 * missing under `/notifications/{id}` and a webhook under `/alert-channels/{id}`.
 */
export interface TargetKind {
  /** The audited resource (`notification.update`, `alert_channel.update`). */
  readonly name: 'notification' | 'alert_channel';
  readonly types: readonly DeliveryTargetType[];
  readonly notFound: () => NotFoundError;
}

export const WEBHOOK_TARGETS: TargetKind = {
  name: 'notification',
  types: NOTIFICATION_TYPES,
  notFound: notificationNotFound,
};

export const ALERT_CHANNELS: TargetKind = {
  name: 'alert_channel',
  types: ALERT_CHANNEL_TYPES,
  notFound: alertChannelNotFound,
};

/** The kind a stored target is of. */
export const kindOf = (type: DeliveryTargetType): TargetKind =>
  (ALERT_CHANNELS.types as readonly string[]).includes(type) ? ALERT_CHANNELS : WEBHOOK_TARGETS;

/** ` AND <table.>type IN (...)`: the types are constants, written into the statement. */
export function kindCondition(kind: TargetKind, column = 'type'): string {
  return ` AND ${column} IN (${kind.types.map((type) => `'${type}'`).join(', ')})`;
}
