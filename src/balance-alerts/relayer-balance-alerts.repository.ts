import { Injectable } from '@nestjs/common';
import { isForeignKeyViolation } from '../common/errors/database-errors';
import { EntityRepository } from '../database/entity-rows';
import type { ReadTx } from '../database/transactions';
import { RelayerBalanceAlertEntity } from './relayer-balance-alert.entity';

/** Written in SubResourceWrites, the row read locked. */
@Injectable()
export class RelayerBalanceAlertsRepository extends EntityRepository(RelayerBalanceAlertEntity) {
  /** `exists`: it has a rule. 'stale' when another write inserted one first, 'missing' when the relayer is gone. */
  async put(
    id: string,
    threshold: string | null,
    exists: boolean,
    tx: ReadTx,
  ): Promise<'written' | 'stale' | 'missing'> {
    const updatedAt = new Date();
    try {
      if (exists) await this.updateVersioned(id, undefined, { threshold, updatedAt }, tx);
      else if (!(await this.insertNew({ id, threshold, version: 1, updatedAt }, tx))) return 'stale';
      return 'written';
    } catch (error) {
      if (isForeignKeyViolation(error)) return 'missing';
      throw error;
    }
  }

  remove(id: string, tx: ReadTx): Promise<boolean> {
    return this.deleteVersioned(id, undefined, tx);
  }

  /** Every relayer's own rule, by relayer id (null: no alert for it). */
  async findAllRules(): Promise<Map<string, string | null>> {
    const rows = await this.select(`SELECT ${this.columns} FROM ${this.table}`);
    return new Map(rows.map((row) => [row.id, row.threshold]));
  }
}
