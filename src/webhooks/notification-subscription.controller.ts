import { Controller, Get, Param, Put } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { Route } from '../common/http/route.decorator';
import { ValidBody } from '../common/validation/dto-validation.pipe';
import { ParseIdPipe } from '../common/validation/parse-id.pipe';
import { notificationNotFound } from '../notifications';
import { PutSubscriptionDto, SubscriptionResponse } from './dto/subscription.dto';
import { SubscriptionRules, type Subscription } from './subscription.validation';
import { SubscriptionsService } from './subscriptions.service';

const NotificationId = (): ParameterDecorator =>
  Param('notification_id', new ParseIdPipe(notificationNotFound));

/** docs/reference/webhooks.md#6-subscriptions */
@ApiTags('notifications')
@ApiBearerAuth()
@Controller('notifications/:notification_id/subscription')
export class NotificationSubscriptionController {
  constructor(private readonly subscriptions: SubscriptionsService) {}

  @Get()
  @Route({ permission: 'notifications:read', status: 200, response: SubscriptionResponse, errors: [404] })
  get(@NotificationId() id: string): Promise<SubscriptionResponse> {
    return this.subscriptions.get(id);
  }

  @Put()
  @Route({
    permission: 'notifications:write',
    status: 200,
    response: SubscriptionResponse,
    body: PutSubscriptionDto,
    errors: [404, 409],
  })
  put(
    @NotificationId() id: string,
    @ValidBody(SubscriptionRules) body: Subscription,
  ): Promise<SubscriptionResponse> {
    return this.subscriptions.put(id, body);
  }
}
