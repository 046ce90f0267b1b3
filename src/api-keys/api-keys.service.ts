import { Injectable } from '@nestjs/common';
import { randomBytes, randomUUID } from 'node:crypto';
import { holdsAll, type Principal } from '../common/auth/principal';
import { RelayerScope } from '../common/auth/relayer-scope';
import { ForbiddenError, UnauthorizedError } from '../common/errors/domain-errors';
import { Page, PageQueryDto } from '../common/http/page';
import { ResourceWrites, STALE } from '../database/resource-writes';
import { Transactions, type ReadTx } from '../database/transactions';
import { ApiKeyPrincipals, digestOf, earliest } from './api-key-principals';
import { ApiKeyEntity } from './api-key.entity';
import { ApiKeysRepository } from './api-keys.repository';
import {
  ApiKeyResponse,
  CallerResponse,
  CreateApiKeyDto,
  CreatedApiKeyResponse,
  RotateApiKeyDto,
} from './dto/api-key.dto';
import { apiKeyNotFound } from './api-keys.errors';
import { toApiKeyResponse, toCallerResponse } from './api-key.mapper';

const PREFIX_LENGTH = 8;

/** `rk_` and 43 base64url characters (32 random bytes). */
const newKey = (): string => `rk_${randomBytes(32).toString('base64url')}`;

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
    const key = newKey();
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
        // allowed_cidrs (docs/reference/keys-and-audit.md#41-where-a-key-may-be-used-from)
        allowedCidrs: dto.allowed_cidrs ? [...dto.allowed_cidrs] : null,
        previousKeyDigest: null,
        previousKeyExpiresAt: null,
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

  /** Who the caller is, from its principal: read as it authenticated, nothing looked up again. */
  self(caller: Principal): CallerResponse {
    return toCallerResponse(caller);
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

  /**
   * A new secret for the same key (docs/reference/keys-and-audit.md#42-rotation); the one it replaces
   * works until the overlap ends, then every instance refuses it. A key may rotate itself, with its
   * current secret only (else a replaced secret could renew itself for ever); rotating another needs
   * api_keys:manage (the route's) and every permission of that key (docs/reference/hardening.md).
   */
  async rotate(id: string, dto: RotateApiKeyDto, caller: Principal): Promise<CreatedApiKeyResponse> {
    const itself = caller.type === 'api_key' && caller.id === id;
    if (itself && caller.replacedSecret) throw new ForbiddenError();
    const overlapMs = (dto.overlap_seconds ?? 0) * 1000;
    let key = '';
    const rotated = await this.writes.update(
      id,
      (current) => {
        if (!itself && !(holdsAll(caller, current.permissions) && scopeWithin(caller, current.relayerIds))) {
          throw new ForbiddenError();
        }
        key = newKey();
        return {
          keyDigest: digestOf(key),
          keyPrefix: key.slice(0, PREFIX_LENGTH),
          previousKeyDigest: overlapMs > 0 ? current.keyDigest : null,
          previousKeyExpiresAt: overlapMs > 0 ? new Date(Date.now() + overlapMs) : null,
        };
      },
      async (current, changes, tx) =>
        (await this.keys.rotate(tx.manager, current, changes)) ? undefined : STALE,
    );
    await this.principals.rotated(id, digestOf(key));
    return { ...rotated.data, key };
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
