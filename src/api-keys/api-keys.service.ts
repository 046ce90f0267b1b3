import { Injectable } from '@nestjs/common';
import { randomBytes, randomUUID } from 'node:crypto';
import { holdsAll, type Principal } from '../common/auth/principal';
import { ForbiddenError, ValidationError } from '../common/errors/domain-errors';
import { Page, PageQueryDto } from '../common/http/page';
import { Transactions } from '../database/transactions';
import { ApiKeyPrincipals, digestOf } from './api-key-principals';
import { ApiKeyEntity } from './api-key.entity';
import { ApiKeysRepository } from './api-keys.repository';
import { ApiKeyResponse, CreateApiKeyDto, CreatedApiKeyResponse, EXPIRES_RULE } from './dto/api-key.dto';
import { apiKeyNotFound } from './api-keys.errors';
import { toApiKeyResponse } from './api-key.mapper';

const PREFIX_LENGTH = 8;

/** docs/reference/keys-and-audit.md */
@Injectable()
export class ApiKeysService {
  constructor(
    private readonly keys: ApiKeysRepository,
    private readonly principals: ApiKeyPrincipals,
    private readonly transactions: Transactions,
  ) {}

  /** A key grants only what it holds (docs/reference/hardening.md), or a manager could mint itself `*`. */
  async create(dto: CreateApiKeyDto, caller: Principal): Promise<CreatedApiKeyResponse> {
    if (!holdsAll(caller, dto.permissions)) throw new ForbiddenError();
    const expiresAt = dto.expires_at ?? null;
    if (expiresAt !== null && expiresAt.getTime() <= Date.now()) throw new ValidationError(EXPIRES_RULE);
    const key = `rk_${randomBytes(32).toString('base64url')}`;
    const digest = digestOf(key);
    const row = Object.assign(new ApiKeyEntity(), {
      id: randomUUID(),
      name: dto.name,
      permissions: [...new Set(dto.permissions)],
      keyDigest: digest,
      keyPrefix: key.slice(0, PREFIX_LENGTH),
      createdAt: new Date(),
      expiresAt,
      lastUsedAt: null,
      revokedAt: null,
    });
    const response = toApiKeyResponse(row);
    await this.transactions.run(async (tx) => {
      await this.keys.insert(tx.manager, row);
      await tx.recordChange({
        resource: 'api_key',
        id: row.id,
        operation: 'create',
        before: null,
        after: response,
      });
    });
    this.principals.created(digest);
    return { ...response, key };
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

  /** Only a key whose permissions the caller holds: a narrow manager must not cut off wider keys. */
  async revoke(id: string, caller: Principal): Promise<string> {
    await this.transactions.run(async (tx) => {
      const row = await this.keys.findActive(id, tx.manager);
      if (!row) throw apiKeyNotFound();
      if (!holdsAll(caller, row.permissions)) throw new ForbiddenError();
      if (!(await this.keys.revoke(tx.manager, id, new Date()))) throw apiKeyNotFound();
      await tx.recordChange({
        resource: 'api_key',
        id,
        operation: 'delete',
        before: toApiKeyResponse(row),
        after: null,
      });
    });
    await this.principals.revoked(id);
    return 'API key revoked successfully';
  }

  private async find(id: string): Promise<ApiKeyEntity> {
    const row = await this.keys.findActive(id);
    if (!row) throw apiKeyNotFound();
    return row;
  }
}
