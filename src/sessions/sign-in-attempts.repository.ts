import { Injectable } from '@nestjs/common';
import { EntityRepository } from '../database/entity-rows';
import type { ReadTx } from '../database/transactions';
import { SignInAttemptEntity } from './sign-in-attempt.entity';

/** Sign-ins waiting for their callback; each is taken once. */
@Injectable()
export class SignInAttemptsRepository extends EntityRepository(SignInAttemptEntity) {
  /** Reads and deletes the attempt in the caller's transaction: of two callbacks with one state, one gets it. */
  async take(stateDigest: string, tx: ReadTx): Promise<SignInAttemptEntity | null> {
    const row = await this.findById(stateDigest, tx);
    if (!row) return null;
    const result = await tx.manager
      .createQueryBuilder()
      .delete()
      .from(SignInAttemptEntity)
      .where('state_digest = :stateDigest', { stateDigest })
      .execute();
    return (result.affected ?? 0) > 0 ? row : null;
  }

  async deleteBefore(before: Date): Promise<number> {
    const result = await this.repository
      .createQueryBuilder()
      .delete()
      .where('created_at < :before', { before })
      .execute();
    return result.affected ?? 0;
  }
}
