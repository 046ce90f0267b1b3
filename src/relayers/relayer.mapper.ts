import { parseJson, parseJsonForResponse, stringifyJson } from '../common/http/json';
import { maskUrl } from '../common/security/url-masking';
import type { RelayerResponse } from './dto/relayer.dto';
import type { DisabledReason, RelayerEntity, StoredRpcUrl } from './relayer.entity';

/** JSON columns: big integers keep every digit both ways (see common/http/json). */
export const toJsonColumn = (value: unknown): string | null => (value === null ? null : stringifyJson(value));
export const fromJsonColumn = <T>(text: string | null): T | null =>
  text === null ? null : (parseJson(text) as T);

/** What leaves the process of a relayer: every field of contract 6.5, RPC URLs masked. */
export function toRelayerResponse(entity: RelayerEntity): RelayerResponse {
  // Plain JSON.parse where no big integer can be; policies keep theirs as raw JSON numbers.
  const rpcUrls = entity.customRpcUrls === null ? null : (JSON.parse(entity.customRpcUrls) as StoredRpcUrl[]);
  return {
    id: entity.id,
    name: entity.name,
    network: entity.network,
    network_type: entity.networkType,
    address: entity.address,
    signer_id: entity.signerId,
    notification_id: entity.notificationId,
    paused: entity.paused,
    system_disabled: entity.systemDisabled,
    disabled_reason:
      entity.disabledReason === null ? null : (JSON.parse(entity.disabledReason) as DisabledReason),
    custom_rpc_urls:
      rpcUrls === null ? null : rpcUrls.map((rpc) => ({ url: maskUrl(rpc.url), weight: rpc.weight })),
    policies:
      entity.policies === null ? null : (parseJsonForResponse(entity.policies) as Record<string, unknown>),
    created_at: entity.createdAt.toISOString(),
    updated_at: entity.updatedAt.toISOString(),
  };
}
