import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { RelayerScope } from '../common/auth/relayer-scope';
import { isForeignKeyViolation, isUniqueViolation } from '../common/errors/database-errors';
import { EntityRepository } from '../database/entity-rows';
import { parseJson } from '../common/http/json';
import { SubscriptionEntity } from './subscription.entity';
import { ANY_RELAYER } from './subscription-relayer.entity';
import { isWebhookEvent, type WebhookEvent } from './webhook-events';

/** A target's subscription as stored: `relayerIds` null when it hears only of its own relayers. */
export interface StoredSubscription {
  /** The target's id. */
  readonly id: string;
  readonly events: WebhookEvent[] | null;
  readonly relayerIds: string[] | null;
  /** 0 while the target has never had one. */
  readonly version: number;
  readonly createdAt?: Date;
}

/** Rows inserted per statement: two parameters each, well below every driver's limit. */
const INSERT_CHUNK = 500;

function eventsOf(text: unknown): WebhookEvent[] | null {
  if (typeof text !== 'string') return null;
  const parsed: unknown = parseJson(text);
  return Array.isArray(parsed) ? parsed.filter(isWebhookEvent) : null;
}

@Injectable()
export class SubscriptionsRepository extends EntityRepository(SubscriptionEntity) {
  /**
   * The target's subscription (version 0 when it has none), or null when the target does not exist
   * or is outside the request's scope (docs/reference/keys-and-audit.md#3-relayer-scope).
   */
  async findOfTarget(notificationId: string, manager?: EntityManager): Promise<StoredSubscription | null> {
    const runner = manager ?? this.repository.manager;
    const scope = RelayerScope.filter('n.id', (expression) => this.dialect.bytewise(expression));
    const rows = await runner.query<Array<{ events: string | null; version: number | string | null }>>(
      `SELECT s.events AS events, s.version AS version
         FROM notifications n LEFT JOIN webhook_subscriptions s ON s.notification_id = n.id
        WHERE n.id = ?${scope.sql}`,
      [notificationId, ...scope.parameters],
    );
    if (rows.length === 0) return null;
    const [row] = rows;
    if (row.version === null) return { id: notificationId, events: null, relayerIds: null, version: 0 };
    const relayers = await runner.query<Array<{ relayer_id: string }>>(
      'SELECT relayer_id FROM webhook_subscription_relayers WHERE notification_id = ?',
      [notificationId],
    );
    return {
      id: notificationId,
      events: eventsOf(row.events),
      // Sorted here: MySQL's collation would sort them otherwise than SQLite.
      relayerIds: relayers.length === 0 ? null : relayers.map((r) => r.relayer_id).sort(),
      version: Number(row.version),
    };
  }

  /**
   * Writes the subscription at `version` (0: the first one) and bumps it: 'stale' when another write
   * got there first, 'gone' when the target was deleted meanwhile (the foreign key).
   */
  async write(
    manager: EntityManager,
    next: Omit<StoredSubscription, 'version' | 'createdAt'>,
    version: number,
    now: Date,
  ): Promise<'written' | 'stale' | 'gone'> {
    const notificationId = next.id;
    if (version === 0) {
      try {
        await this.insert(manager, {
          notificationId,
          events: next.events,
          version: 1,
          createdAt: now,
          updatedAt: now,
        });
      } catch (error) {
        if (isUniqueViolation(error)) return 'stale';
        if (isForeignKeyViolation(error)) return 'gone';
        throw error;
      }
    } else {
      const result = await manager
        .createQueryBuilder()
        .update(SubscriptionEntity)
        .set({ events: next.events, updatedAt: now, version: () => 'version + 1' })
        .where('notification_id = :notificationId AND version = :version', { notificationId, version })
        .execute();
      if ((result.affected ?? 0) === 0) return 'stale';
      await manager.query('DELETE FROM webhook_subscription_relayers WHERE notification_id = ?', [
        notificationId,
      ]);
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
    return 'written';
  }

  /**
   * docs/reference/webhooks.md#6-subscriptions, at commit: the relayer's own target (when it has one)
   * and every target subscribed to the relayer or to `*`, each once, with the events it wants (null:
   * every one). Two ranges of primary keys, in the change's transaction.
   */
  async targetsOf(
    manager: EntityManager,
    relayerId: string,
    ownTarget: string | null,
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
