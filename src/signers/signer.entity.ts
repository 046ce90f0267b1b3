import { Column, Entity } from 'typeorm';
import { IdPrimaryColumn } from '../database/id-column';
import { jsonColumn } from '../database/json-column';
import type { SignerAddresses } from '../catalogue';
import type { HostedSignerType, ShownConfig } from './key-services/hosted-signer-config';

/** A signer created through the API (the file's signers live in the Catalogue, never in a row). */
@Entity({ name: 'signers' })
export class SignerEntity {
  @IdPrimaryColumn()
  id: string;

  @Column({ type: 'varchar', length: 16 })
  type: 'plain' | HostedSignerType;

  /**
   * AES-256-GCM encrypted with STORAGE_ENCRYPTION_KEY, the id as associated data: a plain signer's
   * key in hex; a hosted signer's credentials (JSON of its secret fields).
   */
  @Column({ name: 'encrypted_key', type: 'text' })
  encryptedKey: string;

  @Column({ type: 'text', nullable: true, transformer: jsonColumn })
  config: ShownConfig | null;

  /** Derived once at create (public, so reads never decrypt the key). */
  @Column({ type: 'text', transformer: jsonColumn })
  addresses: SignerAddresses;

  @Column({ name: 'created_at', type: 'datetime', precision: 3 })
  createdAt: Date;
}
