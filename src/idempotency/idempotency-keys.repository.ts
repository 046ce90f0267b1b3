import { Injectable } from '@nestjs/common';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { EntityRepository } from '../database/entity-rows';
import type { ReadTx } from '../database/transactions';
import { IdempotencyKeyEntity } from './idempotency-key.entity';

/** What a finished request leaves for its repeats. */
export interface StoredAnswer {
  readonly status: number;
  /** The envelope, as JSON text. */
  readonly body: string;
  readonly headers: Readonly<Record<string, string>>;
}

/** Which claim a write is about: only its holder completes or releases it. */
export interface ClaimRef {
  readonly scope: string;
  readonly key: string;
  readonly token: string;
}

/**
 * Every write is one statement whose WHERE names the claim it expects (or an INSERT the primary key
 * refuses), so instances on one server or on several Galera nodes never both hold one key.
 */
@Injectable()
export class IdempotencyKeysRepository extends EntityRepository(IdempotencyKeyEntity) {
  find(scope: string, key: string): Promise<IdempotencyKeyEntity | null> {
    return this.repository.findOneBy({ scope, key });
  }

  /**
   * Takes over a key whose claim ran out (an answer older than 24 hours, or a request that never
   * finished): false when another request took it over, released it or completed it first.
   */
  takeOver(previousToken: string, claim: IdempotencyKeyEntity, tx: ReadTx): Promise<boolean> {
    const { scope, key } = claim;
    const values = { ...claim, responseStatus: null, responseBody: null, responseHeaders: null };
    return this.updateClaim({ scope, key, token: previousToken }, values, tx);
  }

  /** Stores the answer of the claim's request; false when the claim was taken over meanwhile. */
  complete(claim: ClaimRef, answer: StoredAnswer, tx: ReadTx): Promise<boolean> {
    const { status, body, headers } = answer;
    const values = { state: 'done', responseStatus: status, responseBody: body } as const;
    return this.updateClaim(claim, { ...values, responseHeaders: JSON.stringify(headers) }, tx);
  }

  /** Gives the key up (its request failed with a 5xx): the next request with it runs. */
  async release({ scope, key, token }: ClaimRef, { manager }: ReadTx): Promise<void> {
    await manager.delete(IdempotencyKeyEntity, { scope, key, claimToken: token });
  }

  /**
   * Removes up to about `batch` keys claimed before `before`, oldest first: a bounded DELETE keeps
   * each transaction small (Galera replicates a transaction as one write set).
   */
  async deleteCreatedBefore(before: Date, batch: number, { manager }: ReadTx): Promise<number> {
    const [last] = await manager
      .createQueryBuilder(IdempotencyKeyEntity, 'k')
      .select('k.created_at', 'createdAt')
      .where('k.created_at < :before', { before })
      .orderBy('k.created_at')
      .offset(batch - 1)
      .limit(1)
      .getRawMany<{ createdAt: Date | string }>();
    const query = manager.createQueryBuilder().delete().from(IdempotencyKeyEntity);
    const result = last
      ? await query.where('created_at <= :upTo', { upTo: last.createdAt }).execute()
      : await query.where('created_at < :before', { before }).execute();
    return result.affected ?? 0;
  }

  private async updateClaim(
    { scope, key, token }: ClaimRef,
    values: QueryDeepPartialEntity<IdempotencyKeyEntity>,
    { manager }: ReadTx,
  ): Promise<boolean> {
    const result = await manager.update(IdempotencyKeyEntity, { scope, key, claimToken: token }, values);
    return (result.affected ?? 0) > 0;
  }
}
