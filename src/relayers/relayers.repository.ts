import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { NetworkType } from '../catalogue/catalogue.service';
import { isForeignKeyViolation, isUniqueViolation } from '../common/errors/database-errors';
import { EntityRepository } from '../database/entity-repository';
import { RelayerEntity } from './relayer.entity';

export type RelayerChanges = Pick<
  RelayerEntity,
  'name' | 'paused' | 'notificationId' | 'customRpcUrls' | 'policies' | 'updatedAt'
>;

/** Why an insert was refused by the database. */
export type InsertRefusal = 'duplicate' | 'missing_notification';

/** Relayers rows. Writes take the EntityManager of the caller's transaction. */
@Injectable()
export class RelayersRepository extends EntityRepository(RelayerEntity) {
  /** The id of the relayer that uses this signer on this network, if any. */
  async findIdBySignerOnNetwork(
    networkType: NetworkType,
    network: string,
    signerId: string,
  ): Promise<string | null> {
    const rows = await this.repository.query<Array<{ id: string }>>(
      'SELECT id FROM relayers WHERE network_type = ? AND network = ? AND signer_id = ?',
      [networkType, network, signerId],
    );
    return rows[0]?.id ?? null;
  }

  /** Ids of the relayers that report to the notification, in id order (at most `limit`). */
  async findIdsByNotification(notificationId: string, limit: number): Promise<string[]> {
    const rows = await this.repository.query<Array<{ id: string }>>(
      'SELECT id FROM relayers WHERE notification_id = ? ORDER BY id LIMIT ?',
      [notificationId, limit],
    );
    return rows.map((row) => row.id);
  }

  /**
   * In the caller's transaction; on MySQL a locking read, so that no relayer using the signer can
   * be inserted until that transaction ends.
   */
  async findIdsBySigner(
    signerId: string,
    limit: number,
    manager: EntityManager = this.repository.manager,
  ): Promise<string[]> {
    const rows = await manager.query<Array<{ id: string }>>(
      `SELECT id FROM relayers WHERE signer_id = ? ORDER BY id LIMIT ?${this.dialect.lockingRead('share')}`,
      [signerId, limit],
    );
    return rows.map((row) => row.id);
  }

  /** Inserts the relayer, or says which rule of the database refused it. */
  override async insert(manager: EntityManager, entity: RelayerEntity): Promise<InsertRefusal | null> {
    try {
      await super.insert(manager, entity);
    } catch (error) {
      if (isUniqueViolation(error)) return 'duplicate';
      if (isForeignKeyViolation(error)) return 'missing_notification';
      throw error;
    }
    return null;
  }

  /**
   * Writes the changes only if nobody wrote the relayer since it was read (same version), and
   * bumps the version. 'stale' when the version moved on (or the relayer is gone): re-read and retry.
   */
  async updateIfVersion(
    manager: EntityManager,
    id: string,
    version: number,
    changes: RelayerChanges,
  ): Promise<'written' | 'stale' | 'missing_notification'> {
    try {
      return (await this.updateVersioned(manager, id, version, changes)) ? 'written' : 'stale';
    } catch (error) {
      if (isForeignKeyViolation(error)) return 'missing_notification';
      throw error;
    }
  }

  /**
   * Writes what a health check found (system_disabled and its reason) if nobody wrote the relayer
   * since it was read; a PATCH in between makes it 'stale' and the checker reads again, and a
   * PATCH never writes these columns, so neither overwrites the other.
   */
  setSystemStateIfVersion(
    manager: EntityManager,
    id: string,
    version: number,
    state: Pick<RelayerEntity, 'systemDisabled' | 'disabledReason' | 'updatedAt'>,
  ): Promise<boolean> {
    return this.updateVersioned(manager, id, version, state);
  }

  /** With a version, only while the relayer still has it (false when it changed since it was read). */
  deleteById(manager: EntityManager, id: string, version?: number): Promise<boolean> {
    return this.deleteVersioned(manager, id, version);
  }
}
