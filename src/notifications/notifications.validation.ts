import { Inject, Injectable } from '@nestjs/common';
import type { ClassConstructor } from 'class-transformer';
import { checkUrl } from '../common/security/url-policy';
import type { DtoCheck } from '../common/validation/validate-dto';
import type { BodyRules } from '../common/validation/validation.pipe';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { CreateNotificationDto, UpdateNotificationDto } from './dto/notification.dto';

/** The DTO, then the webhook URL policy on a url the DTO accepted (docs/reference/hardening.md). */
@Injectable()
abstract class NotificationRules<T extends { url?: string }> implements BodyRules<T, T> {
  abstract readonly dto: ClassConstructor<T>;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  check({ value, failed }: DtoCheck<T>, problems: string[]): T {
    if (typeof value.url === 'string' && !failed.has('url')) {
      const reason = checkUrl(value.url, this.config.webhookUrlPolicy);
      if (reason !== null) problems.push(`url ${reason}`);
    }
    return value;
  }
}

@Injectable()
export class NotificationCreateRules extends NotificationRules<CreateNotificationDto> {
  readonly dto = CreateNotificationDto;
}

@Injectable()
export class NotificationPatchRules extends NotificationRules<UpdateNotificationDto> {
  readonly dto = UpdateNotificationDto;
}
