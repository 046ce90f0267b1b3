import { Inject, Injectable, type Type } from '@nestjs/common';
import type { ClassConstructor } from 'class-transformer';
import { checkUrl } from '../common/security/url-policy';
import type { BodyRules, Checked, DtoCheck } from '../common/validation/dto-validation.pipe';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/app-config.module';
import { CreateNotificationDto, RotateSigningKeyDto, UpdateNotificationDto } from './dto/notification.dto';

/** The webhook URL policy on a url the DTO accepted (docs/reference/hardening.md). */
function notificationRules<T extends { url?: string }>(dto: ClassConstructor<T>): Type<BodyRules<T, T>> {
  @Injectable()
  class NotificationRules implements BodyRules<T, T> {
    readonly dto = dto;
    constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

    check({ value, failed }: DtoCheck<T>): Checked<T> {
      const reason =
        failed.has('url') || value.url === undefined
          ? null
          : checkUrl(value.url, this.config.webhookUrlPolicy);
      return { value, problems: reason === null ? [] : [`url ${reason}`] };
    }
  }
  return NotificationRules;
}

export const NotificationCreateRules = notificationRules(CreateNotificationDto);
export const NotificationPatchRules = notificationRules(UpdateNotificationDto);

/** The shape is all there is to check (docs/reference/webhooks.md#11-rotating-the-signing-key). */
@Injectable()
export class RotateSigningKeyRules implements BodyRules<RotateSigningKeyDto, RotateSigningKeyDto> {
  readonly dto = RotateSigningKeyDto;

  check({ value }: DtoCheck<RotateSigningKeyDto>): Checked<RotateSigningKeyDto> {
    return { value, problems: [] };
  }
}
