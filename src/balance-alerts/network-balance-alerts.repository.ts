import { Injectable } from '@nestjs/common';
import { EntityRepository } from '../database/entity-rows';
import type { ReadTx } from '../database/transactions';
import { NetworkBalanceAlertEntity } from './network-balance-alert.entity';

/** Written in SubResourceWrites, the row read locked. */
@Injectable()
export class NetworkBalanceAlertsRepository extends EntityRepository(NetworkBalanceAlertEntity) {
  /** `exists`: the network has a rule already. False when another write inserted one first. */
  async put(id: string, threshold: string, exists: boolean, tx: ReadTx): Promise<boolean> {
    const updatedAt = new Date();
    if (!exists) return this.insertNew({ id, threshold, version: 1, updatedAt }, tx);
    return this.updateVersioned(id, undefined, { threshold, updatedAt }, tx);
  }

  remove(id: string, tx: ReadTx): Promise<boolean> {
    return this.deleteVersioned(id, undefined, tx);
  }

  /** Every network's threshold, by network id: a small table, read once per batch of checks. */
  async findAll(tx?: ReadTx): Promise<Map<string, string>> {
    const rows = await this.select(`SELECT ${this.columns} FROM ${this.table}`, [], tx);
    return new Map(rows.map((row) => [row.id, row.threshold]));
  }
}
