import { Controller, Delete, Get, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { Tagged } from '../common/http/tagged';
import { IfMatch, IfMatchHeader } from '../common/http/if-match';
import { Page } from '../common/http/page.dto';
import { ParseIdPipe } from '../common/validation/parse-id.pipe';
import { ValidBody } from '../common/validation/dto-validation.pipe';
import { NotificationCreateRules, NotificationPatchRules } from './notifications.validation';
import {
  CreateNotificationDto,
  NotificationListQueryDto,
  NotificationResponse,
  NotificationSummaryResponse,
  UpdateNotificationDto,
} from './dto/notification.dto';
import { NotificationsService } from './notifications.service';
import { notificationNotFound } from './notifications.errors';
import { Route } from '../common/http/route.decorator';

const NotificationId = (): ParameterDecorator =>
  Param('notification_id', new ParseIdPipe(notificationNotFound));

@ApiTags('notifications')
@ApiBearerAuth()
@Controller('notifications')
export class NotificationsController {
  constructor(private readonly notifications: NotificationsService) {}

  @Post()
  @Route({
    permission: 'notifications:write',
    status: 201,
    response: NotificationResponse,
    etag: true,
    body: CreateNotificationDto,
    errors: [409],
  })
  create(
    @ValidBody(NotificationCreateRules) body: CreateNotificationDto,
  ): Promise<Tagged<NotificationResponse>> {
    return this.notifications.create(body);
  }

  @Get()
  @Route({ permission: 'notifications:read', status: 200, response: NotificationResponse, list: true })
  list(@Query() query: NotificationListQueryDto): Promise<Page<NotificationResponse>> {
    return this.notifications.list(query);
  }

  // Before GET :notification_id, which would take `summary` for an id.
  @Get('summary')
  @Route({ permission: 'notifications:read', status: 200, response: NotificationSummaryResponse })
  summary(): Promise<NotificationSummaryResponse> {
    return this.notifications.summary();
  }

  @Get(':notification_id')
  @Route({
    permission: 'notifications:read',
    status: 200,
    response: NotificationResponse,
    etag: true,
    errors: [404],
  })
  get(@NotificationId() id: string): Promise<Tagged<NotificationResponse>> {
    return this.notifications.getTagged(id);
  }

  @Patch(':notification_id')
  @Route({
    permission: 'notifications:write',
    status: 200,
    response: NotificationResponse,
    etag: true,
    body: UpdateNotificationDto,
    ifMatch: true,
    errors: [404],
  })
  update(
    @NotificationId() id: string,
    @ValidBody(NotificationPatchRules) body: UpdateNotificationDto,
    @IfMatchHeader() ifMatch: IfMatch | null,
  ): Promise<Tagged<NotificationResponse>> {
    return this.notifications.update(id, body, { ifMatch });
  }

  @Delete(':notification_id')
  @Route({
    permission: 'notifications:write',
    status: 200,
    response: String,
    ifMatch: true,
    errors: [404, 409],
  })
  remove(@NotificationId() id: string, @IfMatchHeader() ifMatch: IfMatch | null): Promise<string> {
    return this.notifications.remove(id, { ifMatch });
  }
}
