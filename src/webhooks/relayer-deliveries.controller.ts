import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { Page } from '../common/http/page.dto';
import { Route } from '../common/http/route.decorator';
import { ParseIdPipe } from '../common/validation/parse-id.pipe';
import { relayerNotFound } from '../relayers';
import { DeliveryStatusQueryDto, RelayerDeliveryResponse } from './dto/delivery.dto';
import { WebhooksService } from './webhooks.service';

/** docs/reference/webhooks.md#312-the-deliveries-of-one-relayer: a relayer's deliveries, to every target. */
@ApiTags('relayers')
@ApiBearerAuth()
@Controller('relayers/:relayer_id')
export class RelayerDeliveriesController {
  constructor(private readonly webhooks: WebhooksService) {}

  @Get('deliveries')
  @Route({
    permission: 'notifications:read',
    status: 200,
    response: RelayerDeliveryResponse,
    list: true,
    errors: [404],
  })
  deliveries(
    @Param('relayer_id', new ParseIdPipe(relayerNotFound)) id: string,
    @Query() query: DeliveryStatusQueryDto,
  ): Promise<Page<RelayerDeliveryResponse>> {
    return this.webhooks.listOfRelayer(id, query);
  }
}
