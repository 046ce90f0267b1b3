import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { NetworkType } from '../catalogue';
import { isForeignKeyViolation, isUniqueViolation } from '../common/errors/database-errors';
import { EntityRepository } from '../database/entity-rows';
import { RelayerEntity } from './relayer.entity';

export type RelayerChanges = Pick<
  RelayerEntity,
  'name' | 'paused' | 'notificationId' | 'customRpcUrls' | 'policies' | 'updatedAt'
>;

@Injectable()
export class RelayersRepository extends EntityRepository(RelayerEntity) {
  async findIdBySignerOnNetwork(
    networkType: NetworkType,
    network: string,
    signerId: string,
    manager: EntityManager = this.repository.manager,
  ): Promise<string | null> {
    const rows = await manager.query<Array<{ id: string }>>(
      'SELECT id FROM relayers WHERE network_type = ? AND network = ? AND signer_id = ?',
      [networkType, network, signerId],
    );
    return rows[0]?.id ?? null;
  }

  /** By signer, on MySQL a locking read: no relayer using it can be inserted until the transaction ends. */
  async findIdsBy(
    column: 'notification_id' | 'signer_id',
    id: string,
    limit: number,
    manager: EntityManager = this.repository.manager,
  ): Promise<string[]> {
    const lock = column === 'signer_id' ? this.dialect.lockingRead('share') : '';
    const rows = await manager.query<Array<{ id: string }>>(
      `SELECT id FROM relayers WHERE ${column} = ? ORDER BY id LIMIT ?${lock}`,
      [id, limit],
    );
    return rows.map((row) => row.id);
  }

  /** Each existing relayer's version, by id: one statement, nothing hydrated. */
  async findVersions(ids: readonly string[], manager: EntityManager): Promise<Map<string, number>> {
    if (ids.length === 0) return new Map();
    const rows = await manager.query<Array<{ id: string; version: number | string }>>(
      `SELECT id, version FROM relayers WHERE id IN (${ids.map(() => '?').join(', ')})`,
      [...ids],
    );
    return new Map(rows.map((row) => [row.id, Number(row.version)]));
  }

  override async insert(
    manager: EntityManager,
    entity: RelayerEntity,
  ): Promise<'duplicate' | 'missing_notification' | null> {
    try {
      await super.insert(manager, entity);
    } catch (error) {
      if (isUniqueViolation(error)) return 'duplicate';
      if (isForeignKeyViolation(error)) return 'missing_notification';
      throw error;
    }
    return null;
  }

  /** 'stale' when the version moved on (or the relayer is gone): re-read and retry. */
  async updateIfVersion(
    manager: EntityManager,
    id: string,
    version: number,
    changes: RelayerChanges | Pick<RelayerEntity, 'systemDisabled' | 'disabledReason' | 'updatedAt'>,
  ): Promise<'written' | 'stale' | 'missing_notification'> {
    try {
      return (await this.updateVersioned(manager, id, version, changes)) ? 'written' : 'stale';
    } catch (error) {
      if (isForeignKeyViolation(error)) return 'missing_notification';
      throw error;
    }
  }

  deleteById(manager: EntityManager, id: string, version?: number): Promise<boolean> {
    return this.deleteVersioned(manager, id, version);
  }
}
