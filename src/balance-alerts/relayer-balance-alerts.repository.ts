import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { isForeignKeyViolation } from '../common/errors/database-errors';
import { EntityRepository } from '../database/entity-rows';
import { RelayerBalanceAlertEntity } from './relayer-balance-alert.entity';

/** Written only at the version read (0: no row yet), so that the audit's `before` is what was replaced. */
@Injectable()
export class RelayerBalanceAlertsRepository extends EntityRepository(RelayerBalanceAlertEntity) {
  /** 'stale' when another write came first, 'missing' when the relayer is gone. */
  async put(
    manager: EntityManager,
    id: string,
    threshold: string | null,
    version: number,
  ): Promise<'written' | 'stale' | 'missing'> {
    const updatedAt = new Date();
    try {
      if (version === 0) {
        return (await this.insertNew(manager, { id, threshold, version: 1, updatedAt }))
          ? 'written'
          : 'stale';
      }
      return (await this.updateVersioned(manager, id, version, { threshold, updatedAt }))
        ? 'written'
        : 'stale';
    } catch (error) {
      if (isForeignKeyViolation(error)) return 'missing';
      throw error;
    }
  }

  remove(manager: EntityManager, id: string, version: number): Promise<boolean> {
    return this.deleteVersioned(manager, id, version);
  }

  /** Every relayer's own rule, by relayer id (null: no alert for it). */
  async findAllRules(): Promise<Map<string, string | null>> {
    const rows = await this.select(`SELECT ${this.columns} FROM ${this.table}`);
    return new Map(rows.map((row) => [row.id, row.threshold]));
  }
}
