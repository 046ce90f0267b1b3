import { Controller, Get, Param, Post, Put } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { Route } from '../common/http/route.decorator';
import { ParseIdPipe } from '../common/validation/parse-id.pipe';
import { ValidBody } from '../common/validation/dto-validation.pipe';
import {
  notificationNotFound,
  NotificationStateResponse,
  NotificationStateService,
  PutSigningSchemeDto,
  RotateSigningKeyDto,
  RotateSigningKeyRules,
  SigningSchemeResponse,
  SigningSchemeRules,
} from '../notifications';

const NotificationId = (): ParameterDecorator =>
  Param('notification_id', new ParseIdPipe(notificationNotFound));

/** docs/reference/webhooks.md#10-pausing-a-target, #rotating-the-signing-key and #13-standard-webhooks */
@ApiTags('notifications')
@ApiBearerAuth()
@Controller('notifications/:notification_id')
export class NotificationStateController {
  constructor(private readonly state: NotificationStateService) {}

  @Get('state')
  @Route({
    permission: 'notifications:read',
    status: 200,
    response: NotificationStateResponse,
    errors: [404],
  })
  get(@NotificationId() id: string): Promise<NotificationStateResponse> {
    return this.state.get(id);
  }

  @Post('pause')
  @Route({
    permission: 'notifications:write',
    status: 200,
    response: NotificationStateResponse,
    noBody: true,
    errors: [404],
  })
  pause(@NotificationId() id: string): Promise<NotificationStateResponse> {
    return this.state.pause(id);
  }

  @Post('resume')
  @Route({
    permission: 'notifications:write',
    status: 200,
    response: NotificationStateResponse,
    noBody: true,
    errors: [404],
  })
  resume(@NotificationId() id: string): Promise<NotificationStateResponse> {
    return this.state.resume(id);
  }

  @Post('signing-key')
  @Route({
    permission: 'notifications:write',
    status: 200,
    response: NotificationStateResponse,
    body: RotateSigningKeyDto,
    errors: [404],
  })
  rotateSigningKey(
    @NotificationId() id: string,
    @ValidBody(RotateSigningKeyRules) body: RotateSigningKeyDto,
  ): Promise<NotificationStateResponse> {
    return this.state.rotateSigningKey(id, body);
  }

  @Get('signing-scheme')
  @Route({ permission: 'notifications:read', status: 200, response: SigningSchemeResponse, errors: [404] })
  getSigningScheme(@NotificationId() id: string): Promise<SigningSchemeResponse> {
    return this.state.getSigningScheme(id);
  }

  @Put('signing-scheme')
  @Route({
    permission: 'notifications:write',
    status: 200,
    response: SigningSchemeResponse,
    body: PutSigningSchemeDto,
    errors: [404],
  })
  putSigningScheme(
    @NotificationId() id: string,
    @ValidBody(SigningSchemeRules) body: PutSigningSchemeDto,
  ): Promise<SigningSchemeResponse> {
    return this.state.putSigningScheme(id, body);
  }
}
