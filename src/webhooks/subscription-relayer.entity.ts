import { Entity } from 'typeorm';
import { IdPrimaryColumn } from '../database/id-column';

/** `*` stands for every relayer. */
export const ANY_RELAYER = '*';

/**
 * One relayer a target is subscribed to, or ANY_RELAYER: keyed by the relayer first, so that a
 * relayer's event finds its subscribers with one range of the primary key at commit.
 */
@Entity({ name: 'webhook_subscription_relayers' })
export class SubscriptionRelayerEntity {
  @IdPrimaryColumn({ name: 'relayer_id' })
  relayerId: string;

  @IdPrimaryColumn({ name: 'notification_id' })
  notificationId: string;
}
