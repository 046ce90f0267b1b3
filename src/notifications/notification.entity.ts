import { Column, Entity } from 'typeorm';
import { VersionedRow } from '../database/versioned-row';

/** The interface's Notification: a webhook target. */
export const NOTIFICATION_TYPES = ['webhook'] as const;
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];

/** docs/reference/alert-channels.md: the alert channels, kept beside the webhook targets. */
export const ALERT_CHANNEL_TYPES = ['slack', 'pagerduty', 'email'] as const;
export type AlertChannelType = (typeof ALERT_CHANNEL_TYPES)[number];

/** Every kind of delivery target this table holds, each delivered through the same log. */
export type DeliveryTargetType = NotificationType | AlertChannelType;

/**
 * docs/reference/webhooks.md#13-standard-webhooks: how a target's deliveries are signed. `reference`:
 * the reference system's headers alone; `standard`: the Standard Webhooks headers besides them.
 */
export const SIGNING_SCHEMES = ['reference', 'standard'] as const;
export type SigningScheme = (typeof SIGNING_SCHEMES)[number];

/**
 * A delivery target: a webhook (the interface's Notification) or an alert channel. The two are read
 * apart (TargetKind); their deliveries share one log, one dispatcher and one outbox.
 */
@Entity({ name: 'notifications' })
export class NotificationEntity extends VersionedRow {
  @Column({ type: 'varchar', length: 16 })
  type: DeliveryTargetType;

  /** A webhook's URL; '' for an alert channel, whose addresses are in channelConfig. */
  @Column({ type: 'varchar', length: 2048 })
  url: string;

  /**
   * An alert channel's `config` as JSON, sealed (enc:v1:...) when STORAGE_ENCRYPTION_KEY is set: it
   * holds secrets (a Slack webhook URL, a PagerDuty routing key). Null for a webhook.
   */
  @Column({ name: 'channel_config', type: 'text', nullable: true })
  channelConfig: string | null;

  /** The webhook signing key, encrypted (enc:v1:...) when STORAGE_ENCRYPTION_KEY is set. */
  @Column({ name: 'signing_key', type: 'text', nullable: true })
  signingKey: string | null;

  /** When the target was paused (docs/reference/webhooks.md#10-pausing-a-target), or null. */
  @Column({ name: 'paused_at', type: 'datetime', precision: 3, nullable: true })
  pausedAt: Date | null;

  @Column({ name: 'paused_reason', type: 'varchar', length: 600, nullable: true })
  pausedReason: string | null;

  /** The key replaced by a rotation, sealed as signingKey, used until signingKeyOverlapUntil. */
  @Column({ name: 'previous_signing_key', type: 'text', nullable: true })
  previousSigningKey: string | null;

  @Column({ name: 'signing_key_overlap_until', type: 'datetime', precision: 3, nullable: true })
  signingKeyOverlapUntil: Date | null;

  /** docs/reference/webhooks.md#13-standard-webhooks: `standard` only with a whsec_ signing key. */
  @Column({ name: 'signing_scheme', type: 'varchar', length: 16, default: 'reference' })
  signingScheme: SigningScheme;
}
