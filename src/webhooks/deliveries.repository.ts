import { Injectable } from '@nestjs/common';
import { LessThan, Not } from 'typeorm';
import { kindCondition, WEBHOOK_TARGETS } from '../notifications';
import { RelayerScope } from '../common/auth/relayer-scope';
import type { CursorPosition } from '../common/http/cursor-page-query.dto';
import { EntityRepository } from '../database/entity-rows';
import type { ReadTx } from '../database/transactions';
import { DeliveryEntity, type DeliveryStatus } from './delivery.entity';
import { hourKey } from './delivery-hours';
import { TargetLeaseEntity } from './target-lease.entity';

/** Only the deliveries to webhook targets (TargetKind): one semi-join on the targets' primary key. */
const WEBHOOK_DELIVERIES = ` AND notification_id IN (SELECT id FROM notifications WHERE 1 = 1${kindCondition(WEBHOOK_TARGETS)})`;
/** A claimed delivery with the body of its event, read in the claim's one statement. */
export type OutgoingDelivery = DeliveryEntity & { readonly body: string };

export type AttemptOutcome = Pick<
  DeliveryEntity,
  | 'status'
  | 'attempts'
  | 'lastStatusCode'
  | 'lastError'
  | 'nextAttemptAt'
  | 'deliveredAt'
  | 'endedAt'
  | 'latencyMs'
  | 'failedAt'
  | 'failedError'
>;

/** A page by number, or by keyset after a position (null: from the newest). */
export type DeliveryPage =
  | { readonly offset: number; readonly limit: number }
  | { readonly after: CursorPosition | null; readonly limit: number };

/** Rows per INSERT of one event's deliveries: well below every driver's limit of parameters. */
const INSERT_CHUNK = 100;
/** Deliveries per statement that writes them delivered: at most 4 parameters each. */
const DELIVERED_CHUNK = 250;

/**
 * Due, not leased, and of a target not paused (docs/reference/webhooks.md#10-pausing-a-target); `d.`
 * qualifies the columns where the statement joins another table.
 */
const due = (d = '') =>
  `${d}status = 'pending' AND ${d}next_attempt_at <= :now AND (${d}lease_until IS NULL OR ${d}lease_until < :now)` +
  ` AND ${d}notification_id NOT IN (SELECT id FROM notifications WHERE paused_at IS NOT NULL)`;

/** Claims are conditional UPDATEs with a lease: SELECT ... FOR UPDATE does not lock across Galera nodes. */
@Injectable()
export class DeliveriesRepository extends EntityRepository(DeliveryEntity) {
  /** A key limited to some relayers reads only deliveries about them (docs/reference/keys-and-audit.md#3-relayer-scope). */
  protected override readonly scopeColumn = 'relayer_id';
  #joined: string | undefined;

  /**
   * Due deliveries in the order they are to be attempted (docs/reference/webhooks.md#27-order), of
   * targets no other instance is sending to, at most `perTarget` of each target: the first ones of
   * each (docs/reference/webhooks.md#29-batches).
   */
  async findDue(
    now: Date,
    limit: number,
    perTarget: number,
    { manager }: ReadTx,
  ): Promise<Array<{ id: string; notificationId: string }>> {
    const ranked = manager
      .createQueryBuilder(DeliveryEntity, 'd')
      .select('d.id', 'id')
      .addSelect('d.notification_id', 'notification_id')
      .addSelect('d.next_attempt_at', 'next_attempt_at')
      .addSelect('d.created_at', 'created_at')
      .addSelect(
        'ROW_NUMBER() OVER (PARTITION BY d.notification_id ORDER BY d.next_attempt_at, d.created_at, d.id)',
        'place',
      )
      .leftJoin(TargetLeaseEntity, 't', 't.notification_id = d.notification_id')
      .where(due('d.'), { now })
      .andWhere('(t.lease_until IS NULL OR t.lease_until < :now)');
    return manager
      .createQueryBuilder()
      .select('r.id', 'id')
      .addSelect('r.notification_id', 'notificationId')
      .from(`(${ranked.getQuery()})`, 'r')
      .where('r.place <= :perTarget', { perTarget })
      .orderBy('r.next_attempt_at')
      .addOrderBy('r.created_at')
      .addOrderBy('r.id')
      .limit(limit)
      .setParameters({ ...ranked.getParameters(), perTarget })
      .getRawMany<{ id: string; notificationId: string }>();
  }

