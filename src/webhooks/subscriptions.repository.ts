import { Injectable } from '@nestjs/common';
import { RelayerScope } from '../common/auth/relayer-scope';
import { EntityRepository } from '../database/entity-rows';
import type { ReadTx } from '../database/transactions';
import { parseJson } from '../common/http/json';
import { kindCondition, WEBHOOK_TARGETS, type TargetKind } from '../notifications';
import { SubscriptionEntity } from './subscription.entity';
import { ANY_RELAYER } from './subscription-relayer.entity';
import { isWebhookEvent, type WebhookEvent } from './webhook-events';

/** A target's subscription as stored: `relayerIds` null when it hears only of its own relayers. */
export interface StoredSubscription {
  readonly events: WebhookEvent[] | null;
  readonly relayerIds: string[] | null;
  /** False while the target has never had one. */
  readonly exists: boolean;
}

/** Rows inserted per statement: two parameters each, well below every driver's limit. */
const INSERT_CHUNK = 500;
/** Relayer ids looked up per statement. */
const LOOKUP_CHUNK = 500;

/** Who hears a relayer beside its own target: the targets subscribed to it by id or by `*`. */
export interface Hearers {
  readonly subscribed: ReadonlySet<string>;
  /** Its own target (`notification_id`), null without one or when it does not exist (yet). */
  readonly own: string | null;
}

function eventsOf(text: unknown): WebhookEvent[] | null {
  if (typeof text !== 'string') return null;
  const parsed: unknown = parseJson(text);
  return Array.isArray(parsed) ? parsed.filter(isWebhookEvent) : null;
}

@Injectable()
export class SubscriptionsRepository extends EntityRepository(SubscriptionEntity) {
  /**
   * The target's subscription, or null when the target does not exist, is of another kind, or is
   * outside the request's scope (docs/reference/keys-and-audit.md#3-relayer-scope). In a write's
   * transaction (`tx`), the target's row and its subscription's are locked until it ends (MySQL;
   * SQLite has one writer).
   */
  async findOfTarget(
    notificationId: string,
    tx?: ReadTx,
    kind: TargetKind = WEBHOOK_TARGETS,
  ): Promise<StoredSubscription | null> {
    const runner = this.managerOf(tx);
    const scope = RelayerScope.filter('n.id');
    const rows = await runner.query<Array<{ events: string | null; version: number | string | null }>>(
      `SELECT s.events AS events, s.version AS version
         FROM notifications n LEFT JOIN webhook_subscriptions s ON s.notification_id = n.id
        WHERE n.id = ?${kindCondition(kind, 'n.type')}${scope.sql}${tx ? this.dialect.lockingRead('update') : ''}`,
      [notificationId, ...scope.parameters],
    );
    if (rows.length === 0) return null;
    const [row] = rows;
    if (row.version === null) return { events: null, relayerIds: null, exists: false };
    const relayers = await runner.query<Array<{ relayer_id: string }>>(
      'SELECT relayer_id FROM webhook_subscription_relayers WHERE notification_id = ?',
      [notificationId],
    );
    return {
      events: eventsOf(row.events),
      // Sorted here: MySQL's collation would sort them otherwise than SQLite.
      relayerIds: relayers.length === 0 ? null : relayers.map((r) => r.relayer_id).sort(),
      exists: true,
    };
  }

  /**
   * The subscriptions of `notificationIds` (a page of targets already read in the request's scope),
   * by target, in two statements; a target without one is missing from the map.
   */
  async findOfTargets(
    notificationIds: readonly string[],
  ): Promise<Map<string, Pick<StoredSubscription, 'events' | 'relayerIds'>>> {
    if (notificationIds.length === 0) return new Map();
    const list = notificationIds.map(() => '?').join(', ');
    const [subscriptions, relayers] = await Promise.all([
      this.repository.query<Array<{ notification_id: string; events: string | null }>>(
        `SELECT notification_id, events FROM webhook_subscriptions WHERE notification_id IN (${list})`,
        [...notificationIds],
      ),
      this.repository.query<Array<{ notification_id: string; relayer_id: string }>>(
        `SELECT notification_id, relayer_id FROM webhook_subscription_relayers WHERE notification_id IN (${list})`,
        [...notificationIds],
      ),
    ]);
    const ids = Map.groupBy(relayers, (row) => row.notification_id);
    return new Map(
      subscriptions.map((row) => {
        const relayerIds = (ids.get(row.notification_id) ?? []).map((r) => r.relayer_id).sort();
        return [
          row.notification_id,
          { events: eventsOf(row.events), relayerIds: relayerIds.length === 0 ? null : relayerIds },
        ];
      }),
    );
  }

