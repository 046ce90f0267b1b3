import { Column, Entity, PrimaryColumn } from 'typeorm';

/** The balance alert of every relayer on a network that has none of its own. */
@Entity({ name: 'network_balance_alerts' })
export class NetworkBalanceAlertEntity {
  /** `<type>:<name>`, as in the API. */
  @PrimaryColumn({ name: 'network_id', type: 'varchar', length: 120 })
  id: string;

  /** A decimal string, in the network's base unit. */
  @Column({ type: 'varchar', length: 1000 })
  threshold: string;

  @Column({ type: 'integer' })
  version: number;

  @Column({ name: 'updated_at', type: 'datetime', precision: 3 })
  updatedAt: Date;
}
