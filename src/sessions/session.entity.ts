import { Column, Entity } from 'typeorm';
import { IdColumn, IdPrimaryColumn } from '../database/id-column';
import { jsonColumn } from '../database/json-column';

/** A person signed in (docs/access.md#sessions-and-csrf): the cookie's digest, never the cookie. */
@Entity({ name: 'sessions' })
export class SessionEntity {
  @IdPrimaryColumn()
  id: string;

  /** SHA-256 of the cookie's value, hex. */
  @IdColumn({ name: 'token_digest', length: 64 })
  tokenDigest: string;

  /** `<issuer>#<sub>`: the person's audit actor id. */
  @IdColumn({ name: 'user_id', length: 255, characters: 'text' })
  userId: string;

  /** Their email, else preferred_username, else sub. */
  @Column({ name: 'user_name', type: 'varchar', length: 255 })
  userName: string;

  @Column({ name: 'user_email', type: 'varchar', length: 255, nullable: true })
  userEmail: string | null;

  /** The groups claim at sign-in; the roles they meet are read again at every request. */
  @Column({ name: 'group_names', type: 'text', transformer: jsonColumn })
  groups: string[];

  @Column({ name: 'created_at', type: 'datetime', precision: 3 })
  createdAt: Date;

  @Column({ name: 'last_used_at', type: 'datetime', precision: 3 })
  lastUsedAt: Date;

  @Column({ name: 'idle_expires_at', type: 'datetime', precision: 3 })
  idleExpiresAt: Date;

  @Column({ name: 'expires_at', type: 'datetime', precision: 3 })
  expiresAt: Date;

  /** Signed out, ended by an administrator, or left without a role. */
  @Column({ name: 'ended_at', type: 'datetime', precision: 3, nullable: true })
  endedAt: Date | null;
}
