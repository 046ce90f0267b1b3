import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsDefined, IsIn, IsOptional, IsString, MaxLength, MinLength, ValidateIf } from 'class-validator';
import { PageQueryDto } from '../../common/http/page.dto';
import {
  IsOptionalNewId,
  IsOverlapSeconds,
  IsUrlText,
  MAX_OVERLAP_SECONDS,
  MAX_URL_LENGTH,
} from '../../common/validation/field-rules';
import { NOTIFICATION_TYPES, type NotificationType } from '../notification.entity';

const MIN_SIGNING_KEY_LENGTH = 32;
const MAX_SIGNING_KEY_LENGTH = 1024;
const SIGNING_KEY_RULE = `signing_key must be a string of ${MIN_SIGNING_KEY_LENGTH} to ${MAX_SIGNING_KEY_LENGTH} characters`;
const TYPE_RULE = `type must be one of: ${NOTIFICATION_TYPES.join(', ')}`;

const IsSigningKey = (): PropertyDecorator => applyDecorators(IsOptional(), IsSigningKeyText());

const IsSigningKeyText = (): PropertyDecorator =>
  applyDecorators(
    IsString({ message: SIGNING_KEY_RULE }),
    MinLength(MIN_SIGNING_KEY_LENGTH, { message: SIGNING_KEY_RULE }),
    MaxLength(MAX_SIGNING_KEY_LENGTH, { message: SIGNING_KEY_RULE }),
  );

export class CreateNotificationDto {
  @IsOptionalNewId()
  id?: string | null;

  @ApiPropertyOptional({ enum: NOTIFICATION_TYPES, default: 'webhook' })
  @IsOptional()
  @IsIn(NOTIFICATION_TYPES, { message: TYPE_RULE })
  type?: NotificationType | null;

  @ApiProperty({ example: 'https://hooks.example.com/relayer-events', maxLength: MAX_URL_LENGTH })
  @IsUrlText()
  url: string;

  @ApiPropertyOptional({
    type: String,
    description: 'Secures webhook deliveries; never returned',
    minLength: MIN_SIGNING_KEY_LENGTH,
    writeOnly: true,
  })
  @IsSigningKey()
  signing_key?: string | null;
}

/** Absent keeps a field, and so does null for type and signing_key; `signing_key: ""` removes the key. */
export class UpdateNotificationDto {
  @ApiPropertyOptional({ enum: NOTIFICATION_TYPES, nullable: true })
  @IsOptional()
  @IsIn(NOTIFICATION_TYPES, { message: TYPE_RULE })
  type?: NotificationType | null;

  @ApiPropertyOptional({
    maxLength: MAX_URL_LENGTH,
    description: 'Absent: unchanged. null is refused: a webhook needs a URL.',
  })
  @ValidateIf((dto: UpdateNotificationDto) => dto.url !== undefined)
  @IsDefined({ message: 'url must not be null' })
  @IsUrlText()
  url?: string;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    writeOnly: true,
    description: 'Absent or null: unchanged. Empty string: removed. Otherwise at least 32 characters.',
  })
  @IsSigningKey()
  @ValidateIf((dto: UpdateNotificationDto) => dto.signing_key !== '')
  signing_key?: string | null;
}

export class NotificationResponse {
  @ApiProperty()
  id: string;

  @ApiProperty({ enum: NOTIFICATION_TYPES })
  type: NotificationType;

  @ApiProperty()
  url: string;

  @ApiProperty({ description: 'Whether a signing key is set; the key itself is never returned' })
  has_signing_key: boolean;
}

/** The `failing` filter as query text: no implicit conversion (a bare `"false"` would be true). */
export const FAILING_FILTERS = ['true', 'false'] as const;
const FAILING_RULE = `failing must be one of: ${FAILING_FILTERS.join(', ')}`;

/** `page`, `per_page` and the filter of GET /api/v1/notifications (docs/reference/notifications.md#13-read-and-list). */
export class NotificationListQueryDto extends PageQueryDto {
  @ApiPropertyOptional({
    enum: FAILING_FILTERS,
    description:
      'true: only the failing targets, paused or under 90 % delivered of what ended in the last hour ' +
      '(success_rate of GET .../stats?window=1h); false: only the others',
  })
  @IsOptional()
  @IsIn(FAILING_FILTERS, { message: FAILING_RULE })
  failing?: (typeof FAILING_FILTERS)[number];
}

/**
 * GET /api/v1/notifications/summary (docs/reference/webhooks.md#97-failing-targets-and-the-summary):
 * the targets the key may see, counted.
 */
export class NotificationSummaryResponse {
  @ApiProperty({ description: 'Every target the key may see' })
  total: number;

  @ApiProperty({ description: 'Not paused' })
  running: number;

  @ApiProperty({ description: 'Paused, by hand or by itself' })
  paused: number;

  @ApiProperty({
    description:
      'Paused, or running and under 90 % delivered of what ended in the last hour (failing=true of the list)',
  })
  failing: number;
}

export class RotateSigningKeyDto {
  @ApiProperty({
    minLength: MIN_SIGNING_KEY_LENGTH,
    writeOnly: true,
    description: 'The new key; never returned',
  })
  @IsDefined({ message: SIGNING_KEY_RULE })
  @IsSigningKeyText()
  signing_key: string;

  @ApiProperty({
    minimum: 0,
    maximum: MAX_OVERLAP_SECONDS,
    description: 'How long the previous key still signs',
  })
  @IsOverlapSeconds()
  overlap_seconds: number;
}

export class NotificationStateResponse {
  @ApiProperty()
  paused: boolean;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Why: by hand, or the last error of an auto-pause',
  })
  paused_reason: string | null;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  paused_at: string | null;

  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: "Until when deliveries carry the previous key's signature too; null without an overlap",
  })
  signing_key_overlap_until: string | null;
}
