import { Column, Entity } from 'typeorm';
import { IdPrimaryColumn } from '../database/id-column';

@Entity({ name: 'relayer_checks' })
export class RelayerCheckEntity {
  @IdPrimaryColumn({ name: 'relayer_id' })
  relayerId: string;

  @Column({ name: 'next_check_at', type: 'datetime', precision: 3 })
  nextCheckAt: Date;

  @Column({ name: 'lease_owner', type: 'varchar', length: 64, nullable: true })
  leaseOwner: string | null;

  @Column({ name: 'lease_until', type: 'datetime', precision: 3, nullable: true })
  leaseUntil: Date | null;

  @Column({ name: 'checked_at', type: 'datetime', precision: 3, nullable: true })
  checkedAt: Date | null;

  @Column({ type: 'varchar', length: 100, nullable: true })
  balance: string | null;

  /** `balance` as text that sorts as the number does (balanceOrder): what the list's sort=balance reads. */
  @Column({ name: 'balance_order', type: 'varchar', length: 103, nullable: true })
  balanceOrder: string | null;

  @Column({ type: 'varchar', length: 40, nullable: true })
  nonce: string | null;

  @Column({ name: 'sequence_number', type: 'varchar', length: 40, nullable: true })
  sequenceNumber: string | null;

  @Column({ type: 'integer' })
  failures: number;

  /** The last comparison with the balance alert's threshold: below, not below, or none (docs/reference/balance-alerts.md). */
  @Column({ name: 'balance_low', type: 'boolean', nullable: true })
  balanceLow: boolean | null;
}
