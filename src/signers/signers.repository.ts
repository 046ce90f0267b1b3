import { Injectable } from '@nestjs/common';
import { EntityRepository } from '../database/entity-rows';
import type { ReadTx } from '../database/transactions';
import { SignerEntity } from './signer.entity';

/**
 * Rows of the signers created through the API. Reads see only the signers of the request's key
 * (docs/reference/keys-and-audit.md#3-relayer-scope): one outside its scope is missing to it, in
 * lists (filtered in the query, counts included) as for one id; SignersService applies the same
 * scope to the file's signers.
 */
@Injectable()
export class SignersRepository extends EntityRepository(SignerEntity) {
  protected override readonly scopeColumn = 'id';

  /**
   * Whether the signer exists, read in the caller's transaction with a lock (shared to use it,
   * exclusive to delete it) held until that transaction ends: a relayer create and the signer's
   * delete cannot both succeed. SQLite runs one write transaction at a time and needs none.
   */
  async lock(id: string, mode: 'share' | 'update', { manager }: ReadTx): Promise<boolean> {
    const rows = await manager.query<unknown[]>(
      `SELECT id FROM signers WHERE id = ?${this.dialect.lockingRead(mode)}`,
      [id],
    );
    return rows.length > 0;
  }

  async delete(id: string, tx: ReadTx): Promise<void> {
    await this.deleteVersioned(id, undefined, tx);
  }
}
