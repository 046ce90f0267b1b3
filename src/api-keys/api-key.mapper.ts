import { ApiKeyEntity } from './api-key.entity';
import type { Principal } from '../common/auth/principal';
import { ApiKeyResponse, CallerResponse } from './dto/api-key.dto';

export function toApiKeyResponse(row: ApiKeyEntity): ApiKeyResponse {
  return {
    id: row.id,
    name: row.name,
    permissions: [...row.permissions],
    created_at: row.createdAt.toISOString(),
    expires_at: row.expiresAt ? row.expiresAt.toISOString() : null,
    last_used_at: row.lastUsedAt ? row.lastUsedAt.toISOString() : null,
    key_prefix: row.keyPrefix,
    // Its creator (docs/reference/keys-and-audit.md#110-a-keys-children); null: the administrator.
    created_by_key_id: row.createdByKeyId,
    // Relayer scope: answered only for a key that has one (keys without keep their answer).
    ...(row.relayerIds ? { relayer_ids: [...row.relayerIds] } : {}),
    // allowed_cidrs: only when bound to addresses, so that other keys answer as they always did
    ...(row.allowedCidrs && { allowed_cidrs: [...row.allowedCidrs] }),
  };
}

/** The principal of a request as it may see itself: what it holds, never its secret. */
export function toCallerResponse(principal: Principal): CallerResponse {
  return {
    type: principal.type,
    id: principal.id,
    name: principal.name,
    permissions: [...principal.permissions],
    ...(principal.relayerIds ? { relayer_ids: [...principal.relayerIds] } : {}),
    expires_at: principal.secretExpiresAt ? principal.secretExpiresAt.toISOString() : null,
  };
}
