import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import { ConfigEntryEntity } from './config-entry.entity';

/** The digests of the applied entries, keyed by (kind, id): not EntityRepository's single id. */
@Injectable()
export class ConfigEntriesRepository {
  constructor(@InjectRepository(ConfigEntryEntity) private readonly rows: Repository<ConfigEntryEntity>) {}

  findAll(): Promise<ConfigEntryEntity[]> {
    return this.rows.find();
  }

  async put(row: ConfigEntryEntity): Promise<void> {
    await this.rows.upsert(row, ['kind', 'id']);
  }
}
