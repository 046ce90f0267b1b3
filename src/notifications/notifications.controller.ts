import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiTags } from '@nestjs/swagger';
import { IfMatch, IfMatchHeader, Tagged } from '../common/http/etag';
import { ApiEnvelope, ApiErrors, ApiIfMatch, ApiJsonBody } from '../common/http/openapi';
import { Page, PageQueryDto } from '../common/http/page';
import { ParseIdPipe } from '../common/validation/parse-id.pipe';
import { CheckedBodyPipe } from '../common/validation/validation.pipe';
import type { Checked } from '../common/validation/validate-dto';
import { CreateNotificationDto, NotificationResponse, UpdateNotificationDto } from './dto/notification.dto';
import { notificationNotFound, NotificationsService } from './notifications.service';
import { RequirePermission } from '../common/auth/require-permission.decorator';

/** The `notification_id` path parameter; an id that cannot exist is a 404 at once. */
export const NotificationId = (): ParameterDecorator =>
  Param('notification_id', new ParseIdPipe(notificationNotFound));

@ApiTags('notifications')
@ApiBearerAuth()
@Controller('notifications')
export class NotificationsController {
  constructor(private readonly notifications: NotificationsService) {}

  @Post()
  @RequirePermission('notifications:write')
  @ApiJsonBody()
  @ApiBody({ type: CreateNotificationDto })
  @HttpCode(201)
  @ApiEnvelope(NotificationResponse, 201, { etag: true })
  @ApiErrors(400, 401, 409, 413, 415, 429, 500, 503)
  create(
    @Body(new CheckedBodyPipe(CreateNotificationDto)) body: Checked<CreateNotificationDto>,
  ): Promise<Tagged<NotificationResponse>> {
    return this.notifications.create(body);
  }

  @Get()
  @RequirePermission('notifications:read')
  @HttpCode(200)
  @ApiEnvelope(NotificationResponse, 200, { list: true })
  @ApiErrors(400, 401, 429, 500, 503)
  list(@Query() query: PageQueryDto): Promise<Page<NotificationResponse>> {
    return this.notifications.list(query);
  }

  @Get(':notification_id')
  @RequirePermission('notifications:read')
  @HttpCode(200)
  @ApiEnvelope(NotificationResponse, 200, { etag: true })
  @ApiErrors(401, 404, 429, 500, 503)
  get(@NotificationId() id: string): Promise<Tagged<NotificationResponse>> {
    return this.notifications.getTagged(id);
  }

  @Patch(':notification_id')
  @RequirePermission('notifications:write')
  @ApiJsonBody()
  @ApiBody({ type: UpdateNotificationDto })
  @HttpCode(200)
  @ApiEnvelope(NotificationResponse, 200, { etag: true })
  @ApiIfMatch()
  @ApiErrors(400, 401, 404, 412, 413, 415, 429, 500, 503)
  update(
    @NotificationId() id: string,
    @Body(new CheckedBodyPipe(UpdateNotificationDto)) body: Checked<UpdateNotificationDto>,
    @IfMatchHeader() ifMatch: IfMatch | null,
  ): Promise<Tagged<NotificationResponse>> {
    return this.notifications.update(id, body, { ifMatch });
  }

  @Delete(':notification_id')
  @RequirePermission('notifications:write')
  @HttpCode(200)
  @ApiEnvelope(String, 200)
  @ApiIfMatch()
  @ApiErrors(401, 404, 409, 412, 429, 500, 503)
  remove(@NotificationId() id: string, @IfMatchHeader() ifMatch: IfMatch | null): Promise<string> {
    return this.notifications.remove(id, { ifMatch });
  }
}
