import { Column, Entity } from 'typeorm';
import { IdColumn, IdPrimaryColumn } from '../database/id-column';

export const DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/**
 * The outbox row of one target, and then its delivery log entry; the body it sends is its event's
 * (WebhookEventEntity, by `event_id`), shared with the event's other targets.
 */
@Entity({ name: 'webhook_deliveries' })
export class DeliveryEntity {
  @IdPrimaryColumn()
  id: string;

  @IdColumn({ name: 'notification_id' })
  notificationId: string;

  /** The WebhookEventEntity whose body it sends. */
  @IdColumn({ name: 'event_id' })
  eventId: string;

  @Column({ type: 'varchar', length: 32 })
  event: string;

  @IdColumn({ name: 'relayer_id', nullable: true })
  relayerId: string | null;

  @Column({ type: 'varchar', length: 16 })
  status: DeliveryStatus;

  @Column({ type: 'integer' })
  attempts: number;

  @Column({ name: 'last_status_code', type: 'integer', nullable: true })
  lastStatusCode: number | null;

  @Column({ name: 'last_error', type: 'varchar', length: 500, nullable: true })
  lastError: string | null;

  @Column({ name: 'next_attempt_at', type: 'datetime', precision: 3 })
  nextAttemptAt: Date;

  @Column({ name: 'lease_owner', type: 'varchar', length: 64, nullable: true })
  leaseOwner: string | null;

  @Column({ name: 'lease_until', type: 'datetime', precision: 3, nullable: true })
  leaseUntil: Date | null;

  @Column({ name: 'created_at', type: 'datetime', precision: 3 })
  createdAt: Date;

  @Column({ name: 'delivered_at', type: 'datetime', precision: 3, nullable: true })
  deliveredAt: Date | null;

  @Column({ name: 'ended_at', type: 'datetime', precision: 3, nullable: true })
  endedAt: Date | null;

  /** When a replay last queued it again (docs/reference/webhooks.md#7-replay): at most once an hour. */
  @Column({ name: 'replayed_at', type: 'datetime', precision: 3, nullable: true })
  replayedAt: Date | null;

  /** How long its last attempt took (docs/reference/webhooks.md#9-stats); null until one is made. */
  @Column({ name: 'latency_ms', type: 'integer', nullable: true })
  latencyMs: number | null;

  /**
   * When it last ended failed, and its error then (docs/reference/webhooks.md#93-the-fields): kept
   * when a replay or a retry queues it again and when it is delivered afterwards.
   */
  @Column({ name: 'failed_at', type: 'datetime', precision: 3, nullable: true })
  failedAt: Date | null;

  @Column({ name: 'failed_error', type: 'varchar', length: 500, nullable: true })
  failedError: string | null;
}
