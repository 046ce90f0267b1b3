import { Column, Entity } from 'typeorm';
import { IdPrimaryColumn } from '../database/id-column';
import { jsonColumn } from '../database/json-column';
import type { WebhookEvent } from './webhook-events';

/**
 * A target's subscription (docs/reference/webhooks.md#6-subscriptions): the events it wants (null:
 * every one). The relayers it hears about beyond its own are rows of SubscriptionRelayerEntity.
 */
@Entity({ name: 'webhook_subscriptions' })
export class SubscriptionEntity {
  @IdPrimaryColumn({ name: 'notification_id' })
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
