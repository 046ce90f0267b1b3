import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { Route } from '../common/http/route.decorator';
import { ParseIdPipe } from '../common/validation/parse-id.pipe';
import { notificationNotFound } from '../notifications';
import { DeliveryStatsService } from './delivery-stats.service';
import {
  DeliverySeriesQueryDto,
  DeliverySeriesResponse,
  DeliveryStatsQueryDto,
  DeliveryStatsResponse,
} from './dto/delivery-stats.dto';

const NotificationId = (): ParameterDecorator =>
  Param('notification_id', new ParseIdPipe(notificationNotFound));

/** docs/reference/webhooks.md#9-stats. */
@ApiTags('notifications')
@ApiBearerAuth()
@Controller('notifications/:notification_id')
export class DeliveryStatsController {
  constructor(private readonly stats: DeliveryStatsService) {}

  @Get('stats')
  @Route({
    permission: 'notifications:read',
    status: 200,
    response: DeliveryStatsResponse,
    errors: [400, 404],
  })
  of(@NotificationId() id: string, @Query() query: DeliveryStatsQueryDto): Promise<DeliveryStatsResponse> {
    return this.stats.of(id, query.window);
  }

  /** docs/reference/webhooks.md#95-the-hourly-series. */
  @Get('stats/series')
  @Route({
    permission: 'notifications:read',
    status: 200,
    response: DeliverySeriesResponse,
    errors: [400, 404],
  })
  series(
    @NotificationId() id: string,
    @Query() query: DeliverySeriesQueryDto,
  ): Promise<DeliverySeriesResponse> {
    return this.stats.series(id, query.window);
  }
}