  /** Writes the target's subscription (`exists`: it has one), read locked by findOfTarget. */
  async write(
    notificationId: string,
    next: Pick<StoredSubscription, 'events' | 'relayerIds'>,
    exists: boolean,
    now: Date,
    tx: ReadTx,
  ): Promise<void> {
    const { manager } = tx;
    if (exists) {
      await manager
        .createQueryBuilder()
        .update(SubscriptionEntity)
        .set({ events: next.events, updatedAt: now, version: () => 'version + 1' })
        .where('notification_id = :notificationId', { notificationId })
        .execute();
      await manager.query('DELETE FROM webhook_subscription_relayers WHERE notification_id = ?', [
        notificationId,
      ]);
    } else {
      await this.insert(
        { notificationId, events: next.events, version: 1, createdAt: now, updatedAt: now },
        tx,
      );
    }
    const ids = next.relayerIds ?? [];
    for (let i = 0; i < ids.length; i += INSERT_CHUNK) {
      const chunk = ids.slice(i, i + INSERT_CHUNK);
      await manager.query(
        `INSERT INTO webhook_subscription_relayers (relayer_id, notification_id) VALUES ${chunk
          .map(() => '(?, ?)')
          .join(', ')}`,
        chunk.flatMap((id) => [id, notificationId]),
      );
    }
  }

  /**
   * For the limit of targets per relayer (docs/reference/webhooks.md#65-how-many-targets-may-hear-a-relayer),
   * in the caller's transaction, with locking reads (MySQL; SQLite has one writer at a time), so that a
   * change that would add a hearer at the same time waits for this one or deadlocks with it (and is
   * retried): for each of `relayerIds`, the targets subscribed to it by id or by `*`, and its own
   * target. Ranges of the primary key and of the relayers' one; ids compared exactly.
   */
  async hearersOf(relayerIds: readonly string[], tx: ReadTx): Promise<Map<string, Hearers>> {
    const { manager } = tx;
    const hearers = new Map<string, Hearers>();
    const ids = [...new Set(relayerIds)];
    for (let i = 0; i < ids.length; i += LOOKUP_CHUNK) {
      const chunk = ids.slice(i, i + LOOKUP_CHUNK);
      const subscribed = await manager.query<Array<{ relayer_id: string; notification_id: string }>>(
        `SELECT relayer_id, notification_id FROM webhook_subscription_relayers
          WHERE relayer_id IN (${chunk.map(() => '?').join(', ')}, ?)${this.dialect.lockingRead('share')}`,
        [...chunk, ANY_RELAYER],
      );
      const owned = await this.ownTargetsOf(chunk, tx);
      const everyRelayer = subscribed.filter((row) => row.relayer_id === ANY_RELAYER);
      for (const id of chunk) {
        const rows = [...everyRelayer, ...subscribed.filter((row) => row.relayer_id === id)];
        hearers.set(id, {
          subscribed: new Set(rows.map((row) => row.notification_id)),
          own: owned.get(id) ?? null,
        });
      }
    }
    return hearers;
  }

  /**
   * The targets subscribed to `relayerId` by id or by `*`, with a locking read (hearersOf): one range
   * of the primary key. For a relayer whose own target the caller's transaction has just written.
   */
  async subscribersOf(relayerId: string, { manager }: ReadTx): Promise<Set<string>> {
    const rows = await manager.query<Array<{ relayer_id: string; notification_id: string }>>(
      `SELECT relayer_id, notification_id FROM webhook_subscription_relayers
        WHERE relayer_id IN (?, ?)${this.dialect.lockingRead('share')}`,
      [relayerId, ANY_RELAYER],
    );
    return new Set(
      rows
        .filter((row) => row.relayer_id === relayerId || row.relayer_id === ANY_RELAYER)
        .map((row) => row.notification_id),
    );
  }

