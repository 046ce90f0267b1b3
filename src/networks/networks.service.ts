import { Inject, Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { EntityManager, Repository } from 'typeorm';
import { ValidationError } from '../common/errors/domain-errors';
import { Page, PageQueryDto } from '../common/http/page';
import { resolveRpcUrlList, type RpcUrl } from '../common/validation/rpc-url-list';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { asColumnValues } from '../database/json-column';
import { takesRowLocks } from '../database/row-locks';
import { Transactions } from '../database/transactions';
import { Catalogue } from '../catalogue/catalogue.service';
import { networkId, type CatalogueNetwork, type NetworkType } from '../catalogue/catalogue.service';
import { NetworkResponse, UpdateNetworkDto } from './dto/network.dto';
import { NetworkRpcUrlsEntity } from './network-rpc-urls.entity';
import { networkNotFound } from './networks.errors';
import { toNetworkResponse } from './network.mapper';

/**
 * The catalogue's networks with the RPC lists set through the API, which replace the file's on
 * every instance (read from the database on each use: a change is seen at once everywhere).
 */
@Injectable()
export class NetworksService {
  constructor(
    private readonly catalogue: Catalogue,
    @InjectRepository(NetworkRpcUrlsEntity) private readonly overrides: Repository<NetworkRpcUrlsEntity>,
    private readonly transactions: Transactions,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async list(query: PageQueryDto): Promise<Page<NetworkResponse>> {
    const all = this.catalogue.listNetworks();
    const page = all.slice(query.offset, query.offset + query.per_page);
    const stored = new Map((await this.overrides.find()).map((row) => [row.networkId, row.rpcUrls]));
    const items = page.map((network) => {
      const id = networkId(network.type, network.network);
      return toNetworkResponse(network, stored.get(id) ?? network.rpc_urls);
    });
    return new Page(items, query, all.length);
  }

  async get(id: string): Promise<NetworkResponse> {
    const network = this.catalogue.findNetworkById(id);
    if (!network) throw networkNotFound(id);
    return toNetworkResponse(network, await this.rpcUrlsOfNetwork(network));
  }

  /**
   * The RPC list relayers of this network use unless they have custom URLs; undefined for an
   * unknown network. Inside a transaction pass its manager (see RelayerChecksRepository.find).
   */
  async rpcUrls(
    type: NetworkType,
    name: string,
    manager: EntityManager = this.overrides.manager,
  ): Promise<readonly RpcUrl[] | undefined> {
    const network = this.catalogue.findNetwork(type, name);
    return network && this.rpcUrlsOfNetwork(network, manager);
  }

  /** Replaces the network's RPC list (docs/reference/networks-and-signers.md#4-networks); masked URLs sent back keep the stored ones. */
  async update(id: string, dto: UpdateNetworkDto): Promise<NetworkResponse> {
    const network = this.catalogue.findNetworkById(id);
    if (!network) throw networkNotFound(id);
    const key = networkId(network.type, network.network);
    const rpcUrls = await this.transactions.run(async (tx) => {
      // Locked until commit: two PATCHes of one network resolve their masked URLs one after the other.
      const read = tx.manager
        .createQueryBuilder(NetworkRpcUrlsEntity, 'n')
        .where('n.network_id = :key', { key });
      const row = await (takesRowLocks(tx.manager) ? read.setLock('pessimistic_write') : read).getOne();
      const problems: string[] = [];
      const next = resolveRpcUrlList(
        dto.rpc_urls,
        row?.rpcUrls ?? network.rpc_urls,
        this.config.rpcUrlPolicy,
        'rpc_urls',
        problems,
      );
      if (problems.length > 0) throw new ValidationError(problems);
      const values = asColumnValues<NetworkRpcUrlsEntity>({
        networkId: key,
        rpcUrls: next,
        updatedAt: new Date(),
      });
      if (row) await tx.manager.update(NetworkRpcUrlsEntity, { networkId: key }, values);
      else await tx.manager.insert(NetworkRpcUrlsEntity, values);
      await tx.recordChange({
        resource: 'network',
        id: key,
        operation: 'update',
        before: toNetworkResponse(network, row?.rpcUrls ?? network.rpc_urls),
        after: toNetworkResponse(network, next),
      });
      return next;
    });
    return toNetworkResponse(network, rpcUrls);
  }

  private async rpcUrlsOfNetwork(
    network: CatalogueNetwork,
    manager: EntityManager = this.overrides.manager,
  ): Promise<readonly RpcUrl[]> {
    const row = await manager.findOneBy(NetworkRpcUrlsEntity, {
      networkId: networkId(network.type, network.network),
    });
    return row?.rpcUrls ?? network.rpc_urls;
  }
}
