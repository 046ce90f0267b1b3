import { Column, Entity } from 'typeorm';
import type { Grant } from '../common/auth/principal';
import { jsonColumn } from '../database/json-column';
import { VersionedRow } from '../database/versioned-row';

/**
 * What the people in some of the identity provider's groups may do
 * (docs/access.md#signing-in-with-your-identity-provider): a key's permissions and relayer scope,
 * given to a person instead of a secret.
 */
@Entity({ name: 'roles' })
export class RoleEntity extends VersionedRow {
  @Column({ type: 'text', transformer: jsonColumn })
  permissions: Grant[];

  /** Ids and `prefix*`, as a key's; null: every relayer. */
  @Column({ name: 'relayer_ids', type: 'text', nullable: true, transformer: jsonColumn })
  relayerIds: string[] | null;

  /** Values of the ID token's groups claim: a person in any of them holds the role. */
  // `groups` is a reserved word of MySQL 8.
  @Column({ name: 'group_names', type: 'text', transformer: jsonColumn })
  groups: string[];
}