  /** The targets subscribed to every relayer (`*`), with a locking read (hearersOf). */
  async subscribersOfEvery({ manager }: ReadTx): Promise<string[]> {
    const rows = await manager.query<Array<{ notification_id: string }>>(
      `SELECT notification_id FROM webhook_subscription_relayers WHERE relayer_id = ?${this.dialect.lockingRead('share')}`,
      [ANY_RELAYER],
    );
    return rows.map((row) => row.notification_id);
  }

  /**
   * The relayer ids that at least `count` targets are subscribed to by id, with how many, reading
   * (and, on MySQL, locking) every subscription by id: `*` is about every relayer.
   */
  async subscribedByAtLeast(count: number, { manager }: ReadTx): Promise<Map<string, number>> {
    const rows = await manager.query<Array<{ relayer_id: string; n: number | string }>>(
      `SELECT relayer_id, COUNT(*) AS n FROM webhook_subscription_relayers WHERE relayer_id <> ?
        GROUP BY relayer_id HAVING COUNT(*) >= ?${this.dialect.lockingRead('share')}`,
      [ANY_RELAYER, count],
    );
    return new Map(rows.map((row) => [row.relayer_id, Number(row.n)]));
  }

  /** The relayers whose own target is none of `notificationIds`; locking what it reads (hearersOf). */
  async relayersWithOwnTargetBesides(
    notificationIds: readonly string[],
    { manager }: ReadTx,
  ): Promise<string[]> {
    const besides =
      notificationIds.length === 0
        ? ''
        : ` AND notification_id NOT IN (${notificationIds.map(() => '?').join(', ')})`;
    const rows = await manager.query<Array<{ id: string }>>(
      `SELECT id FROM relayers WHERE notification_id IS NOT NULL${besides}${this.dialect.lockingRead('share')}`,
      [...notificationIds],
    );
    return rows.map((row) => row.id);
  }

  /** Each of `relayerIds` that exists with a target of its own, that target; locking (hearersOf). */
  async ownTargetsOf(relayerIds: readonly string[], { manager }: ReadTx): Promise<Map<string, string>> {
    if (relayerIds.length === 0) return new Map();
    const rows = await manager.query<Array<{ id: string; notification_id: string }>>(
      `SELECT id, notification_id FROM relayers
        WHERE id IN (${relayerIds.map(() => '?').join(', ')}) AND notification_id IS NOT NULL${this.dialect.lockingRead('share')}`,
      [...relayerIds],
    );
    // `IN` follows the column's collation (MySQL's may ignore case): the ids asked for, exactly.
    const asked = new Set(relayerIds);
    return new Map(rows.filter((row) => asked.has(row.id)).map((row) => [row.id, row.notification_id]));
  }

  /**
   * docs/reference/webhooks.md#6-subscriptions, at commit: the relayer's own target (when it has one)
   * and every target subscribed to the relayer or to `*`, each once, with the events it wants (null:
   * every one). Two ranges of primary keys, in the change's transaction.
   */
  async targetsOf(
    relayerId: string,
    ownTarget: string | null,
    { manager }: ReadTx,
  ): Promise<Map<string, WebhookEvent[] | null>> {
    const rows = await manager.query<Array<{ notification_id: string; events: string | null }>>(
      `SELECT s.notification_id AS notification_id, s.events AS events
         FROM webhook_subscriptions s WHERE s.notification_id = ?
       UNION
       SELECT s.notification_id AS notification_id, s.events AS events
         FROM webhook_subscription_relayers r
         JOIN webhook_subscriptions s ON s.notification_id = r.notification_id
        WHERE r.relayer_id IN (?, ?)`,
      [ownTarget ?? '', relayerId, ANY_RELAYER],
    );
    const targets = new Map<string, WebhookEvent[] | null>();
    if (ownTarget !== null) targets.set(ownTarget, null);
    for (const row of rows) targets.set(row.notification_id, eventsOf(row.events));
    return targets;
  }
}
