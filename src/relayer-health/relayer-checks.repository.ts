import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { EntityRepository } from '../database/entity-repository';
import { RelayerCheckEntity } from './relayer-check.entity';

export type CheckOutcome = Pick<
  RelayerCheckEntity,
  'checkedAt' | 'balance' | 'nonce' | 'sequenceNumber' | 'failures' | 'nextCheckAt'
>;

/**
 * When each relayer is checked next, and what its last check found. A round's check of one
 * relayer is claimed by one instance with a conditional UPDATE and a lease, which holds on one
 * server and across Galera nodes alike.
 */
@Injectable()
export class RelayerChecksRepository extends EntityRepository(RelayerCheckEntity) {
  /** In the transaction that creates the relayer: its first check is due at once. */
  async insertDue(manager: EntityManager, relayerId: string, dueAt: Date): Promise<void> {
    await this.insert(manager, {
      relayerId,
      nextCheckAt: dueAt,
      leaseOwner: null,
      leaseUntil: null,
      checkedAt: null,
      balance: null,
      nonce: null,
      sequenceNumber: null,
      failures: 0,
    });
  }

  /**
   * Makes the next check due now (after a change of the relayer's RPC URLs or policies) and takes
   * the relayer from a check in flight, whose verdict is about what the relayer had before
   * (docs/reference/hardening.md): the new check need not wait for it, and its record or release, which match its
   * own lease, can no longer push this due time later.
   */
  async dueNow(manager: EntityManager, relayerId: string, now: Date): Promise<void> {
    await manager.update(
      RelayerCheckEntity,
      { relayerId },
      { nextCheckAt: now, leaseOwner: null, leaseUntil: null },
    );
  }

  /**
   * A check whose verdict was dropped (what it probed changed meanwhile): due again now and
   * released, unless another check has the relayer already.
   */
  async dueAgain(manager: EntityManager, relayerId: string, owner: string, now: Date): Promise<void> {
    await manager.update(
      RelayerCheckEntity,
      { relayerId, leaseOwner: owner },
      { nextCheckAt: now, leaseOwner: null, leaseUntil: null },
    );
  }

  async findDueIds(now: Date, limit: number): Promise<string[]> {
    const rows = await this.repository
      .createQueryBuilder('c')
      .select('c.relayer_id', 'id')
      .where('c.next_check_at <= :now', { now })
      .andWhere('(c.lease_until IS NULL OR c.lease_until < :now)', { now })
      .orderBy('c.next_check_at')
      .limit(limit)
      .getRawMany<{ id: string }>();
    return rows.map((row) => row.id);
  }

  /** Takes the relayer's check for `owner` until `until`; false when another instance has it. */
  async claim(
    relayerId: string,
    owner: string,
    now: Date,
    until: Date,
    onlyIfDue: boolean,
  ): Promise<boolean> {
    const query = this.repository
      .createQueryBuilder()
      .update(RelayerCheckEntity)
      .set({ leaseOwner: owner, leaseUntil: until })
      .where('relayer_id = :relayerId', { relayerId })
      .andWhere('(lease_until IS NULL OR lease_until < :now)', { now });
    if (onlyIfDue) query.andWhere('next_check_at <= :now', { now });
    const result = await query.execute();
    return (result.affected ?? 0) > 0;
  }

  /** Records the check and releases the lease (in the transaction that applies its verdict). */
  async record(
    manager: EntityManager,
    relayerId: string,
    owner: string,
    outcome: CheckOutcome,
  ): Promise<void> {
    await manager
      .createQueryBuilder()
      .update(RelayerCheckEntity)
      .set({ ...outcome, leaseOwner: null, leaseUntil: null })
      .where('relayer_id = :relayerId AND lease_owner = :owner', { relayerId, owner })
      .execute();
  }

  async release(relayerId: string, owner: string): Promise<void> {
    await this.repository.update({ relayerId, leaseOwner: owner }, { leaseOwner: null, leaseUntil: null });
  }

  /** Relayers disabled now, for the metric. */
  async countDisabled(): Promise<number> {
    const rows = await this.repository.query<Array<{ n: number | string }>>(
      'SELECT COUNT(*) AS n FROM relayers WHERE system_disabled = 1',
    );
    return Number(rows[0].n);
  }
}
