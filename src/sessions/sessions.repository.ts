import { Injectable } from '@nestjs/common';
import { EntityRepository } from '../database/entity-rows';
import type { ReadTx } from '../database/transactions';
import { SessionEntity } from './session.entity';

/** Sessions (docs/access.md#sessions-and-csrf); one is live while not ended and before both of its expiries. */
@Injectable()
export class SessionsRepository extends EntityRepository(SessionEntity) {
  /** The session of a cookie's digest unless it ended; its expiries are the caller's to check. */
  async findByDigest(digest: string): Promise<SessionEntity | null> {
    const [row] = await this.select(
      `SELECT ${this.columns} FROM ${this.table} WHERE token_digest = ? AND ended_at IS NULL`,
      [digest],
    );
    return row ?? null;
  }

  /** A live session by id, in the caller's transaction. */
  async findLive(id: string, now: Date, tx?: ReadTx): Promise<SessionEntity | null> {
    const [row] = await this.select(
      `SELECT ${this.columns} FROM ${this.table}
        WHERE id = ? AND ended_at IS NULL AND expires_at > ? AND idle_expires_at > ?`,
      [id, this.parameter('expiresAt', now), this.parameter('idleExpiresAt', now)],
      tx,
    );
    return row ?? null;
  }

  /** Every live session, in the order of every list. */
  live(now: Date): Promise<SessionEntity[]> {
    return this.select(
      `SELECT ${this.columns} FROM ${this.table}
        WHERE ended_at IS NULL AND expires_at > ? AND idle_expires_at > ? ORDER BY created_at, id`,
      [this.parameter('expiresAt', now), this.parameter('idleExpiresAt', now)],
    );
  }

  /** A request extends its session's idle expiry (never past the absolute one). */
  async touch(id: string, at: Date, idleExpiresAt: Date): Promise<void> {
    await this.repository.query(
      `UPDATE ${this.table} SET last_used_at = ?, idle_expires_at = ? WHERE id = ? AND ended_at IS NULL`,
      [this.parameter('lastUsedAt', at), this.parameter('idleExpiresAt', idleExpiresAt), id],
    );
  }

  /** False when it had ended already. */
  async end(id: string, at: Date, tx?: ReadTx): Promise<boolean> {
    const result = await this.managerOf(tx)
      .createQueryBuilder()
      .update(SessionEntity)
      .set({ endedAt: at })
      .where('id = :id AND ended_at IS NULL', { id })
      .execute();
    return (result.affected ?? 0) > 0;
  }

  /** Sessions that ended or expired before `before`: nothing reads them any more. */
  async deleteDoneBefore(before: Date): Promise<number> {
    const result = await this.repository
      .createQueryBuilder()
      .delete()
      .where('ended_at < :before OR expires_at < :before OR idle_expires_at < :before', { before })
      .execute();
    return result.affected ?? 0;
  }
}
