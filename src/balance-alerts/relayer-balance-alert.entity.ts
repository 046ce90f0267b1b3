import { Column, Entity } from 'typeorm';
import { IdPrimaryColumn } from '../database/id-column';

/** A relayer's own balance alert: it replaces its network's. */
@Entity({ name: 'relayer_balance_alerts' })
export class RelayerBalanceAlertEntity {
  @IdPrimaryColumn({ name: 'relayer_id' })
  id: string;

  /** A decimal string in the relayer's base unit; null: no alert for it, whatever its network says. */
  @Column({ type: 'varchar', length: 1000, nullable: true })
  threshold: string | null;

  @Column({ type: 'integer' })
  version: number;

  @Column({ name: 'updated_at', type: 'datetime', precision: 3 })
  updatedAt: Date;
}