  /**
   * The next due deliveries of one target, in order (a range of idx_webhook_deliveries_target_due):
   * a run's next share once it has sent the last (docs/reference/webhooks.md#29-batches).
   */
  async findDueOfTarget(
    notificationId: string,
    now: Date,
    limit: number,
    { manager }: ReadTx,
  ): Promise<string[]> {
    const rows = await manager
      .createQueryBuilder(DeliveryEntity, 'd')
      .select('d.id', 'id')
      .where('d.notification_id = :notificationId', { notificationId })
      .andWhere(due('d.'), { now })
      .orderBy('d.next_attempt_at')
      .addOrderBy('d.created_at')
      .addOrderBy('d.id')
      .limit(limit)
      .getRawMany<{ id: string }>();
    return rows.map((row) => row.id);
  }

  /**
   * Those of `ids` still due, leased to `owner` until `until` with one conditional UPDATE (as
   * EntityRows.claimByIds), then read in the order of `ids` with their events' bodies: one statement,
   * a join on the primary key of webhook_events, whatever the number of deliveries.
   */
  async claimAll(
    ids: readonly string[],
    owner: string,
    now: Date,
    until: Date,
    { manager }: ReadTx,
  ): Promise<OutgoingDelivery[]> {
    if (ids.length === 0) return [];
    await manager
      .createQueryBuilder()
      .update(DeliveryEntity)
      .set({ leaseOwner: owner, leaseUntil: until })
      .where(`id IN (:...ids) AND ${due()}`, { ids, now })
      .execute();
    const rows = await manager.query<Array<Record<string, unknown> & { event_body: string }>>(
      `SELECT ${this.joinedColumns}, e.body AS event_body
         FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id
        WHERE d.id IN (${ids.map(() => '?').join(', ')}) AND d.lease_owner = ?`,
      [...ids, owner],
    );
    const taken = new Map(
      rows.map((row) => {
        const delivery: OutgoingDelivery = Object.assign(this.hydrate(row), { body: row.event_body });
        return [delivery.id, delivery];
      }),
    );
    return ids.flatMap((id) => {
      const delivery = taken.get(id);
      return delivery ? [delivery] : [];
    });
  }

  /** The deliveries of one event (its targets'), in as few statements as the drivers allow. */
  async insertAll(deliveries: readonly DeliveryEntity[], { manager }: ReadTx): Promise<void> {
    const { columns } = this.repository.metadata;
    const driver = manager.connection.driver;
    const row = `(${columns.map(() => '?').join(', ')})`;
    for (let i = 0; i < deliveries.length; i += INSERT_CHUNK) {
      const chunk = deliveries.slice(i, i + INSERT_CHUNK);
      await manager.query(
        `INSERT INTO webhook_deliveries (${this.columns}) VALUES ${chunk.map(() => row).join(', ')}`,
        chunk.flatMap((delivery) =>
          columns.map(
            (column): unknown =>
              driver.preparePersistentValue(column.getEntityValue(delivery), column) as unknown,
          ),
        ),
      );
    }
  }

  /** Only while `owner` still holds the lease: whether it did. */
  async recordAttempt(id: string, owner: string, outcome: AttemptOutcome, tx?: ReadTx): Promise<boolean> {
    const result = await this.managerOf(tx).update(
      DeliveryEntity,
      { id, leaseOwner: owner },
      { ...outcome, leaseOwner: null, leaseUntil: null },
    );
    return (result.affected ?? 0) > 0;
  }

