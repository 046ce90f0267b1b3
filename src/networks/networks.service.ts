import { Inject, Injectable } from '@nestjs/common';
import { Page, PageQueryDto } from '../common/http/page.dto';
import type { RpcUrl } from '../common/validation/rpc-url-list';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/app-config.module';
import { STALE } from '../database/resource-writes';
import { SubResourceWrites } from '../database/sub-resource-writes';
import { Transactions, type ReadTx } from '../database/transactions';
import {
  Catalogue,
  networkId,
  type CatalogueNetwork,
  type CatalogueRpcUrl,
  type NetworkType,
} from '../catalogue';
import { NetworkResponse, UpdateNetworkDto } from './dto/network.dto';
import { toNetworkResponse } from './network.mapper';
import { networkNotFound } from './networks.errors';
import { NetworksRepository } from './networks.repository';
import { resolveNetworkRpcUrls } from './networks.validation';

/** A network as written: the catalogue's, with the RPC list stored through the API (null: none). */
interface NetworkRpcUrls {
  readonly network: CatalogueNetwork;
  readonly stored: readonly RpcUrl[] | null;
  readonly rpcUrls: readonly RpcUrl[];
}

/**
 * The catalogue's networks with the RPC lists set through the API, which replace the file's on
 * every instance (read from the database on each use: a change is seen at once everywhere).
 */
@Injectable()
export class NetworksService {
  private readonly writes: SubResourceWrites<NetworkRpcUrls, NetworkResponse>;

  /** @internal Nest injects it. */
  constructor(
    private readonly catalogue: Catalogue,
    private readonly overrides: NetworksRepository,
    transactions: Transactions,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.writes = new SubResourceWrites(transactions, {
      name: 'network',
      notFound: networkNotFound,
      read: async (key, tx) => {
        const network = this.catalogue.findNetworkById(key);
        if (!network) return null;
        const row = await this.overrides.findForUpdate(key, tx);
        return { network, stored: row?.rpcUrls ?? null, rpcUrls: row?.rpcUrls ?? network.rpc_urls };
      },
      toResponse: ({ network, rpcUrls }) => toNetworkResponse(network, rpcUrls),
    });
  }

  async list(query: PageQueryDto): Promise<Page<NetworkResponse>> {
    const page = await this.listWithRpcUrls(query);
    return new Page(
      page.items.map(({ network }) => network),
      query,
      page.totalItems,
    );
  }

  /**
   * The list with each network's RPC URLs unmasked beside it: for the export only (src/config-file).
   * A URL the file read from an environment variable keeps that variable's name, also in a list set
   * through the API that kept it (docs/reference/config-file.md#19-pending-shapes-of-the-reference-system).
   */
  async listWithRpcUrls(
    query: PageQueryDto,
  ): Promise<Page<{ network: NetworkResponse; rpcUrls: readonly CatalogueRpcUrl[] }>> {
    const all = this.catalogue.listNetworks();
    const stored = await this.overrides.findAllRpcUrls();
    const items = all.slice(query.offset, query.offset + query.per_page).map((network) => {
      const rpcUrls = stored.get(networkId(network.type, network.network)) ?? network.rpc_urls;
      return { network: toNetworkResponse(network, rpcUrls), rpcUrls: withVariables(network, rpcUrls) };
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
    const stored = await this.overrides.findAllRpcUrls(tx);
    return (type, name) => {
      const network = this.catalogue.findNetwork(type, name);
      return network && (stored.get(networkId(network.type, network.network)) ?? network.rpc_urls);
    };
  }

  /** `dto` passed NetworkPatchRules; masked URLs sent back keep the stored ones (docs/reference/networks-and-signers.md#4-networks). */
  async update(id: string, dto: UpdateNetworkDto): Promise<NetworkResponse> {
    const network = this.find(id);
    const key = networkId(network.type, network.network);
    return this.writes.write(
      key,
      (current) => ({
        ...current,
        rpcUrls: resolveNetworkRpcUrls(network, dto, current.rpcUrls, this.config.rpcUrlPolicy),
      }),
      async (current, { rpcUrls }, tx) => {
        const row = { networkId: key, rpcUrls: [...rpcUrls], updatedAt: new Date() };
        return (await this.overrides.put(row, current.stored !== null, tx)) ? undefined : STALE;
      },
    );
  }

  private find(id: string): CatalogueNetwork {
    const network = this.catalogue.findNetworkById(id);
    if (!network) throw networkNotFound(id);
    return network;
  }

  private async rpcUrlsOfNetwork(network: CatalogueNetwork, tx?: ReadTx): Promise<readonly RpcUrl[]> {
    const row = await this.overrides.findById(networkId(network.type, network.network), tx);
    return row?.rpcUrls ?? network.rpc_urls;
  }
}

/** `urls` with the variable each was read from in the file, when the file read that URL from one. */
function withVariables(network: CatalogueNetwork, urls: readonly RpcUrl[]): CatalogueRpcUrl[] {
  const variables = new Map(
    network.rpc_urls.flatMap(({ url, variable }): Array<[string, string]> =>
      variable === undefined ? [] : [[url, variable]],
    ),
  );
  return urls.map(({ url, weight }) => {
    const variable = variables.get(url);
    return variable === undefined ? { url, weight } : { url, weight, variable };
  });
}
