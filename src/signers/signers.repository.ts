import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { EntityManager, Repository } from 'typeorm';
import { isUniqueViolation } from '../common/errors/database-errors';
import { EntityRows } from '../database/entity-rows';
import { asColumnValues } from '../database/json-column';
import { lockingReadClause } from '../database/row-locks';
import { SignerEntity } from './signer.entity';

/** Rows of the signers created through the API. Writes take the EntityManager of the caller's transaction. */
@Injectable()
export class SignersRepository {
  private readonly rows: EntityRows<SignerEntity>;

  constructor(@InjectRepository(SignerEntity) repository: Repository<SignerEntity>) {
    this.rows = new EntityRows(repository);
  }

  /** With a transaction's manager, read inside that transaction. */
  findById(id: string, manager?: EntityManager): Promise<SignerEntity | null> {
    return manager ? manager.findOneBy(SignerEntity, { id }) : this.rows.findById(id);
  }

  findPage(offset: number, limit: number): Promise<{ items: SignerEntity[]; total: number }> {
    return this.rows.findPage(offset, limit);
  }

  /** False when the id is taken (also when two requests race). */
  async insert(manager: EntityManager, entity: SignerEntity): Promise<boolean> {
    try {
      await manager.insert(SignerEntity, asColumnValues(entity));
      return true;
    } catch (error) {
      if (isUniqueViolation(error)) return false;
      throw error;
    } finally {
      this.rows.countChanged();
    }
  }

  /**
   * Whether the signer exists, read in the caller's transaction with a lock (shared to use it,
   * exclusive to delete it) held until that transaction ends: a relayer create and the signer's
   * delete cannot both succeed. SQLite runs one write transaction at a time and needs none.
   */
  async lock(manager: EntityManager, id: string, mode: 'share' | 'update'): Promise<boolean> {
    const rows = await manager.query<unknown[]>(
      `SELECT id FROM signers WHERE id = ?${lockingReadClause(manager, mode)}`,
      [id],
    );
    return rows.length > 0;
  }

  async delete(manager: EntityManager, id: string): Promise<void> {
    try {
      await manager.delete(SignerEntity, { id });
    } finally {
      this.rows.countChanged();
    }
  }
}