  /**
   * Deliveries answered 2xx, written delivered where their own lease still holds them, at most
   * DELIVERED_CHUNK a statement: their latencies, and status codes and leases where they differ, by
   * `CASE id`. More than a chunk is several statements, for the caller's one transaction. Raw SQL:
   * the statement the drain makes most (docs/benchmarks.md), built without the query builder.
   */
  async recordDelivered(
    answered: ReadonlyArray<{ id: string; lease: string; statusCode: number; latencyMs: number }>,
    at: Date,
    { manager }: ReadTx,
  ): Promise<void> {
    const when = this.parameter('endedAt', at);
    for (let from = 0; from < answered.length; from += DELIVERED_CHUNK) {
      const chunk = answered.slice(from, from + DELIVERED_CHUNK);
      const [first] = chunk;
      const byId = (key: 'lease' | 'statusCode' | 'latencyMs'): [string, unknown[]] =>
        key !== 'latencyMs' && chunk.every((a) => a[key] === first[key])
          ? ['?', [first[key]]]
          : [
              `CASE id ${chunk.map(() => 'WHEN ? THEN ?').join(' ')} END`,
              chunk.flatMap((a) => [a.id, a[key]]),
            ];
      const [code, codes] = byId('statusCode');
      const [latency, latencies] = byId('latencyMs');
      const [owner, owners] = byId('lease');
      await manager.query(
        `UPDATE webhook_deliveries
            SET status = 'delivered', attempts = attempts + 1, last_status_code = ${code}, last_error = NULL,
                delivered_at = ?, ended_at = ?, latency_ms = ${latency}, lease_owner = NULL, lease_until = NULL
          WHERE id IN (${chunk.map(() => '?').join(', ')}) AND lease_owner = ${owner}`,
        [...codes, when, when, ...latencies, ...chunk.map((a) => a.id), ...owners],
      );
    }
  }

  /** Gives deliveries not attempted back, due as they were, for any instance's next round. */
  async release(ids: readonly string[], owner: string, { manager }: ReadTx): Promise<void> {
    await manager
      .createQueryBuilder()
      .update(DeliveryEntity)
      .set({ leaseOwner: null, leaseUntil: null })
      .where('id IN (:...ids) AND lease_owner = :owner', { ids, owner })
      .execute();
  }

  async requeue(id: string, notificationId: string, now: Date, { manager }: ReadTx): Promise<boolean> {
    const result = await manager.update(
      DeliveryEntity,
      { id, notificationId, status: Not('pending') },
      { status: 'pending', nextAttemptAt: now, endedAt: null, leaseOwner: null, leaseUntil: null },
    );
    return (result.affected ?? 0) > 0;
  }

  /** Every column of `d`, named as the database names them (no clash with the joined table's). */
  private get joinedColumns(): string {
    const escape = (name: string) => this.repository.manager.connection.driver.escape(name);
    this.#joined ??= this.repository.metadata.columns
      .map((column) => `d.${escape(column.databaseName)} AS ${escape(column.databaseName)}`)
      .join(', ');
    return this.#joined;
  }

  async findPageOfNotification(
    notificationId: string,
    filters: { status?: DeliveryStatus; relayerId?: string },
    page: DeliveryPage,
  ): Promise<{ items: DeliveryEntity[]; total: number | null }> {
    const scope = this.scoped();
    let filter = '';
    const parameters: unknown[] = [notificationId];
    if (filters.status !== undefined) {
      filter += ' AND status = ?';
      parameters.push(filters.status);
    }
    if (filters.relayerId !== undefined) {
      // A range of idx_webhook_deliveries_relayer; the id compared exactly (1797600000000-ExactIds).
      filter += ' AND relayer_id = ?';
      parameters.push(filters.relayerId);
    }
    filter += scope.sql;
    parameters.push(...scope.parameters);
    return this.readPage(`FROM webhook_deliveries WHERE notification_id = ?${filter}`, parameters, page);
  }

