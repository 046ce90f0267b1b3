import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { NetworkType } from '../catalogue/catalogue.types';

/** Stored as JSON text; see RelayersRepository for (de)serialisation. */
export interface StoredRpcUrl {
  url: string;
  weight: number;
}

export interface DisabledReason {
  type: string;
  details: string;
}

@Entity({ name: 'relayers' })
export class RelayerEntity {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id: string;

  @Column({ type: 'varchar', length: 255 })
  name: string;

  @Column({ type: 'varchar', length: 100 })
  network: string;

  @Column({ name: 'network_type', type: 'varchar', length: 16 })
  networkType: NetworkType;

  @Column({ type: 'varchar', length: 128 })
  address: string;

  @Column({ name: 'signer_id', type: 'varchar', length: 36 })
  signerId: string;

  @Column({ name: 'notification_id', type: 'varchar', length: 36, nullable: true })
  notificationId: string | null;

  @Column({ type: 'boolean' })
  paused: boolean;

  @Column({ name: 'system_disabled', type: 'boolean' })
  systemDisabled: boolean;

  /** JSON text of DisabledReason, or null. */
  @Column({ name: 'disabled_reason', type: 'text', nullable: true })
  disabledReason: string | null;

  /** JSON text of StoredRpcUrl[], or null. */
  @Column({ name: 'custom_rpc_urls', type: 'text', nullable: true })
  customRpcUrls: string | null;

  /** JSON text of the normalised policies (big integers with every digit), or null. */
  @Column({ type: 'text', nullable: true })
  policies: string | null;

  /** Optimistic lock: every update checks and bumps it, so concurrent merges never lose a change. */
  @Column({ type: 'integer' })
  version: number;

  @Column({ name: 'created_at', type: 'datetime', precision: 3 })
  createdAt: Date;

  @Column({ name: 'updated_at', type: 'datetime', precision: 3 })
  updatedAt: Date;
}
