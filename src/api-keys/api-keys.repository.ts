import { Injectable } from '@nestjs/common';
import { In, IsNull, MoreThan, Not } from 'typeorm';
import { EntityRepository } from '../database/entity-rows';
import type { ReadTx } from '../database/transactions';
import { ApiKeyEntity } from './api-key.entity';

/** Far below SQLite's and MySQL's limits on the parameters of one statement. */
const CHUNK = 500;

function chunks(ids: readonly string[]): string[][] {
  const out: string[][] = [];
  for (let i = 0; i < ids.length; i += CHUNK) out.push(ids.slice(i, i + CHUNK));
  return out;
}

/** How many keys one statement reads when a scoped key's list is worked out. */
const SCAN_BATCH = 500;

/** What a scoped key's list is decided on: a key's id, when it was created, its relayer scope. */
export type KeyScopeRow = Pick<ApiKeyEntity, 'id' | 'createdAt' | 'relayerIds'>;

/**
 * Managed API keys; a revoked key keeps its row (revoked_at) and is found by nothing here. Ids are
 * compared here byte for byte, whatever the column's collation (MySQL's default ignores case): a
 * key is found only by its own id (docs/reference/keys-and-audit.md#46-ids-compare-exactly).
 */
@Injectable()
export class ApiKeysRepository extends EntityRepository(ApiKeyEntity) {
  async findActive(id: string, tx?: ReadTx): Promise<ApiKeyEntity | null> {
    const row = await this.managerOf(tx).findOneBy(ApiKeyEntity, { id, revokedAt: IsNull() });
    return row !== null && row.id === id ? row : null;
  }

  /** The active keys of `ids` in that order (one statement); those revoked meanwhile are left out. */
  async findActiveInOrder(ids: readonly string[]): Promise<ApiKeyEntity[]> {
    if (ids.length === 0) return [];
    const rows = await this.repository.findBy({ id: In([...ids]), revokedAt: IsNull() });
    const byId = new Map(rows.map((row) => [row.id, row]));
    return ids.flatMap((id) => byId.get(id) ?? []);
  }

  /**
   * Every active key with a relayer scope, in batches of SCAN_BATCH by id: only the columns a scoped
   * key's list is decided on, so that memory holds one batch at a time.
   */
  async *scopedKeys(): AsyncGenerator<KeyScopeRow[]> {
    let after = '';
    for (;;) {
      const batch: KeyScopeRow[] = await this.repository.find({
        select: { id: true, createdAt: true, relayerIds: true },
        where: { revokedAt: IsNull(), relayerIds: Not(IsNull()), id: MoreThan(after) },
        order: { id: 'ASC' },
        take: SCAN_BATCH,
      });
      if (batch.length > 0) yield batch;
      if (batch.length < SCAN_BATCH) return;
      after = batch[batch.length - 1].id;
    }
  }

  /**
   * The ids of the keys that created `row`, nearest first: its creator, that key's creator, and so
   * on, up to a key the administrator created, or up to `stopAt` once met (one statement a
   * generation). Revoked keys included: a key is revoked with its creator, so an active key's
   * creators are active, and a chain is history, not permission.
   */
  async findCreatorChain(
    row: Pick<ApiKeyEntity, 'createdByKeyId'>,
    stopAt: string,
    tx?: ReadTx,
  ): Promise<string[]> {
    const chain: string[] = [];
    let next = row.createdByKeyId;
    while (next !== null && !chain.includes(next)) {
      chain.push(next);
      if (next === stopAt) break;
      const creator = await this.findById(next, tx);
      next = creator !== null && creator.id === next ? creator.createdByKeyId : null;
    }
    return chain;
  }

  /** By its secret's digest, or by the one a rotation replaced (whether its overlap ended is the caller's). */
  findActiveByDigest(keyDigest: string): Promise<ApiKeyEntity | null> {
    return this.repository.findOneBy([
      { keyDigest, revokedAt: IsNull() },
      { previousKeyDigest: keyDigest, revokedAt: IsNull() },
    ]);
  }

