import { parseJson, stringifyJson } from '../common/http/json';
import { maskUrl } from '../common/security/url-masking';
import type { RelayerResponse } from './dto/relayer.dto';
import type { Policies } from './policies/policy-validation';
import type { DisabledReason, RelayerEntity, StoredRpcUrl } from './relayer.entity';

/** JSON columns: big integers keep every digit both ways (see common/http/json). */
export const toJsonColumn = (value: unknown): string | null => (value === null ? null : stringifyJson(value));
export const fromJsonColumn = <T>(text: string | null): T | null =>
  text === null ? null : (parseJson(text) as T);

/** What leaves the process of a relayer: every field of contract 6.5, RPC URLs masked. */
export function toRelayerResponse(entity: RelayerEntity): RelayerResponse {
  const rpcUrls = fromJsonColumn<StoredRpcUrl[]>(entity.customRpcUrls);
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
    disabled_reason: fromJsonColumn<DisabledReason>(entity.disabledReason),
    custom_rpc_urls:
      rpcUrls === null ? null : rpcUrls.map((rpc) => ({ url: maskUrl(rpc.url), weight: rpc.weight })),
    policies: fromJsonColumn<Policies>(entity.policies),
    created_at: entity.createdAt.toISOString(),
    updated_at: entity.updatedAt.toISOString(),
  };
}
