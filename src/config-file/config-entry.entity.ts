import { Column, Entity, PrimaryColumn } from 'typeorm';

/** The digest of a configuration-file entry as last applied (docs/reference/config-file.md#2-reconciliation-at-every-start). */
@Entity({ name: 'config_entries' })
export class ConfigEntryEntity {
  /** `relayer` or `notification`. */
  @PrimaryColumn({ type: 'varchar', length: 16 })
  kind: string;

  @PrimaryColumn({ type: 'varchar', length: 36 })
  id: string;

  /** SHA-256 (hex) of the entry as the file gave it, secrets resolved. */
  @Column({ type: 'varchar', length: 64 })
  digest: string;

  @Column({ name: 'applied_at', type: 'datetime', precision: 3 })
  appliedAt: Date;
}
