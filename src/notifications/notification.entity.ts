import { Column, Entity, PrimaryColumn } from 'typeorm';

export const NOTIFICATION_TYPES = ['webhook'] as const;
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];

@Entity({ name: 'notifications' })
export class NotificationEntity {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id: string;

  @Column({ type: 'varchar', length: 16 })
  type: NotificationType;

  @Column({ type: 'varchar', length: 2048 })
  url: string;

  /** The webhook signing key, encrypted (enc:v1:...) when STORAGE_ENCRYPTION_KEY is set. */
  @Column({ name: 'signing_key', type: 'text', nullable: true })
  signingKey: string | null;

  @Column({ type: 'integer' })
  version: number;

  @Column({ name: 'created_at', type: 'datetime', precision: 3 })
  createdAt: Date;

  @Column({ name: 'updated_at', type: 'datetime', precision: 3 })
  updatedAt: Date;
}
