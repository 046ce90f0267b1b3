import { Column, Entity } from 'typeorm';
import { VersionedRow } from '../database/versioned-row';

export const NOTIFICATION_TYPES = ['webhook'] as const;
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];

/**
 * docs/reference/webhooks.md#13-standard-webhooks: how a target's deliveries are signed. `reference`:
 * the reference system's headers alone; `standard`: the Standard Webhooks headers besides them.
 */
export const SIGNING_SCHEMES = ['reference', 'standard'] as const;
export type SigningScheme = (typeof SIGNING_SCHEMES)[number];

@Entity({ name: 'notifications' })
export class NotificationEntity extends VersionedRow {
  @Column({ type: 'varchar', length: 16 })
  type: NotificationType;

  @Column({ type: 'varchar', length: 2048 })
  url: string;

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
