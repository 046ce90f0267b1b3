import { Inject, Injectable } from '@nestjs/common';
import { Catalogue, networkId, type CatalogueNetwork } from '../catalogue';
import { ValidationError } from '../common/errors/domain-errors';
import type { UrlPolicyOptions } from '../common/security/url-policy';
import { resolveRpcUrlList, type RpcUrl } from '../common/validation/rpc-url-list';
import type { BodyRules, Checked, DtoCheck } from '../common/validation/dto-validation.pipe';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/app-config.module';
import { UpdateNetworkDto } from './dto/network.dto';
import { NetworksRepository } from './networks.repository';

/**
 * PATCH /networks/{id} (docs/reference/networks-and-signers.md#4-networks): the URL policy, and masked
 * URLs resolved against the list stored now; the service resolves them again under its lock
 * (resolveNetworkRpcUrls).
 */
@Injectable()
export class NetworkPatchRules implements BodyRules<UpdateNetworkDto, UpdateNetworkDto> {
  readonly dto = UpdateNetworkDto;

  constructor(
    private readonly catalogue: Catalogue,
    private readonly overrides: NetworksRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async check(
    { value, problems }: DtoCheck<UpdateNetworkDto>,
    params: Readonly<Record<string, unknown>>,
  ): Promise<Checked<UpdateNetworkDto>> {
    const id = params.network_id;
    const network = typeof id === 'string' ? this.catalogue.findNetworkById(id) : undefined;
    // An unknown network is the service's 404, once the body is valid.
    if (problems.length > 0 || !network) return { value, problems: [] };
    const stored = await this.overrides.findById(networkId(network.type, network.network));
    const resolved = resolveRpcUrlList(
      value.rpc_urls,
      stored?.rpcUrls ?? network.rpc_urls,
      this.config.rpcUrlPolicy,
      'rpc_urls',
    );
    return { value, problems: resolved.problems };
  }
}

/**
 * The list to store, resolved against `stored` as read under the service's lock. The validation stage
 * resolved it against the list it read; a write in between can make the same body fail here, with the
 * 400 it would have had if that write had come first.
 */
export function resolveNetworkRpcUrls(
  network: CatalogueNetwork,
  dto: UpdateNetworkDto,
  stored: readonly RpcUrl[] | undefined,
  rpcUrlPolicy: UrlPolicyOptions,
): RpcUrl[] {
  const { urls, problems } = resolveRpcUrlList(
    dto.rpc_urls,
    stored ?? network.rpc_urls,
    rpcUrlPolicy,
    'rpc_urls',
  );
  if (problems.length > 0) throw new ValidationError(problems);
  return urls;
}
