import { Injectable } from '@nestjs/common';
import { EntityRepository } from '../database/entity-rows';
import type { ReadTx } from '../database/transactions';
import { NetworkBalanceAlertEntity } from './network-balance-alert.entity';

/** Written only at the version read (0: no row yet), so that the audit's `before` is what was replaced. */
@Injectable()
export class NetworkBalanceAlertsRepository extends EntityRepository(NetworkBalanceAlertEntity) {
  /** False when another write came first. */
  async put(id: string, threshold: string, version: number, tx: ReadTx): Promise<boolean> {
    const updatedAt = new Date();
    if (version === 0) return this.insertNew({ id, threshold, version: 1, updatedAt }, tx);
    return this.updateVersioned(id, version, { threshold, updatedAt }, tx);
  }

  remove(id: string, version: number, tx: ReadTx): Promise<boolean> {
    return this.deleteVersioned(id, version, tx);
  }

  /** Every network's threshold, by network id: a small table, read once per batch of checks. */
  async findAll(tx?: ReadTx): Promise<Map<string, string>> {
    const rows = await this.select(`SELECT ${this.columns} FROM ${this.table}`, [], tx);
    return new Map(rows.map((row) => [row.id, row.threshold]));
  }
}
