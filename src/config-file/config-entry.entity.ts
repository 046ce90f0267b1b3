import { Column, Entity, PrimaryColumn } from 'typeorm';
import { IdPrimaryColumn } from '../database/id-column';
import { jsonColumn } from '../database/json-column';

/** The digest of a configuration-file entry as last applied (docs/reference/config-file.md#2-reconciliation-at-every-start). */
@Entity({ name: 'config_entries' })
export class ConfigEntryEntity {
  /** `relayer`, `notification` or `alert_channel`. */
  @PrimaryColumn({ type: 'varchar', length: 16 })
  kind: string;

  @IdPrimaryColumn()
  id: string;

  /** SHA-256 (hex) of the entry as the file gave it, secrets resolved. */
  @Column({ type: 'varchar', length: 64 })
  digest: string;

  /**
   * Each field's SHA-256 (hex) as last applied, never its value (a signing key is one); null for a
   * row applied before the field digests were kept (1796780408770-AddConfigEntryFields).
   */
  @Column({ type: 'text', nullable: true, transformer: jsonColumn })
  fields: Record<string, string> | null;

  @Column({ name: 'applied_at', type: 'datetime', precision: 3 })
  appliedAt: Date;
}
