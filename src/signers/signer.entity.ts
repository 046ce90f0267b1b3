import { Column, Entity, PrimaryColumn } from 'typeorm';
import { jsonColumn } from '../database/json-column';
import type { SignerAddresses } from '../catalogue/catalogue.service';

/** A signer created through the API (the file's signers live in the Catalogue, never in a row). */
@Entity({ name: 'signers' })
export class SignerEntity {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id: string;

  /** `plain`: the only type the API creates. */
  @Column({ type: 'varchar', length: 16 })
  type: 'plain';

  /** The key's hex, AES-256-GCM encrypted with STORAGE_ENCRYPTION_KEY, the id as associated data. */
  @Column({ name: 'encrypted_key', type: 'text' })
  encryptedKey: string;

  /** Derived once at create (public, so reads never decrypt the key). */
  @Column({ type: 'text', transformer: jsonColumn })
  addresses: SignerAddresses;

  @Column({ name: 'created_at', type: 'datetime', precision: 3 })
  createdAt: Date;
}
