import { Injectable } from '@nestjs/common';
import { IsNull, type EntityManager } from 'typeorm';
import { EntityRepository } from '../database/entity-repository';
import { ApiKeyEntity } from './api-key.entity';

/** Managed API keys; a revoked key keeps its row (revoked_at) and is found by nothing here. */
@Injectable()
export class ApiKeysRepository extends EntityRepository(ApiKeyEntity) {
  findActive(id: string, manager = this.repository.manager): Promise<ApiKeyEntity | null> {
    return manager.findOneBy(ApiKeyEntity, { id, revokedAt: IsNull() });
  }

  findActiveByDigest(keyDigest: string): Promise<ApiKeyEntity | null> {
    return this.repository.findOneBy({ keyDigest, revokedAt: IsNull() });
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

  async revoke(manager: EntityManager, id: string, at: Date): Promise<boolean> {
    const result = await manager.update(ApiKeyEntity, { id, revokedAt: IsNull() }, { revokedAt: at });
    return (result.affected ?? 0) > 0;
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
