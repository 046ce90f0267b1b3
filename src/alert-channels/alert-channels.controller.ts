import { Controller, Delete, Get, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { IfMatch, IfMatchHeader } from '../common/http/if-match';
import { Page } from '../common/http/page.dto';
import { Route } from '../common/http/route.decorator';
import { Tagged } from '../common/http/tagged';
import { ValidBody } from '../common/validation/dto-validation.pipe';
import { ParseIdPipe } from '../common/validation/parse-id.pipe';
import { alertChannelNotFound } from '../notifications';
import { AlertChannelsService } from './alert-channels.service';
import {
  AlertChannelCreateRules,
  AlertChannelPatchRules,
  type CheckedCreate,
} from './alert-channels.validation';
import {
  AlertChannelListQueryDto,
  AlertChannelResponse,
  CreateAlertChannelDto,
  UpdateAlertChannelDto,
} from './dto/alert-channel.dto';

export const ChannelId = (): ParameterDecorator => Param('channel_id', new ParseIdPipe(alertChannelNotFound));

/** docs/reference/alert-channels.md#1-the-resource: under the notifications' permissions. */
@ApiTags('alert-channels')
@ApiBearerAuth()
@Controller('alert-channels')
export class AlertChannelsController {
  constructor(private readonly channels: AlertChannelsService) {}

  @Post()
  @Route({
    permission: 'notifications:write',
    status: 201,
    response: AlertChannelResponse,
    etag: true,
    body: CreateAlertChannelDto,
    errors: [403, 409],
  })
  create(@ValidBody(AlertChannelCreateRules) body: CheckedCreate): Promise<Tagged<AlertChannelResponse>> {
    return this.channels.create(body);
  }

  @Get()
  @Route({ permission: 'notifications:read', status: 200, response: AlertChannelResponse, list: true })
  list(@Query() query: AlertChannelListQueryDto): Promise<Page<AlertChannelResponse>> {
    return this.channels.list(query);
  }

  @Get(':channel_id')
  @Route({
    permission: 'notifications:read',
    status: 200,
    response: AlertChannelResponse,
    etag: true,
    errors: [404],
  })
  get(@ChannelId() id: string): Promise<Tagged<AlertChannelResponse>> {
    return this.channels.getTagged(id);
  }

  @Patch(':channel_id')
  @Route({
    permission: 'notifications:write',
    status: 200,
    response: AlertChannelResponse,
    etag: true,
    body: UpdateAlertChannelDto,
    ifMatch: true,
    errors: [403, 404, 409],
  })
  update(
    @ChannelId() id: string,
    @ValidBody(AlertChannelPatchRules) body: UpdateAlertChannelDto,
    @IfMatchHeader() ifMatch: IfMatch | null,
  ): Promise<Tagged<AlertChannelResponse>> {
    return this.channels.update(id, body, { ifMatch });
  }

  @Delete(':channel_id')
  @Route({
    permission: 'notifications:write',
    status: 200,
    response: String,
    ifMatch: true,
    errors: [403, 404],
  })
  remove(@ChannelId() id: string, @IfMatchHeader() ifMatch: IfMatch | null): Promise<string> {
    return this.channels.remove(id, { ifMatch });
  }
}
