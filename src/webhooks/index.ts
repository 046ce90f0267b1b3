// The webhooks' public face: what other features import (docs/architecture.md).
export { ChannelSenders, type ChannelSender } from './channel-senders';
export { DeliveryReplaysService } from './delivery-replays.service';
export { DeliveryStatsService } from './delivery-stats.service';
export { FanOutLimit } from './fan-out-limit';
export { ReplayRules, type ReplayRequest } from './replay.validation';
export { SubscriptionsRepository, type StoredSubscription } from './subscriptions.repository';
export { ANY_RELAYER } from './subscription-relayer.entity';
export { MAX_SUBSCRIBED_RELAYERS } from './dto/subscription.dto';
export { DeliveryQueryDto, DeliveryResponse, TestDeliveryResponse } from './dto/delivery.dto';
export {
  DeliverySeriesQueryDto,
  DeliverySeriesResponse,
  DeliveryStatsQueryDto,
  DeliveryStatsResponse,
} from './dto/delivery-stats.dto';
export { ReplayDeliveriesDto, ReplayResponse } from './dto/replay.dto';
export { isWebhookEvent, WEBHOOK_EVENTS, type WebhookEvent } from './webhook-events';
export { WebhookSender, type AttemptResult } from './webhook-sender';
export { WebhooksService } from './webhooks.service';
export { deliveryNotFound } from './webhooks.errors';
