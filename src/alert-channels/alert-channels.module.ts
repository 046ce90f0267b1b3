import { Module, type OnModuleInit } from '@nestjs/common';
import { declareResource } from '../common/auth/resources';
import { NotificationsModule } from '../notifications/notifications.module';
import { ChannelSenders, ReplayRules } from '../webhooks';
import { WebhooksModule } from '../webhooks/webhooks.module';
import { AlertChannelDeliveriesController } from './alert-channel-deliveries.controller';
import { AlertChannelsController } from './alert-channels.controller';
import { AlertChannelsService } from './alert-channels.service';
import { AlertChannelCreateRules, AlertChannelPatchRules } from './alert-channels.validation';
import { ALERT_CHANNEL_TYPES } from '../notifications';
import { ALERT_SENDERS, AlertSenders } from './send/alert-senders';

// Audited as alert_channel.*, under the notifications' permissions (docs/reference/alert-channels.md).
declareResource({ name: 'alert_channel', audited: true });

/**
 * docs/reference/alert-channels.md: the API of alert channels, and their senders (send/, with the
 * renderers of render/), which the webhooks' dispatcher calls for every channel's delivery
 * (docs/reference/alert-channels.md#7-one-machinery).
 */
@Module({
  imports: [NotificationsModule, WebhooksModule],
  controllers: [AlertChannelsController, AlertChannelDeliveriesController],
  providers: [
    AlertChannelsService,
    AlertChannelCreateRules,
    AlertChannelPatchRules,
    ReplayRules,
    ...ALERT_SENDERS,
  ],
  // For the configuration file's alert channels (src/config-file), applied and exported as the API's.
  exports: [AlertChannelsService, AlertChannelCreateRules, AlertChannelPatchRules],
})
export class AlertChannelsModule implements OnModuleInit {
  constructor(
    private readonly senders: ChannelSenders,
    private readonly alerts: AlertSenders,
  ) {}

  onModuleInit(): void {
    this.senders.register(ALERT_CHANNEL_TYPES, this.alerts);
  }
}
