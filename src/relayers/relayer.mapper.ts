import { entityTag, Tagged } from '../common/http/tagged';
import { withRawIntegers } from '../common/http/json';
import { maskUrl } from '../common/security/url-masking';
import type { RelayerResponse } from './dto/relayer.dto';
import type { RelayerEntity } from './relayer.entity';

/** docs/reference/relayers.md#5-the-relayer-in-answers: RPC URLs masked. */
export function toRelayerResponse(entity: RelayerEntity): RelayerResponse {
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
    disabled_reason: entity.disabledReason,
    custom_rpc_urls:
      entity.customRpcUrls?.map((rpc) => ({ url: maskUrl(rpc.url), weight: rpc.weight })) ?? null,
    policies: entity.policies === null ? null : (withRawIntegers(entity.policies) as Record<string, unknown>),
    created_at: entity.createdAt.toISOString(),
    updated_at: entity.updatedAt.toISOString(),
  };
}

export function toTaggedRelayer(entity: RelayerEntity): Tagged<RelayerResponse> {
  return new Tagged(toRelayerResponse(entity), entityTag(entity.version, entity.createdAt));
}
