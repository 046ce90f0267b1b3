import { Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { NoBody } from '../common/http/no-body.decorator';
import { ApiEnvelope, ApiErrors } from '../common/http/openapi';
import { Page } from '../common/http/page';
import { ParseIdPipe } from '../common/validation/parse-id.pipe';
import { NotificationId } from '../notifications/notifications.controller';
import { DeliveryQueryDto, DeliveryResponse, TestDeliveryResponse } from './dto/delivery.dto';
import { deliveryNotFound, WebhooksService } from './webhooks.service';
import { RequirePermission } from '../common/auth/require-permission.decorator';

@ApiTags('notifications')
@ApiBearerAuth()
@Controller('notifications/:notification_id')
export class WebhooksController {
  constructor(private readonly webhooks: WebhooksService) {}

  @Get('deliveries')
  @RequirePermission('notifications:read')
  @HttpCode(200)
  @ApiEnvelope(DeliveryResponse, 200, { list: true })
  @ApiErrors(400, 401, 404, 429, 500, 503)
  deliveries(
    @NotificationId() id: string,
    @Query() query: DeliveryQueryDto,
  ): Promise<Page<DeliveryResponse>> {
    return this.webhooks.list(id, query);
  }

  // A retry re-sends relayer data to a target a notifications:write key may point anywhere: reading
  // it that way must need the right to read relayers (docs/reference/hardening.md).
  @Post('deliveries/:delivery_id/retry')
  @RequirePermission(['notifications:write', 'relayers:read'])
  @HttpCode(202)
  @NoBody()
  @ApiEnvelope(DeliveryResponse, 202)
  @ApiErrors(401, 404, 429, 500, 503)
  retry(
    @NotificationId() id: string,
    @Param('delivery_id', new ParseIdPipe(deliveryNotFound)) deliveryId: string,
  ): Promise<DeliveryResponse> {
    return this.webhooks.retry(id, deliveryId);
  }

  @Post('test')
  @RequirePermission('notifications:write')
  @HttpCode(200)
  @NoBody()
  @ApiEnvelope(TestDeliveryResponse, 200)
  @ApiErrors(401, 404, 429, 500, 503)
  test(@NotificationId() id: string): Promise<TestDeliveryResponse> {
    return this.webhooks.test(id);
  }
}
