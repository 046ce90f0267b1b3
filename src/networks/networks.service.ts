import { Inject, Injectable } from '@nestjs/common';
import { Page, PageQueryDto } from '../common/http/page';
import type { RpcUrl } from '../common/validation/rpc-url-list';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { Transactions, type ReadTx } from '../database/transactions';
import {
  Catalogue,
  networkId,
  type CatalogueNetwork,
  type NetworkType,
} from '../catalogue/catalogue.service';
import { NetworkResponse, UpdateNetworkDto } from './dto/network.dto';
import { toNetworkResponse } from './network.mapper';
import { networkNotFound } from './networks.errors';
import { NetworksRepository } from './networks.repository';
import { resolveNetworkRpcUrls } from './networks.validation';

/**
 * The catalogue's networks with the RPC lists set through the API, which replace the file's on
 * every instance (read from the database on each use: a change is seen at once everywhere).
 */
@Injectable()
export class NetworksService {
  /** @internal Nest injects it. */
  constructor(
    private readonly catalogue: Catalogue,
    private readonly overrides: NetworksRepository,
    private readonly transactions: Transactions,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async list(query: PageQueryDto): Promise<Page<NetworkResponse>> {
    const page = await this.listWithRpcUrls(query);
    return new Page(
      page.items.map(({ network }) => network),
      query,
      page.totalItems,
    );
  }

  /** The list with each network's RPC URLs unmasked beside it: for the export only (src/config-file). */
  async listWithRpcUrls(
    query: PageQueryDto,
  ): Promise<Page<{ network: NetworkResponse; rpcUrls: readonly RpcUrl[] }>> {
    const all = this.catalogue.listNetworks();
    const stored = await this.overrides.findAllRpcUrls();
    const items = all.slice(query.offset, query.offset + query.per_page).map((network) => {
      const rpcUrls = stored.get(networkId(network.type, network.network)) ?? network.rpc_urls;
      return { network: toNetworkResponse(network, rpcUrls), rpcUrls };
    });
    return new Page(items, query, all.length);
  }

  async get(id: string): Promise<NetworkResponse> {
    const network = this.find(id);
    return toNetworkResponse(network, await this.rpcUrlsOfNetwork(network));
  }

  /**
   * The RPC list relayers of this network use unless they have custom URLs; undefined for an
   * unknown network. Inside a transaction pass it (see EntityRepository.findById).
   */
  async rpcUrls(type: NetworkType, name: string, tx?: ReadTx): Promise<readonly RpcUrl[] | undefined> {
    const network = this.catalogue.findNetwork(type, name);
    return network && this.rpcUrlsOfNetwork(network, tx);
  }

  /** What `rpcUrls` answers, for every network at once: one read for a batch of checks. */
  async rpcUrlsOfAll(
    tx?: ReadTx,
  ): Promise<(type: NetworkType, name: string) => readonly RpcUrl[] | undefined> {
    const stored = await this.overrides.findAllRpcUrls(tx?.manager);
    return (type, name) => {
      const network = this.catalogue.findNetwork(type, name);
      return network && (stored.get(networkId(network.type, network.network)) ?? network.rpc_urls);
    };
  }

  /** `dto` passed NetworkPatchRules; masked URLs sent back keep the stored ones (docs/reference/networks-and-signers.md#4-networks). */
  async update(id: string, dto: UpdateNetworkDto): Promise<NetworkResponse> {
    const network = this.find(id);
    const key = networkId(network.type, network.network);
    const rpcUrls = await this.transactions.run(async (tx) => {
      // Locked until commit: two PATCHes of one network resolve their masked URLs one after the other.
      const row = await this.overrides.findForUpdate(tx.manager, key);
      const before = row?.rpcUrls ?? network.rpc_urls;
      const next = resolveNetworkRpcUrls(network, dto, row?.rpcUrls, this.config.rpcUrlPolicy);
      await this.overrides.put(
        tx.manager,
        { networkId: key, rpcUrls: next, updatedAt: new Date() },
        row !== null,
      );
      await tx.recordChange({
        resource: 'network',
        id: key,
        operation: 'update',
        before: toNetworkResponse(network, before),
        after: toNetworkResponse(network, next),
      });
      return next;
    });
    return toNetworkResponse(network, rpcUrls);
  }

  private find(id: string): CatalogueNetwork {
    const network = this.catalogue.findNetworkById(id);
    if (!network) throw networkNotFound(id);
    return network;
  }

  private async rpcUrlsOfNetwork(network: CatalogueNetwork, tx?: ReadTx): Promise<readonly RpcUrl[]> {
    const row = await this.overrides.findById(networkId(network.type, network.network), tx?.manager);
    return row?.rpcUrls ?? network.rpc_urls;
  }
}
