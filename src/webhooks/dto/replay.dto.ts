import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { IsRfc3339DateTime } from '../../common/validation/rfc3339';
import { WEBHOOK_EVENTS, type WebhookEvent } from '../webhook-events';

export const REPLAYED_STATUSES = ['failed', 'delivered'] as const;
export type ReplayedStatus = (typeof REPLAYED_STATUSES)[number];

/** POST /api/v1/notifications/{id}/deliveries/replay (docs/reference/webhooks.md#7-replay). */
export class ReplayDeliveriesDto {
  @ApiProperty({ enum: REPLAYED_STATUSES })
  @IsIn(REPLAYED_STATUSES, { message: `status must be one of: ${REPLAYED_STATUSES.join(', ')}` })
  status: ReplayedStatus;

  @ApiPropertyOptional({
    type: String,
    format: 'date-time',
    description: 'RFC 3339 date and time (offset required); deliveries created at or after it',
  })
  @IsOptional()
  @IsRfc3339DateTime('since must be an RFC 3339 date and time')
  since?: Date;

  @ApiPropertyOptional({
    type: String,
    format: 'date-time',
    description: 'RFC 3339 date and time (offset required); deliveries created before it',
  })
  @IsOptional()
  @IsRfc3339DateTime('until must be an RFC 3339 date and time')
  until?: Date;

  @ApiPropertyOptional({ enum: WEBHOOK_EVENTS })
  @IsOptional()
  @IsIn(WEBHOOK_EVENTS, { message: `event must be one of: ${WEBHOOK_EVENTS.join(', ')}` })
  event?: WebhookEvent;
}

export class ReplayResponse {
  @ApiProperty({ description: 'Deliveries queued again by this call (at most 10000)' })
  queued: number;

  @ApiProperty({ description: 'Deliveries that match and were left for another call' })
  remaining: number;

  @ApiProperty({ description: 'Deliveries that match but were replayed in the last hour: not queued' })
  skipped: number;
}
