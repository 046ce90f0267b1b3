import { Column, Entity } from 'typeorm';
import type { Grant } from '../common/auth/principal';
import { IdColumn, IdPrimaryColumn } from '../database/id-column';
import { jsonColumn } from '../database/json-column';

/** A managed API key: its SHA-256 digest, never the key. */
@Entity({ name: 'api_keys' })
export class ApiKeyEntity {
  @IdPrimaryColumn()
  id: string;

  @Column({ type: 'varchar', length: 255 })
  name: string;

  @Column({ type: 'text', transformer: jsonColumn })
  permissions: Grant[];

  @Column({ name: 'key_digest', type: 'varchar', length: 64 })
  keyDigest: string;

  /** `rk_` and the first characters: enough to recognise a key in a list, not to use it. */
  @Column({ name: 'key_prefix', type: 'varchar', length: 16 })
  keyPrefix: string;

  @Column({ name: 'created_at', type: 'datetime', precision: 3 })
  createdAt: Date;

  @Column({ name: 'expires_at', type: 'datetime', precision: 3, nullable: true })
  expiresAt: Date | null;

  @Column({ name: 'last_used_at', type: 'datetime', precision: 3, nullable: true })
  lastUsedAt: Date | null;

  @Column({ name: 'revoked_at', type: 'datetime', precision: 3, nullable: true })
  revokedAt: Date | null;

  /** Where it may be used from (IPv4/IPv6 CIDRs); null: from anywhere. */
  @Column({ name: 'allowed_cidrs', type: 'text', nullable: true, transformer: jsonColumn })
  allowedCidrs: string[] | null;

  /** The secret a rotation replaced, still accepted until previousKeyExpiresAt (the overlap). */
  @Column({ name: 'previous_key_digest', type: 'varchar', length: 64, nullable: true })
  previousKeyDigest: string | null;

  @Column({ name: 'previous_key_expires_at', type: 'datetime', precision: 3, nullable: true })
  previousKeyExpiresAt: Date | null;

  /** The key that created it, null when the administrator did: it expires and is revoked with that key. */
  @IdColumn({ name: 'created_by_key_id', nullable: true })
  createdByKeyId: string | null;

  /** The relayers it may see, ids and `prefix*` (docs/reference/keys-and-audit.md#3-relayer-scope); null: every relayer. */
  @Column({ name: 'relayer_ids', type: 'text', nullable: true, transformer: jsonColumn })
  relayerIds: string[] | null;
}