  /** Every key neither revoked nor expired that has an expiry (the expiry gauge). */
  findLiveExpiring(now: Date): Promise<ApiKeyEntity[]> {
    return this.repository.find({
      select: { id: true, name: true, expiresAt: true },
      where: { revokedAt: IsNull(), expiresAt: MoreThan(now) },
      order: { expiresAt: 'ASC', id: 'ASC' },
    });
  }

  /**
   * Gives the key a new secret, only while it is not revoked and still has the secret read (a rotation
   * or revocation in between: false, read again); `previousKeyDigest` is the one it had, or null.
   */
  async rotate(
    current: Pick<ApiKeyEntity, 'id' | 'keyDigest'>,
    next: Pick<ApiKeyEntity, 'keyDigest' | 'keyPrefix' | 'previousKeyDigest' | 'previousKeyExpiresAt'>,
    { manager }: ReadTx,
  ): Promise<boolean> {
    const { keyDigest, keyPrefix, previousKeyDigest, previousKeyExpiresAt } = next;
    const result = await manager.update(
      ApiKeyEntity,
      { id: current.id, keyDigest: current.keyDigest, revokedAt: IsNull() },
      { keyDigest, keyPrefix, previousKeyDigest, previousKeyExpiresAt },
    );
    return (result.affected ?? 0) > 0;
  }

  async findActivePage(offset: number, limit: number): Promise<{ items: ApiKeyEntity[]; total: number }> {
    const [items, total] = await this.repository.findAndCount({
      where: { revokedAt: IsNull() },
      order: { createdAt: 'ASC', id: 'ASC' },
      skip: offset,
      take: limit,
    });
    return { items, total };
  }

  /**
   * The creator of a key being created, read in that transaction with a shared lock held until it ends
   * (MySQL; SQLite runs one write transaction at a time): a revocation of the creator either waits
   * for the new key and then finds it among the creator's children, or commits first and the creator
   * is not found here.
   */
  async findActiveCreator(id: string, tx: ReadTx): Promise<ApiKeyEntity | null> {
    const [row] = await this.select(
      `SELECT ${this.columns} FROM ${this.table} WHERE id = ? AND revoked_at IS NULL${this.dialect.lockingRead('share')}`,
      [id],
      tx,
    );
    return row !== undefined && row.id === id ? row : null;
  }

  /**
   * Every active key `id` created, their children, and so on: one statement per generation. Locking
   * reads, so that a child committed while this transaction ran is seen (MySQL reads the latest rows).
   */
  async findActiveDescendants(id: string, tx: ReadTx): Promise<ApiKeyEntity[]> {
    const found: ApiKeyEntity[] = [];
    let parents = [id];
    while (parents.length > 0) {
      const children: ApiKeyEntity[] = [];
      for (const chunk of chunks(parents)) {
        const exact = new Set(chunk);
        const rows = await this.select(
          `SELECT ${this.columns} FROM ${this.table} WHERE created_by_key_id IN (${chunk.map(() => '?').join(', ')}) AND revoked_at IS NULL${this.dialect.lockingRead('update')}`,
          chunk,
          tx,
        );
        children.push(
          ...rows.filter((child) => child.createdByKeyId !== null && exact.has(child.createdByKeyId)),
        );
      }
      found.push(...children);
      parents = children.map((child) => child.id);
    }
    return found;
  }

  async revoke(id: string, at: Date, { manager }: ReadTx): Promise<boolean> {
    const result = await manager.update(ApiKeyEntity, { id, revokedAt: IsNull() }, { revokedAt: at });
    return (result.affected ?? 0) > 0;
  }

  async revokeAll(ids: readonly string[], at: Date, { manager }: ReadTx): Promise<void> {
    for (const chunk of chunks(ids)) {
      await manager.update(ApiKeyEntity, { id: In(chunk), revokedAt: IsNull() }, { revokedAt: at });
    }
  }

  /** Never moves last_used_at back (another instance may have written a later use). */
  async touchLastUsed(id: string, at: Date): Promise<void> {
    await this.repository
      .createQueryBuilder()
      .update(ApiKeyEntity)
      .set({ lastUsedAt: at })
      .where('id = :id AND (last_used_at IS NULL OR last_used_at < :at)', { id, at })
      .execute();
  }
}
