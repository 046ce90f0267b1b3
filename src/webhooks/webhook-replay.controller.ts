import { Controller, Param, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { Route } from '../common/http/route.decorator';
import { ValidBody } from '../common/validation/dto-validation.pipe';
import { ParseIdPipe } from '../common/validation/parse-id.pipe';
import { notificationNotFound } from '../notifications';
import { DeliveryReplaysService } from './delivery-replays.service';
import { ReplayDeliveriesDto, ReplayResponse } from './dto/replay.dto';
import { ReplayRules, type ReplayRequest } from './replay.validation';

/** docs/reference/webhooks.md#7-replay */
@ApiTags('notifications')
@ApiBearerAuth()
@Controller('notifications/:notification_id/deliveries/replay')
export class WebhookReplayController {
  constructor(private readonly replays: DeliveryReplaysService) {}

  // As the retry of one delivery: a replay re-sends relayer data (docs/reference/hardening.md).
  @Post()
  @Route({
    permission: ['notifications:write', 'relayers:read'],
    status: 202,
    response: ReplayResponse,
    body: ReplayDeliveriesDto,
    errors: [404, 409],
  })
  replay(
    @Param('notification_id', new ParseIdPipe(notificationNotFound)) id: string,
    @ValidBody(ReplayRules) body: ReplayRequest,
  ): Promise<ReplayResponse> {
    return this.replays.replay(id, body);
  }
}
