import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import type { NetworkType } from '../catalogue/catalogue.types';
import { RelayerEntity } from './relayer.entity';

export type RelayerChanges = Pick<
  RelayerEntity,
  'name' | 'paused' | 'notificationId' | 'customRpcUrls' | 'policies' | 'updatedAt'
>;

@Injectable()
export class RelayersRepository {
  constructor(@InjectRepository(RelayerEntity) private readonly repository: Repository<RelayerEntity>) {}

  findById(id: string): Promise<RelayerEntity | null> {
    return this.repository.findOneBy({ id });
  }

  existsById(id: string): Promise<boolean> {
    return this.repository.existsBy({ id });
  }

  /** One page in the stable list order: creation time, then id. */
  async findPage(offset: number, limit: number): Promise<{ items: RelayerEntity[]; total: number }> {
    const [items, total] = await this.repository.findAndCount({
      order: { createdAt: 'ASC', id: 'ASC' },
      skip: offset,
      take: limit,
    });
    return { items, total };
  }

  /** The id of the relayer that uses this signer on this network, if any. */
  async findIdBySignerOnNetwork(
    networkType: NetworkType,
    network: string,
    signerId: string,
  ): Promise<string | null> {
    const row = await this.repository.findOne({
      select: { id: true },
      where: { networkType, network, signerId },
    });
    return row?.id ?? null;
  }

  /** Ids of the relayers that reference a notification, in id order. */
  async findIdsByNotification(notificationId: string): Promise<string[]> {
    const rows = await this.repository.find({
      select: { id: true },
      where: { notificationId },
      order: { id: 'ASC' },
    });
    return rows.map((row) => row.id);
  }

  async insert(entity: RelayerEntity): Promise<void> {
    await this.repository.insert(entity);
  }

  /**
   * Writes the changes only if nobody wrote the relayer since it was read (same version), and
   * bumps the version. False when the version moved on (or the relayer is gone): re-read and retry.
   */
  async updateIfVersion(id: string, version: number, changes: RelayerChanges): Promise<boolean> {
    const result = await this.repository
      .createQueryBuilder()
      .update(RelayerEntity)
      .set({ ...changes, version: version + 1 })
      .where('id = :id AND version = :version', { id, version })
      .execute();
    return (result.affected ?? 0) > 0;
  }

  async deleteById(id: string): Promise<boolean> {
    const result = await this.repository.delete({ id });
    return (result.affected ?? 0) > 0;
  }
}
