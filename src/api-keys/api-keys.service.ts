import { Injectable } from '@nestjs/common';
import { randomBytes, randomUUID } from 'node:crypto';
import { holdsAll, type Principal } from '../common/auth/principal';
import { RelayerScope } from '../common/auth/relayer-scope';
import { ForbiddenError, UnauthorizedError } from '../common/errors/domain-errors';
import { Page, PageQueryDto } from '../common/http/page';
import { ResourceWrites } from '../database/resource-writes';
import { Transactions, type ReadTx } from '../database/transactions';
import { ApiKeyPrincipals, digestOf } from './api-key-principals';
import { ApiKeyEntity } from './api-key.entity';
import { ApiKeysRepository } from './api-keys.repository';
import { ApiKeyResponse, CreateApiKeyDto, CreatedApiKeyResponse } from './dto/api-key.dto';
import { apiKeyNotFound } from './api-keys.errors';
import { toApiKeyResponse } from './api-key.mapper';

const PREFIX_LENGTH = 8;

/** The earlier of two expiries, null standing for never. */
function earliest(a: Date | null, b: Date | null): Date | null {
  if (a === null) return b;
  if (b === null) return a;
  return a.getTime() <= b.getTime() ? a : b;
}

/**
 * A key may hand out, or revoke, only a relayer scope inside its own (docs/reference/keys-and-audit.md#3-relayer-scope):
 * a key limited to some relayers cannot mint or cut off a key that sees more.
 */
export function scopeWithin(caller: Principal, relayerIds: readonly string[] | null): boolean {
  return RelayerScope.contains(RelayerScope.of(caller.relayerIds), RelayerScope.of(relayerIds));
}

/** docs/reference/keys-and-audit.md */
@Injectable()
export class ApiKeysService {
  private readonly writes: ResourceWrites<ApiKeyEntity, ApiKeyResponse>;

  constructor(
    private readonly keys: ApiKeysRepository,
    private readonly principals: ApiKeyPrincipals,
    transactions: Transactions,
  ) {
    this.writes = new ResourceWrites(transactions, {
      name: 'api_key',
      notFound: () => apiKeyNotFound(),
      read: (id, tx) => this.keys.findActive(id, tx?.manager),
      toResponse: toApiKeyResponse,
    });
  }

  /**
   * A key grants only what it holds (docs/reference/hardening.md), or a manager could mint itself `*`;
   * and lives no longer than the key that creates it (docs/reference/keys-and-audit.md#110-a-keys-children).
   */
  async create(dto: CreateApiKeyDto, caller: Principal): Promise<CreatedApiKeyResponse> {
    if (!holdsAll(caller, dto.permissions)) throw new ForbiddenError();
    const relayerIds = dto.relayer_ids ? [...new Set(dto.relayer_ids)] : null;
    if (!scopeWithin(caller, relayerIds)) throw new ForbiddenError();
    const asked = dto.expires_at ?? null;
    const key = `rk_${randomBytes(32).toString('base64url')}`;
    const digest = digestOf(key);
    const created = await this.writes.create(async (tx) => {
      const creator = caller.type === 'api_key' ? await this.creator(caller.id, tx) : null;
      const row = Object.assign(new ApiKeyEntity(), {
        id: randomUUID(),
        name: dto.name,
        permissions: [...new Set(dto.permissions)],
        keyDigest: digest,
        keyPrefix: key.slice(0, PREFIX_LENGTH),
        createdAt: new Date(),
        expiresAt: earliest(asked, creator?.expiresAt ?? null),
        lastUsedAt: null,
        revokedAt: null,
        createdByKeyId: creator?.id ?? null,
        relayerIds,
      });
      await this.keys.insert(tx.manager, row);
      return row;
    });
    this.principals.created(digest);
    return { ...created.data, key };
  }

  async list(query: PageQueryDto): Promise<Page<ApiKeyResponse>> {
    const { items, total } = await this.keys.findActivePage(query.offset, query.per_page);
    return new Page(items.map(toApiKeyResponse), query, total);
  }

  async get(id: string): Promise<ApiKeyResponse> {
    return toApiKeyResponse(await this.find(id));
  }

  async permissions(id: string): Promise<string[]> {
    return [...(await this.find(id)).permissions];
  }

  /**
   * Only a key whose permissions the caller holds: a narrow manager must not cut off wider keys. The
   * keys it created, theirs and so on go with it, each with its own audit record: they hold no more
   * than their creator, so whoever may revoke a key may revoke them.
   */
  async revoke(id: string, caller: Principal): Promise<string> {
    const revoked = await this.writes.remove(id, async (row, _, tx) => {
      if (!holdsAll(caller, row.permissions) || !scopeWithin(caller, row.relayerIds)) {
        throw new ForbiddenError();
      }
      const at = new Date();
      if (!(await this.keys.revoke(tx.manager, id, at))) return false;
      const descendants = await this.keys.findActiveDescendants(tx.manager, id);
      await this.keys.revokeAll(
        tx.manager,
        descendants.map((descendant) => descendant.id),
        at,
      );
      return descendants;
    });
    await this.principals.revoked(revoked);
    return 'API key revoked successfully';
  }

  /** Revoked or expired since the request was authenticated: refused as the request would be now. */
  private async creator(id: string, tx: ReadTx): Promise<ApiKeyEntity> {
    const row = await this.keys.findActiveCreator(tx.manager, id);
    if (!row || (row.expiresAt !== null && row.expiresAt.getTime() <= Date.now())) {
      throw new UnauthorizedError();
    }
    return row;
  }

  private async find(id: string): Promise<ApiKeyEntity> {
    const row = await this.keys.findActive(id);
    if (!row) throw apiKeyNotFound();
    return row;
  }
}
