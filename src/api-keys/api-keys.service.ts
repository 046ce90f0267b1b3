import { Injectable } from '@nestjs/common';
import { randomBytes, randomUUID } from 'node:crypto';
import { holdsAll, type Principal } from '../common/auth/principal';
import { RelayerScope } from '../common/auth/relayer-scope';
import { ForbiddenError, UnauthorizedError } from '../common/errors/domain-errors';
import { cidrsOutside } from '../config/cidr';
import { Page, PageQueryDto } from '../common/http/page.dto';
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

/**
 * A child's addresses (docs/reference/keys-and-audit.md#110-a-keys-children): those asked, when each
 * lies inside one of its creator's; its creator's when it asks none (absent or null, as an expiry of
 * never is capped to the creator's); 403 naming each one outside.
 */
function cidrsWithin(
  creator: ApiKeyEntity | null,
  asked: readonly string[] | null | undefined,
): string[] | null {
  const bound = creator?.allowedCidrs ?? null;
  if (!asked) return bound ? [...bound] : null;
  const outside = bound ? cidrsOutside(bound, asked) : [];
  if (outside.length > 0) {
    const named = outside.map((index) => `allowed_cidrs[${index}]`).join(', ');
    throw new ForbiddenError(`Forbidden: ${named} must be inside the allowed_cidrs of the key creating it`);
  }
  return [...asked];
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
      read: (id, tx) => this.keys.findActive(id, tx),
      toResponse: toApiKeyResponse,
    });
  }

  /**
   * A key grants only what it holds (docs/reference/hardening.md), or a manager could mint itself `*`;
   * and a key it creates lives no longer, sees no more and is used from nowhere else than it
   * (docs/reference/keys-and-audit.md#110-a-keys-children).
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
        // A key made by a person lives no longer than the session that made it.
        expiresAt: earliest(
          asked,
          caller.type === 'user' ? (caller.secretExpiresAt ?? null) : (creator?.expiresAt ?? null),
        ),
        lastUsedAt: null,
        revokedAt: null,
        createdByKeyId: creator?.id ?? null,
        relayerIds,
        // allowed_cidrs (docs/reference/keys-and-audit.md#41-where-a-key-may-be-used-from)
        allowedCidrs: cidrsWithin(creator, dto.allowed_cidrs),
        previousKeyDigest: null,
        previousKeyExpiresAt: null,
      });
      await this.keys.insert(row, tx);
      return row;
    });
    this.principals.created(digest);
    return { ...created.data, key };
  }

  /**
   * Every key for the administrator and for keys without a relayer scope; for a scoped key only the
   * keys whose scope is inside its own, itself among them
   * (docs/reference/keys-and-audit.md#45-which-keys-a-key-sees): counted and paged as they are listed.
   */
  async list(query: PageQueryDto, caller: Principal): Promise<Page<ApiKeyResponse>> {
    const scope = RelayerScope.of(caller.relayerIds);
    if (scope === null) {
      const { items, total } = await this.keys.findActivePage(query.offset, query.per_page);
      return new Page(items.map(toApiKeyResponse), query, total);
    }
    // The scope of a key is a list of patterns: which lie inside the caller's is decided here, one
    // batch of scoped keys at a time, keeping only the ids and creation times of those seen.
    const seen: Array<{ id: string; at: number }> = [];
    for await (const batch of this.keys.scopedKeys()) {
      for (const row of batch) {
        if (RelayerScope.contains(scope, RelayerScope.of(row.relayerIds))) {
          seen.push({ id: row.id, at: row.createdAt.getTime() });
        }
      }
    }
    // The order of every list: creation time, then id.
    seen.sort((a, b) => a.at - b.at || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    const page = seen.slice(query.offset, query.offset + query.per_page).map((key) => key.id);
    const items = await this.keys.findActiveInOrder(page);
    return new Page(items.map(toApiKeyResponse), query, seen.length);
  }

  /** Who the caller is, from its principal: read as it authenticated, nothing looked up again. */
  self(caller: Principal): CallerResponse {
    return toCallerResponse(caller);
  }

  async get(id: string, caller: Principal): Promise<ApiKeyResponse> {
    return toApiKeyResponse(await this.findSeen(id, caller));
  }

  async permissions(id: string, caller: Principal): Promise<string[]> {
    return [...(await this.findSeen(id, caller)).permissions];
  }

  /**
   * Only itself, or a key it created, directly or through keys it created; any other key is to the
   * caller an unknown one (404), whatever it holds
   * (docs/reference/keys-and-audit.md#44-authority-over-keys-comes-from-creating-them). The keys it
   * created, theirs and so on go with it, each with its own audit record.
   */
  async revoke(id: string, caller: Principal): Promise<string> {
    const revoked = await this.writes.remove(id, async (row, _, tx) => {
      await this.assertAuthority(caller, row, tx);
      const at = new Date();
      if (!(await this.keys.revoke(row.id, at, tx))) return false;
      const descendants = await this.keys.findActiveDescendants(row.id, tx);
      await this.keys.revokeAll(
        descendants.map((descendant) => descendant.id),
        at,
        tx,
      );
      return descendants;
    });
    await this.principals.revoked(revoked);
    return 'API key revoked successfully';
  }

  /**
   * A new secret for the same key (docs/reference/keys-and-audit.md#42-rotation); the one it replaces
   * works until the overlap ends, then every instance refuses it, and meanwhile only reads (the
   * bearer guard refuses its writes, this one included). A key may rotate itself; rotating another
   * needs api_keys:manage (the route's) and that the caller created it, directly or through keys it
   * created (docs/reference/keys-and-audit.md#44-authority-over-keys-comes-from-creating-them).
   */
  async rotate(id: string, dto: RotateApiKeyDto, caller: Principal): Promise<CreatedApiKeyResponse> {
    const overlapMs = (dto.overlap_seconds ?? 0) * 1000;
    let key = '';
    const rotated = await this.writes.update(
      id,
      async (current) => {
        await this.assertAuthority(caller, current);
        key = newKey();
        return {
          keyDigest: digestOf(key),
          keyPrefix: key.slice(0, PREFIX_LENGTH),
          previousKeyDigest: overlapMs > 0 ? current.keyDigest : null,
          previousKeyExpiresAt: overlapMs > 0 ? new Date(Date.now() + overlapMs) : null,
        };
      },
      async (current, changes, tx) => ((await this.keys.rotate(current, changes, tx)) ? undefined : STALE),
    );
    await this.principals.rotated(rotated.data.id, digestOf(key));
    return { ...rotated.data, key };
  }

  /**
   * The administrator may change any key; a key itself, and the keys it created, directly or through
   * keys it created. Ids compared as the rows hold them, never as the path spells them. Any other key
   * is answered as an unknown one. The keys a key created hold no more than it and see no more
   * (create's rules), so the subset rule of docs/reference/hardening.md holds with it; it is kept
   * as a second lock.
   */
  private async assertAuthority(caller: Principal, row: ApiKeyEntity, tx?: ReadTx): Promise<void> {
    if (caller.type === 'admin' || row.id === caller.id) return;
    const creators = await this.keys.findCreatorChain(row, caller.id, tx);
    if (!creators.includes(caller.id)) throw apiKeyNotFound();
    if (!holdsAll(caller, row.permissions) || !scopeWithin(caller, row.relayerIds)) {
      throw new ForbiddenError();
    }
  }

  /** Revoked or expired since the request was authenticated: refused as the request would be now. */
  private async creator(id: string, tx: ReadTx): Promise<ApiKeyEntity> {
    const row = await this.keys.findActiveCreator(id, tx);
    if (!row || (row.expiresAt !== null && row.expiresAt.getTime() <= Date.now())) {
      throw new UnauthorizedError();
    }
    return row;
  }

  /** A key the caller may see (`list`'s rule), else 404 as an unknown key. */
  private async findSeen(id: string, caller: Principal): Promise<ApiKeyEntity> {
    const row = await this.keys.findActive(id);
    if (!row || !scopeWithin(caller, row.relayerIds)) throw apiKeyNotFound();
    return row;
  }
}
