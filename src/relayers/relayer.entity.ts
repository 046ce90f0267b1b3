import { Column, Entity } from 'typeorm';
import { VersionedRow } from '../database/versioned-row';
import { DocumentColumn } from '../database/document-column';
import { IdColumn } from '../database/id-column';
import type { NetworkType } from '../catalogue';
import type { RpcUrl } from '../common/validation/rpc-url-list';
import { jsonColumn } from '../database/json-column';

export interface DisabledReason {
  type: string;
  details: string;
}

@Entity({ name: 'relayers' })
export class RelayerEntity extends VersionedRow {
  @Column({ type: 'varchar', length: 255 })
  name: string;

  /** A network's name, as the catalogue has it. */
  @IdColumn({ length: 100, characters: 'text' })
  network: string;

  @Column({ name: 'network_type', type: 'varchar', length: 16 })
  networkType: NetworkType;

  @Column({ type: 'varchar', length: 128 })
  address: string;

  @IdColumn({ name: 'signer_id' })
  signerId: string;

  @IdColumn({ name: 'notification_id', nullable: true })
  notificationId: string | null;

  @Column({ type: 'boolean' })
  paused: boolean;

  @Column({ name: 'system_disabled', type: 'boolean' })
  systemDisabled: boolean;

  @DocumentColumn({ name: 'disabled_reason', nullable: true, transformer: jsonColumn })
  disabledReason: DisabledReason | null;

  /** Unmasked: the secret parts of the URLs never leave the process (see toRelayerResponse). */
  @DocumentColumn({ name: 'custom_rpc_urls', nullable: true, transformer: jsonColumn })
  customRpcUrls: RpcUrl[] | null;

  @DocumentColumn({ nullable: true, transformer: jsonColumn })
  policies: Record<string, unknown> | null;
}
