import { Injectable } from '@nestjs/common';
import { isForeignKeyViolation } from '../common/errors/database-errors';
import { EntityRepository } from '../database/entity-rows';
import type { ReadTx } from '../database/transactions';
import { RelayerBalanceAlertEntity } from './relayer-balance-alert.entity';

/** Written only at the version read (0: no row yet), so that the audit's `before` is what was replaced. */
@Injectable()
export class RelayerBalanceAlertsRepository extends EntityRepository(RelayerBalanceAlertEntity) {
  /** 'stale' when another write came first, 'missing' when the relayer is gone. */
  async put(
    id: string,
    threshold: string | null,
    version: number,
    tx: ReadTx,
  ): Promise<'written' | 'stale' | 'missing'> {
    const updatedAt = new Date();
    try {
      if (version === 0) {
        return (await this.insertNew({ id, threshold, version: 1, updatedAt }, tx)) ? 'written' : 'stale';
      }
      return (await this.updateVersioned(id, version, { threshold, updatedAt }, tx)) ? 'written' : 'stale';
    } catch (error) {
      if (isForeignKeyViolation(error)) return 'missing';
      throw error;
    }
  }

  remove(id: string, version: number, tx: ReadTx): Promise<boolean> {
    return this.deleteVersioned(id, version, tx);
  }

  /** Every relayer's own rule, by relayer id (null: no alert for it). */
  async findAllRules(): Promise<Map<string, string | null>> {
    const rows = await this.select(`SELECT ${this.columns} FROM ${this.table}`);
    return new Map(rows.map((row) => [row.id, row.threshold]));
  }
}
