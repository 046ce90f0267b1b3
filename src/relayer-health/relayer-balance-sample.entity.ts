import { Column, Entity, PrimaryColumn } from 'typeorm';
import { IdPrimaryColumn } from '../database/id-column';

/** A balance a health check read, kept when it differed from the one before (docs/reference/relayer-health.md#35-balance-history). */
@Entity({ name: 'relayer_balance_samples' })
export class RelayerBalanceSampleEntity {
  @IdPrimaryColumn({ name: 'relayer_id' })
  relayerId: string;

  @PrimaryColumn({ name: 'at', type: 'datetime', precision: 3 })
  at: Date;

  /** In the smallest unit, as a decimal string. */
  @Column({ type: 'varchar', length: 100 })
  balance: string;
}
