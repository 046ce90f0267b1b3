import { Column, Entity } from 'typeorm';
import { VersionedRow } from '../database/versioned-row';

export const NOTIFICATION_TYPES = ['webhook'] as const;
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];

@Entity({ name: 'notifications' })
export class NotificationEntity extends VersionedRow {
  @Column({ type: 'varchar', length: 16 })
  type: NotificationType;

  @Column({ type: 'varchar', length: 2048 })
  url: string;

  /** The webhook signing key, encrypted (enc:v1:...) when STORAGE_ENCRYPTION_KEY is set. */
  @Column({ name: 'signing_key', type: 'text', nullable: true })
  signingKey: string | null;
}
