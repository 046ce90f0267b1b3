import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import type { NetworkType } from '../catalogue/catalogue.types';
import { CachedRowCount } from '../database/cached-row-count';
import { RelayerEntity } from './relayer.entity';

export type RelayerChanges = Pick<
  RelayerEntity,
  'name' | 'paused' | 'notificationId' | 'customRpcUrls' | 'policies' | 'updatedAt'
>;

/** A relayers row as both drivers return it for the column list below. */
interface RelayerRow {
  id: string;
  name: string;
  network: string;
  network_type: NetworkType;
  address: string;
  signer_id: string;
  notification_id: string | null;
  paused: number | boolean;
  system_disabled: number | boolean;
  disabled_reason: string | null;
  custom_rpc_urls: string | null;
  policies: string | null;
  version: number;
  created_at: Date | string;
  updated_at: Date | string;
}

const COLUMNS =
  'id, name, network, network_type, address, signer_id, notification_id, paused, system_disabled, ' +
  'disabled_reason, custom_rpc_urls, policies, version, created_at, updated_at';

/** mysql2 returns DATETIME as Date (timezone Z); SQLite returns TypeORM's UTC text 'YYYY-MM-DD HH:MM:SS.SSS'. */
const toDate = (value: Date | string): Date =>
  value instanceof Date ? value : new Date(`${value.replace(' ', 'T')}Z`);

function toEntity(row: RelayerRow): RelayerEntity {
  return Object.assign(new RelayerEntity(), {
    id: row.id,
    name: row.name,
    network: row.network,
    networkType: row.network_type,
    address: row.address,
    signerId: row.signer_id,
    notificationId: row.notification_id,
    paused: Boolean(row.paused),
    systemDisabled: Boolean(row.system_disabled),
    disabledReason: row.disabled_reason,
    customRpcUrls: row.custom_rpc_urls,
    policies: row.policies,
    version: Number(row.version),
    createdAt: toDate(row.created_at),
    updatedAt: toDate(row.updated_at),
  });
}

/**
 * The reads on the request path are fixed SQL strings (the driver caches their prepared
 * statements) instead of TypeORM query builders, which rebuild the SQL on every call.
 */
@Injectable()
export class RelayersRepository {
  private readonly total: CachedRowCount;

  constructor(@InjectRepository(RelayerEntity) private readonly repository: Repository<RelayerEntity>) {
    this.total = new CachedRowCount(async () => {
      const rows = await this.repository.query<Array<{ n: number | string }>>(
        'SELECT COUNT(*) AS n FROM relayers',
      );
      return Number(rows[0].n);
    });
  }

  async findById(id: string): Promise<RelayerEntity | null> {
    const rows = await this.repository.query<RelayerRow[]>(`SELECT ${COLUMNS} FROM relayers WHERE id = ?`, [
      id,
    ]);
    return rows.length > 0 ? toEntity(rows[0]) : null;
  }

  async existsById(id: string): Promise<boolean> {
    const rows = await this.repository.query<unknown[]>('SELECT 1 AS found FROM relayers WHERE id = ?', [id]);
    return rows.length > 0;
  }

  /** One page in the stable list order: creation time, then id (served by idx_relayers_created_at_id). */
  async findPage(offset: number, limit: number): Promise<{ items: RelayerEntity[]; total: number }> {
    const [rows, total] = await Promise.all([
      this.repository.query<RelayerRow[]>(
        `SELECT ${COLUMNS} FROM relayers ORDER BY created_at, id LIMIT ? OFFSET ?`,
        [limit, offset],
      ),
      this.total.get(),
    ]);
    return { items: rows.map(toEntity), total };
  }

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

  async insert(entity: RelayerEntity): Promise<void> {
    await this.repository.insert(entity);
    this.total.invalidate();
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
    this.total.invalidate();
    return (result.affected ?? 0) > 0;
  }
}
