import { Column, Entity } from 'typeorm';
import { IdPrimaryColumn } from '../database/id-column';

/** The balance alert of every relayer on a network that has none of its own. */
@Entity({ name: 'network_balance_alerts' })
export class NetworkBalanceAlertEntity {
  /** `<type>:<name>`, as in the API. */
  @IdPrimaryColumn({ name: 'network_id', length: 120, characters: 'text' })
  id: string;

  /** A decimal string, in the network's base unit. */
  @Column({ type: 'varchar', length: 1000 })
  threshold: string;

  @Column({ type: 'integer' })
  version: number;

  @Column({ name: 'updated_at', type: 'datetime', precision: 3 })
  updatedAt: Date;
}
