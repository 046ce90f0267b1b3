import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { EntityRepository } from '../database/entity-rows';
import { SignerEntity } from './signer.entity';

/** Rows of the signers created through the API. Writes take the EntityManager of the caller's transaction. */
@Injectable()
export class SignersRepository extends EntityRepository(SignerEntity) {
  /**
   * Whether the signer exists, read in the caller's transaction with a lock (shared to use it,
   * exclusive to delete it) held until that transaction ends: a relayer create and the signer's
   * delete cannot both succeed. SQLite runs one write transaction at a time and needs none.
   */
  async lock(manager: EntityManager, id: string, mode: 'share' | 'update'): Promise<boolean> {
    const rows = await manager.query<unknown[]>(
      `SELECT id FROM signers WHERE id = ?${this.dialect.lockingRead(mode)}`,
      [id],
    );
    return rows.length > 0;
  }

  async delete(manager: EntityManager, id: string): Promise<void> {
    await this.deleteVersioned(manager, id);
  }
}
