import { Module } from '@nestjs/common';
import { declareResource } from '../common/auth/resources';
import { NotificationsModule } from '../notifications/notifications.module';
import { ReplayRules } from '../webhooks/replay.validation';
import { WebhooksModule } from '../webhooks/webhooks.module';
import { AlertChannelDeliveriesController } from './alert-channel-deliveries.controller';
import { AlertChannelsController } from './alert-channels.controller';
import { AlertChannelsService } from './alert-channels.service';
import { AlertChannelCreateRules, AlertChannelPatchRules } from './alert-channels.validation';

// Audited as alert_channel.*, under the notifications' permissions (docs/reference/alert-channels.md).
declareResource({ name: 'alert_channel', audited: true });

/**
 * docs/reference/alert-channels.md: the API of alert channels. Their delivery (the renderers and
 * senders of send/ and render/) is part of the webhooks' machinery, which WebhooksModule provides.
 */
@Module({
  imports: [NotificationsModule, WebhooksModule],
  controllers: [AlertChannelsController, AlertChannelDeliveriesController],
  providers: [AlertChannelsService, AlertChannelCreateRules, AlertChannelPatchRules, ReplayRules],
  // For the configuration file's alert channels (src/config-file), applied and exported as the API's.
  exports: [AlertChannelsService, AlertChannelCreateRules, AlertChannelPatchRules],
})
export class AlertChannelsModule {}
