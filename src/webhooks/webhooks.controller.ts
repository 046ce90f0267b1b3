import { Controller, Get, Param, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { Page } from '../common/http/page.dto';
import { ParseIdPipe } from '../common/validation/parse-id.pipe';
import { notificationNotFound } from '../notifications';
import { DeliveryQueryDto, DeliveryResponse, TestDeliveryResponse } from './dto/delivery.dto';
import { deliveryNotFound } from './webhooks.errors';
import { WebhooksService } from './webhooks.service';
import { Route } from '../common/http/route.decorator';

const NotificationId = (): ParameterDecorator =>
  Param('notification_id', new ParseIdPipe(notificationNotFound));

@ApiTags('notifications')
@ApiBearerAuth()
@Controller('notifications/:notification_id')
export class WebhooksController {
  constructor(private readonly webhooks: WebhooksService) {}

  @Get('deliveries')
  @Route({
    permission: 'notifications:read',
    status: 200,
    response: DeliveryResponse,
    list: true,
    errors: [404],
  })
  deliveries(
    @NotificationId() id: string,
    @Query() query: DeliveryQueryDto,
  ): Promise<Page<DeliveryResponse>> {
    return this.webhooks.list(id, query);
  }

  // A retry re-sends relayer data to a target the caller may point anywhere (docs/reference/hardening.md).
  @Post('deliveries/:delivery_id/retry')
  @Route({
    permission: ['notifications:write', 'relayers:read'],
    status: 202,
    response: DeliveryResponse,
    noBody: true,
    errors: [404],
  })
  retry(
    @NotificationId() id: string,
    @Param('delivery_id', new ParseIdPipe(deliveryNotFound)) deliveryId: string,
  ): Promise<DeliveryResponse> {
    return this.webhooks.retry(id, deliveryId);
  }

  @Post('test')
  @Route({
    permission: 'notifications:write',
    status: 200,
    response: TestDeliveryResponse,
    noBody: true,
    errors: [404],
  })
  test(@NotificationId() id: string): Promise<TestDeliveryResponse> {
    return this.webhooks.test(id);
  }
}
