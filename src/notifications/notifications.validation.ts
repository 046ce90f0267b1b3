import { Inject, Injectable, type Type } from '@nestjs/common';
import type { ClassConstructor } from 'class-transformer';
import { idRequiredInScope, RelayerScope } from '../common/auth/relayer-scope';
import { checkUrl } from '../common/security/url-policy';
import type { BodyRules, Checked, DtoCheck } from '../common/validation/dto-validation.pipe';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/app-config.module';
import { CreateNotificationDto, RotateSigningKeyDto, UpdateNotificationDto } from './dto/notification.dto';
import { PutSigningSchemeDto } from './dto/signing-scheme.dto';

/**
 * The webhook URL policy on a url the DTO accepted (docs/reference/hardening.md); a create by a scoped
 * key names its id (docs/reference/keys-and-audit.md#3-relayer-scope).
 */
function notificationRules<T extends { url?: string; id?: string | null }>(
  dto: ClassConstructor<T>,
  creates: boolean,
): Type<BodyRules<T, T>> {
  @Injectable()
  class NotificationRules implements BodyRules<T, T> {
    readonly dto = dto;
    constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

    check({ value, failed }: DtoCheck<T>): Checked<T> {
      const reason =
        failed.has('url') || value.url === undefined
          ? null
          : checkUrl(value.url, this.config.webhookUrlPolicy);
      const problems = reason === null ? [] : [`url ${reason}`];
      // A generated id would fall outside the key's targets.
      if (creates && value.id == null && RelayerScope.current() !== null) {
        problems.push(idRequiredInScope('notifications'));
      }
      return { value, problems };
    }
  }
  return NotificationRules;
}

export const NotificationCreateRules = notificationRules(CreateNotificationDto, true);
export const NotificationPatchRules = notificationRules(UpdateNotificationDto, false);

/** The shape is all there is to check (docs/reference/webhooks.md#11-rotating-the-signing-key). */
@Injectable()
export class RotateSigningKeyRules implements BodyRules<RotateSigningKeyDto, RotateSigningKeyDto> {
  readonly dto = RotateSigningKeyDto;

  check({ value }: DtoCheck<RotateSigningKeyDto>): Checked<RotateSigningKeyDto> {
    return { value, problems: [] };
  }
}

/** The shape is all there is to check here; the key it needs is checked with the row (docs/reference/webhooks.md#13-standard-webhooks). */
@Injectable()
export class SigningSchemeRules implements BodyRules<PutSigningSchemeDto, PutSigningSchemeDto> {
  readonly dto = PutSigningSchemeDto;

  check({ value }: DtoCheck<PutSigningSchemeDto>): Checked<PutSigningSchemeDto> {
    return { value, problems: [] };
  }
}
