import { Column, Entity, PrimaryColumn } from 'typeorm';
import { jsonColumn } from '../database/json-column';
import type { WebhookEvent } from './webhook-events';

/**
 * A target's subscription (docs/reference/webhooks.md#6-subscriptions): the events it wants (null:
 * every one). The relayers it hears about beyond its own are rows of SubscriptionRelayerEntity.
 */
@Entity({ name: 'webhook_subscriptions' })
export class SubscriptionEntity {
  @PrimaryColumn({ name: 'notification_id', type: 'varchar', length: 36 })
  notificationId: string;

  @Column({ type: 'varchar', length: 512, nullable: true, transformer: jsonColumn })
  events: WebhookEvent[] | null;

  /** Each change checks and bumps it (ResourceWrites). */
  @Column({ type: 'integer' })
  version: number;

  @Column({ name: 'created_at', type: 'datetime', precision: 3 })
  createdAt: Date;

  @Column({ name: 'updated_at', type: 'datetime', precision: 3 })
  updatedAt: Date;
}
