import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { RelayerScope, type ScopeCondition } from '../common/auth/relayer-scope';
import { EntityRepository } from '../database/entity-rows';
import { SignerEntity } from './signer.entity';

/**
 * Rows of the signers created through the API. Writes take the EntityManager of the caller's
 * transaction. Reads see only the signers of the request's key (docs/reference/keys-and-audit.md#3-relayer-scope):
 * one outside its scope is missing to it, in lists (filtered in the query, counts included) as for
 * one id; SignersService applies the same scope to the file's signers.
 */
@Injectable()
export class SignersRepository extends EntityRepository(SignerEntity) {
  /** The current request's scope as a condition on `signers.id`; null: every signer. */
  private scoped(): ScopeCondition | null {
    // `id` is binary (1797600000000-ExactIds): compared as it stands, its index serves an exact entry.
    const scope = RelayerScope.filter('id', (expression) => expression);
    return scope.sql === '' ? null : scope;
  }

  override async findById(id: string, manager?: EntityManager): Promise<SignerEntity | null> {
    const scope = this.scoped();
    if (scope === null) return super.findById(id, manager);
    const [found] = await this.select(
      `SELECT ${this.columns} FROM ${this.table} WHERE id = ?${scope.sql}`,
      [id, ...scope.parameters],
      manager,
    );
    return found ?? null;
  }

  /** Without a scope, the row count cached for a second; with one, counted in the query. */
  override async findPage(offset: number, limit: number): Promise<{ items: SignerEntity[]; total: number }> {
    const scope = this.scoped();
    if (scope === null) return super.findPage(offset, limit);
    const where = `WHERE 1 = 1${scope.sql}`;
    const [items, counted] = await Promise.all([
      this.select(
        `SELECT ${this.columns} FROM ${this.table} ${where} ORDER BY created_at, id LIMIT ? OFFSET ?`,
        [...scope.parameters, limit, offset],
      ),
      this.repository.query<Array<{ n: number | string }>>(
        `SELECT COUNT(*) AS n FROM ${this.table} ${where}`,
        [...scope.parameters],
      ),
    ]);
    return { items, total: Number(counted[0].n) };
  }

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
