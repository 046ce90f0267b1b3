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

  /** In the caller's transaction, locked until it ends (on MySQL): writes of one network queue. */
  async findForUpdate(networkId: string, tx: ReadTx): Promise<NetworkRpcUrlsEntity | null> {
    const [row] = await this.select(
      `SELECT ${this.columns} FROM ${this.table} WHERE network_id = ?${this.dialect.lockingRead('update')}`,
      [networkId],
      tx,
    );
    return row ?? null;
  }

  /** Writes the network's list; `exists` when it has a row already. */
  async put(row: NetworkRpcUrlsEntity, exists: boolean, tx: ReadTx): Promise<void> {
    if (exists)
      await tx.manager.update(NetworkRpcUrlsEntity, { networkId: row.networkId }, asColumnValues(row));
    else await this.insert(row, tx);
  }
}
