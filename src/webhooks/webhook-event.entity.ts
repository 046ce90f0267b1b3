import { Column, Entity } from 'typeorm';
import { DocumentColumn } from '../database/document-column';
import { IdPrimaryColumn } from '../database/id-column';

/**
 * An event's body, stored once whatever the number of targets it goes to
 * (docs/reference/webhooks.md#21-a-transactional-outbox): each target's DeliveryEntity references it
 * by `event_id`. Removed with the last delivery that references it.
 */
@Entity({ name: 'webhook_events' })
export class WebhookEventEntity {
  /** The body's `id`, sent as `X-Event-Id`. */
  @IdPrimaryColumn()
  id: string;

  /** The exact bytes sent (and signed) to every target, on every attempt. */
  @DocumentColumn()
  body: string;

  @Column({ name: 'created_at', type: 'datetime', precision: 3 })
  createdAt: Date;
}
