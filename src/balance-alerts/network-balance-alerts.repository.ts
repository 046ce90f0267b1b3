import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { EntityRepository } from '../database/entity-rows';
import { NetworkBalanceAlertEntity } from './network-balance-alert.entity';

/** Written only at the version read (0: no row yet), so that the audit's `before` is what was replaced. */
@Injectable()
export class NetworkBalanceAlertsRepository extends EntityRepository(NetworkBalanceAlertEntity) {
  /** False when another write came first. */
  async put(manager: EntityManager, id: string, threshold: string, version: number): Promise<boolean> {
    const updatedAt = new Date();
    if (version === 0) return this.insertNew(manager, { id, threshold, version: 1, updatedAt });
    return this.updateVersioned(manager, id, version, { threshold, updatedAt });
  }

  remove(manager: EntityManager, id: string, version: number): Promise<boolean> {
    return this.deleteVersioned(manager, id, version);
  }

  /** Every network's threshold, by network id: a small table, read once per batch of checks. */
  async findAll(manager?: EntityManager): Promise<Map<string, string>> {
    const rows = await this.select(`SELECT ${this.columns} FROM ${this.table}`, [], manager);
    return new Map(rows.map((row) => [row.id, row.threshold]));
  }
}