  /**
   * The deliveries about one relayer to every target, newest first, and their count: ranges of
   * idx_webhook_deliveries_by_relayer (relayer_id, created_at, id), read backwards for the page. A
   * key limited to some relayers also sees only those to targets of its scope
   * (docs/reference/keys-and-audit.md#36-signers-and-notification-targets): that condition, and
   * `status`, are read from the rows of the range.
   */
  async findPageOfRelayer(
    relayerId: string,
    filters: { status?: DeliveryStatus },
    page: DeliveryPage,
  ): Promise<{ items: DeliveryEntity[]; total: number | null }> {
    const relayerScope = this.scoped();
    const targetScope = RelayerScope.filter('notification_id');
    // Its webhook targets' deliveries: an alert channel's log is under /alert-channels/{id}.
    let filter = `${relayerScope.sql}${targetScope.sql}${WEBHOOK_DELIVERIES}`;
    const parameters: unknown[] = [relayerId, ...relayerScope.parameters, ...targetScope.parameters];
    if (filters.status !== undefined) {
      filter += ' AND status = ?';
      parameters.push(filters.status);
    }
    return this.readPage(`FROM webhook_deliveries WHERE relayer_id = ?${filter}`, parameters, page);
  }

  /**
   * Newest first: by number, with the count; or by keyset, older than `after` (all from the newest
   * without it), nothing counted (docs/reference/pagination.md#17-cursors). Both lists' indexes end in
   * (created_at, id) after the equality on their first column: a page by keyset is a range read
   * backwards from its position, whatever its depth.
   */
  private async readPage(
    from: string,
    parameters: unknown[],
    page: DeliveryPage,
  ): Promise<{ items: DeliveryEntity[]; total: number | null }> {
    if ('after' in page) {
      let keyset = '';
      const bounds: unknown[] = [];
      if (page.after !== null) {
        // `created_at <= ?` bounds the range; the rest leaves out that time's deliveries up to the position.
        const at = this.parameter('createdAt', page.after.at);
        keyset = ' AND created_at <= ? AND (created_at < ? OR id < ?)';
        bounds.push(at, at, page.after.id);
      }
      const items = await this.select(
        `SELECT ${this.columns} ${from}${keyset} ORDER BY created_at DESC, id DESC LIMIT ?`,
        [...parameters, ...bounds, page.limit],
      );
      return { items, total: null };
    }
    const [items, counted] = await Promise.all([
      this.select(`SELECT ${this.columns} ${from} ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`, [
        ...parameters,
        page.limit,
        page.offset,
      ]),
      this.repository.query<Array<{ n: number | string }>>(`SELECT COUNT(*) AS n ${from}`, parameters),
    ]);
    return { items, total: Number(counted[0].n) };
  }

  /** Seconds since the oldest pending delivery was created (0 when none is pending). */
  async oldestPendingAgeSeconds(now: Date): Promise<number> {
    const rows = await this.repository.query<Array<{ oldest: Date | string | null }>>(
      "SELECT MIN(created_at) AS oldest FROM webhook_deliveries WHERE status = 'pending'",
    );
    const oldest = rows[0]?.oldest;
    if (oldest === null || oldest === undefined) return 0;
    const at = oldest instanceof Date ? oldest : new Date(`${oldest.replace(' ', 'T')}Z`);
    return Math.max(0, (now.getTime() - at.getTime()) / 1000);
  }

  /**
   * docs/reference/webhooks.md#33-retention; the hourly totals before `before` go too
   * (docs/reference/webhooks.md#94-the-cost): no window reads them (the 7d window's first whole hour
   * starts at or after it), and none sums up deliveries deleted here.
   */
  async deleteEndedBefore(before: Date): Promise<number> {
    const result = await this.repository.delete({ endedAt: LessThan(before) });
    await this.repository.query('DELETE FROM webhook_delivery_hours WHERE hour < ?', [
      hourKey(before.getTime()),
    ]);
    return result.affected ?? 0;
  }
}
