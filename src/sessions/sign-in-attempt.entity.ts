import { Column, Entity } from 'typeorm';
import { IdColumn, IdPrimaryColumn } from '../database/id-column';

/**
 * A sign-in between the redirect to the identity provider and its callback (docs/access.md#sessions-and-csrf):
 * what the callback checks the provider's answer against, on whichever instance it lands. Used once.
 */
@Entity({ name: 'sign_in_attempts' })
export class SignInAttemptEntity {
  /** SHA-256 of the `state` sent to the provider (and kept in the browser's sign-in cookie), hex. */
  @IdPrimaryColumn({ name: 'state_digest', length: 64 })
  stateDigest: string;

  @IdColumn()
  id: string;

  @Column({ type: 'varchar', length: 64 })
  nonce: string;

  @Column({ name: 'code_verifier', type: 'varchar', length: 128 })
  codeVerifier: string;

  @Column({ name: 'created_at', type: 'datetime', precision: 3 })
  createdAt: Date;
}
