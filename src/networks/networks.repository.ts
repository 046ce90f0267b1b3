import { Injectable } from '@nestjs/common';
import type { RpcUrl } from '../common/validation/rpc-url-list';
import { EntityRepository } from '../database/entity-rows';
import { asColumnValues } from '../database/json-column';
import type { ReadTx } from '../database/transactions';
import { NetworkRpcUrlsEntity } from './network-rpc-urls.entity';

/** The RPC lists set through the API, one row per network (by its id), replacing the file's. */
@Injectable()
export class NetworksRepository extends EntityRepository(NetworkRpcUrlsEntity) {
  /** Every stored list, by network id. */
  async findAllRpcUrls(tx?: ReadTx): Promise<Map<string, readonly RpcUrl[]>> {
    const rows = await this.select(`SELECT ${this.columns} FROM ${this.table}`, [], tx);
    return new Map(rows.map((row) => [row.networkId, row.rpcUrls]));
  }

  /** Writes the network's list; `exists` when it has a row already. False when another inserted it first. */
  async put(row: NetworkRpcUrlsEntity, exists: boolean, tx: ReadTx): Promise<boolean> {
    if (!exists) return this.insertNew(row, tx);
    await tx.manager.update(NetworkRpcUrlsEntity, { networkId: row.networkId }, asColumnValues(row));
    return true;
  }
}
