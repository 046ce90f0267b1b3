import { Column, Entity } from 'typeorm';
import { DocumentColumn } from '../database/document-column';
import { IdPrimaryColumn } from '../database/id-column';

/**
 * One closed hour of a target's delivery log, summed up (src/webhooks/delivery-hours.ts,
 * docs/reference/webhooks.md#94-the-cost): made by the stats read that first needs it, removed when a
 * retry or a replay queues again a delivery that ended or failed in it, and with its target.
 */
@Entity({ name: 'webhook_delivery_hours' })
export class DeliveryHourEntity {
  @IdPrimaryColumn({ name: 'notification_id' })
  notificationId: string;

  /** `YYYY-MM-DD HH` (UTC): the first 13 characters of the datetimes it sums up, on both databases. */
  @IdPrimaryColumn({ name: 'hour', length: 13 })
  hour: string;

  @Column({ type: 'integer' })
  delivered: number;

  @Column({ type: 'integer' })
  failed: number;

  @Column({ type: 'integer' })
  retried: number;

  /** By `failed_at`: the deliveries whose last failure was in the hour. */
  @Column({ type: 'integer' })
  failures: number;

  /** The delivered ones' latencies, encodeHistogram's text. */
  @DocumentColumn()
  latencies: string;
}
