import { Column, Entity } from 'typeorm';
import { IdPrimaryColumn } from '../database/id-column';

/**
 * docs/reference/webhooks.md#27-order: the instance sending a target's deliveries now, so that no
 * other sends that target's later events meanwhile. One row per target, made on its first batch.
 */
@Entity({ name: 'webhook_target_leases' })
export class TargetLeaseEntity {
  @IdPrimaryColumn({ name: 'notification_id' })
  notificationId: string;

  @Column({ name: 'lease_owner', type: 'varchar', length: 64, nullable: true })
  leaseOwner: string | null;

  @Column({ name: 'lease_until', type: 'datetime', precision: 3, nullable: true })
  leaseUntil: Date | null;

  /** Its deliveries that ended failed since the last one delivered (docs/reference/webhooks.md#10-pausing-a-target). */
  @Column({ name: 'consecutive_failures', type: 'integer', default: 0 })
  consecutiveFailures: number;
}
