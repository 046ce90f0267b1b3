import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { RpcUrl } from '../common/validation/rpc-url-list';
import { EntityRepository } from '../database/entity-rows';
import { asColumnValues } from '../database/json-column';
import { NetworkRpcUrlsEntity } from './network-rpc-urls.entity';

/** The RPC lists set through the API, one row per network (by its id), replacing the file's. */
@Injectable()
export class NetworksRepository extends EntityRepository(NetworkRpcUrlsEntity) {
  /** Every stored list, by network id. */
  async findAllRpcUrls(manager?: EntityManager): Promise<Map<string, readonly RpcUrl[]>> {
    const rows = await this.select(`SELECT ${this.columns} FROM ${this.table}`, [], manager);
    return new Map(rows.map((row) => [row.networkId, row.rpcUrls]));
  }

  /** In the caller's transaction, locked until it ends (on MySQL): writes of one network queue. */
  async findForUpdate(manager: EntityManager, networkId: string): Promise<NetworkRpcUrlsEntity | null> {
    const [row] = await this.select(
      `SELECT ${this.columns} FROM ${this.table} WHERE network_id = ?${this.dialect.lockingRead('update')}`,
      [networkId],
      manager,
    );
    return row ?? null;
  }

  /** Writes the network's list; `exists` when it has a row already. */
  async put(manager: EntityManager, row: NetworkRpcUrlsEntity, exists: boolean): Promise<void> {
    if (exists) await manager.update(NetworkRpcUrlsEntity, { networkId: row.networkId }, asColumnValues(row));
    else await this.insert(manager, row);
  }
}
