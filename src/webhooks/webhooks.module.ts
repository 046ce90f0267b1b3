import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { OutboundHttpModule } from '../common/security/outbound-http.module';
import { MetricsModule } from '../metrics/metrics.module';
import { RotateSigningKeyRules, SigningSchemeRules } from '../notifications';
import { NotificationsModule } from '../notifications/notifications.module';
import { RelayersModule } from '../relayers/relayers.module';
import { DeliveriesRepository } from './deliveries.repository';
import { DeliveryDispatcher } from './delivery-dispatcher';
import { DeliveryStatsController } from './delivery-stats.controller';
import { DeliveryHourEntity } from './delivery-hour.entity';
import { DeliveryHoursRepository } from './delivery-hours.repository';
import { DeliveryStatsRepository } from './delivery-stats.repository';
import { DeliveryStatsService } from './delivery-stats.service';
import { DeliveryEntity } from './delivery.entity';
import { FanOutLimit } from './fan-out-limit';
import { TargetLeaseEntity } from './target-lease.entity';
import { TargetLeasesRepository } from './target-leases.repository';
import { WebhookEventEntity } from './webhook-event.entity';
import { WebhookEventsRepository } from './webhook-events.repository';
import { WebhookMetrics } from './webhook-metrics';
import { WebhookOutbox } from './webhook-outbox';
import { WebhookSender } from './webhook-sender';
import { WebhooksController } from './webhooks.controller';
import { WebhooksService } from './webhooks.service';
import { SubscriptionEntity } from './subscription.entity';
import { SubscriptionRelayerEntity } from './subscription-relayer.entity';
import { SubscriptionsRepository } from './subscriptions.repository';
import { SubscriptionsService } from './subscriptions.service';
import { SubscriptionRules } from './subscription.validation';
import { NotificationSubscriptionController } from './notification-subscription.controller';
import { DeliveryReplaysRepository } from './delivery-replays.repository';
import { DeliveryReplaysService } from './delivery-replays.service';
import { ReplayRules } from './replay.validation';
import { WebhookReplayController } from './webhook-replay.controller';
import { NotificationStateController } from './notification-state.controller';
import { RelayerDeliveriesController } from './relayer-deliveries.controller';
import { ChannelSenders } from './channel-senders';

@Module({
  imports: [
    TypeOrmModule.forFeature([
      DeliveryEntity,
      DeliveryHourEntity,
      TargetLeaseEntity,
      SubscriptionEntity,
      SubscriptionRelayerEntity,
      WebhookEventEntity,
    ]),
    MetricsModule,
    NotificationsModule,
    OutboundHttpModule,
    RelayersModule,
  ],
  controllers: [
    WebhooksController,
    NotificationSubscriptionController,
    WebhookReplayController,
    DeliveryStatsController,
    NotificationStateController,
    RelayerDeliveriesController,
  ],
  providers: [
    DeliveriesRepository,
    WebhookEventsRepository,
    TargetLeasesRepository,
    DeliveryDispatcher,
    WebhookOutbox,
    WebhookSender,
    WebhookMetrics,
    WebhooksService,
    SubscriptionsRepository,
    SubscriptionsService,
    FanOutLimit,
    SubscriptionRules,
    DeliveryReplaysRepository,
    DeliveryReplaysService,
    ReplayRules,
    DeliveryStatsRepository,
    DeliveryHoursRepository,
    DeliveryStatsService,
    RotateSigningKeyRules,
    SigningSchemeRules,
    ChannelSenders,
  ],
  // For the alert channels (docs/reference/alert-channels.md#7-one-machinery).
  exports: [
    WebhooksService,
    DeliveryReplaysService,
    DeliveryStatsService,
    SubscriptionsRepository,
    FanOutLimit,
    ChannelSenders,
    WebhookSender,
    ReplayRules,
  ],
})
export class WebhooksModule {}
