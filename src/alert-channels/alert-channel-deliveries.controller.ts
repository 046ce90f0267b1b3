import { Controller, Get, Param, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { Page } from '../common/http/page.dto';
import { Route } from '../common/http/route.decorator';
import { ValidBody } from '../common/validation/dto-validation.pipe';
import { ParseIdPipe } from '../common/validation/parse-id.pipe';
import { ALERT_CHANNELS, NotificationStateResponse, NotificationStateService } from '../notifications';
import {
  DeliveryReplaysService,
  DeliveryStatsService,
  DeliveryQueryDto,
  DeliveryResponse,
  TestDeliveryResponse,
  DeliverySeriesQueryDto,
  DeliverySeriesResponse,
  DeliveryStatsQueryDto,
  DeliveryStatsResponse,
  ReplayDeliveriesDto,
  ReplayResponse,
  ReplayRules,
  type ReplayRequest,
  deliveryNotFound,
  WebhooksService,
} from '../webhooks';
import { ChannelId } from './alert-channels.controller';
import { AlertChannelsService } from './alert-channels.service';

/**
 * docs/reference/alert-channels.md#7-one-machinery: a channel's delivery log, retries, replay, pause,
 * stats and test, the webhooks' own (docs/reference/webhooks.md) for the kind ALERT_CHANNELS.
 */
@ApiTags('alert-channels')
@ApiBearerAuth()
@Controller('alert-channels/:channel_id')
export class AlertChannelDeliveriesController {
  constructor(
    private readonly webhooks: WebhooksService,
    private readonly replays: DeliveryReplaysService,
    private readonly stats: DeliveryStatsService,
    private readonly state: NotificationStateService,
    private readonly channels: AlertChannelsService,
  ) {}

  @Get('deliveries')
  @Route({
    permission: 'notifications:read',
    status: 200,
    response: DeliveryResponse,
    list: true,
    errors: [404],
  })
  deliveries(@ChannelId() id: string, @Query() query: DeliveryQueryDto): Promise<Page<DeliveryResponse>> {
    return this.webhooks.list(id, query, ALERT_CHANNELS);
  }

  // As a webhook's: a retry re-sends relayer data (docs/reference/hardening.md).
  @Post('deliveries/:delivery_id/retry')
  @Route({
    permission: ['notifications:write', 'relayers:read'],
    status: 202,
    response: DeliveryResponse,
    noBody: true,
    errors: [404],
  })
  retry(
    @ChannelId() id: string,
    @Param('delivery_id', new ParseIdPipe(deliveryNotFound)) deliveryId: string,
  ): Promise<DeliveryResponse> {
    return this.webhooks.retry(id, deliveryId, ALERT_CHANNELS);
  }

  @Post('deliveries/replay')
  @Route({
    permission: ['notifications:write', 'relayers:read'],
    status: 202,
    response: ReplayResponse,
    body: ReplayDeliveriesDto,
    errors: [404, 409],
  })
  replay(@ChannelId() id: string, @ValidBody(ReplayRules) body: ReplayRequest): Promise<ReplayResponse> {
    return this.replays.replay(id, body, ALERT_CHANNELS);
  }

  @Post('test')
  @Route({
    permission: 'notifications:write',
    status: 200,
    response: TestDeliveryResponse,
    noBody: true,
    errors: [403, 404],
  })
  async test(@ChannelId() id: string): Promise<TestDeliveryResponse> {
    await this.channels.assertMayChange(id);
    return this.webhooks.test(id, ALERT_CHANNELS);
  }

  @Get('state')
  @Route({
    permission: 'notifications:read',
    status: 200,
    response: NotificationStateResponse,
    errors: [404],
  })
  getState(@ChannelId() id: string): Promise<NotificationStateResponse> {
    return this.state.get(id, ALERT_CHANNELS);
  }

  @Post('pause')
  @Route({
    permission: 'notifications:write',
    status: 200,
    response: NotificationStateResponse,
    noBody: true,
    errors: [403, 404],
  })
  async pause(@ChannelId() id: string): Promise<NotificationStateResponse> {
    await this.channels.assertMayChange(id);
    return this.state.pause(id, ALERT_CHANNELS);
  }

  @Post('resume')
  @Route({
    permission: 'notifications:write',
    status: 200,
    response: NotificationStateResponse,
    noBody: true,
    errors: [403, 404],
  })
  async resume(@ChannelId() id: string): Promise<NotificationStateResponse> {
    await this.channels.assertMayChange(id);
    return this.state.resume(id, ALERT_CHANNELS);
  }

  @Get('stats')
  @Route({
    permission: 'notifications:read',
    status: 200,
    response: DeliveryStatsResponse,
    errors: [400, 404],
  })
  statsOf(@ChannelId() id: string, @Query() query: DeliveryStatsQueryDto): Promise<DeliveryStatsResponse> {
    return this.stats.of(id, query.window, ALERT_CHANNELS);
  }

  @Get('stats/series')
  @Route({
    permission: 'notifications:read',
    status: 200,
    response: DeliverySeriesResponse,
    errors: [400, 404],
  })
  series(@ChannelId() id: string, @Query() query: DeliverySeriesQueryDto): Promise<DeliverySeriesResponse> {
    return this.stats.series(id, query.window, ALERT_CHANNELS);
  }
}
