import { Entity, PrimaryColumn } from 'typeorm';

/** `*` stands for every relayer. */
export const ANY_RELAYER = '*';

/**
 * One relayer a target is subscribed to, or ANY_RELAYER: keyed by the relayer first, so that a
 * relayer's event finds its subscribers with one range of the primary key at commit.
 */
@Entity({ name: 'webhook_subscription_relayers' })
export class SubscriptionRelayerEntity {
  @PrimaryColumn({ name: 'relayer_id', type: 'varchar', length: 36 })
  relayerId: string;

  @PrimaryColumn({ name: 'notification_id', type: 'varchar', length: 36 })
  notificationId: string;
}
