import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { CursorPageQueryDto } from '../../common/http/cursor-page-query.dto';
import { IsResourceId, RESOURCE_ID_PATTERN } from '../../common/validation/field-rules';
import { DELIVERY_STATUSES, type DeliveryStatus } from '../delivery.entity';

/** A page of deliveries of one status: a relayer's (docs/reference/webhooks.md#312-the-deliveries-of-one-relayer). */
export class DeliveryStatusQueryDto extends CursorPageQueryDto {
  @ApiPropertyOptional({ enum: DELIVERY_STATUSES })
  @IsOptional()
  @IsIn(DELIVERY_STATUSES, { message: `status must be one of: ${DELIVERY_STATUSES.join(', ')}` })
  status?: DeliveryStatus;
}

/** A target's deliveries (docs/reference/webhooks.md#31-listing-deliveries): also by relayer. */
export class DeliveryQueryDto extends DeliveryStatusQueryDto {
  @ApiPropertyOptional({
    pattern: RESOURCE_ID_PATTERN.source,
    description: 'Only the deliveries about this relayer (its id exactly, case included)',
  })
  @IsOptional()
  @IsResourceId()
  relayer_id?: string;
}

export class DeliveryResponse {
  @ApiProperty()
  id: string;

  @ApiProperty({ description: 'The X-Event-Id of every attempt' })
  event_id: string;

  @ApiProperty({ example: 'relayer_updated' })
  event: string;

  @ApiProperty({ nullable: true, type: String })
  relayer_id: string | null;

  @ApiProperty({ enum: DELIVERY_STATUSES })
  status: DeliveryStatus;

  @ApiProperty()
  attempts: number;

  @ApiProperty({ nullable: true, type: Number })
  last_status_code: number | null;

  @ApiProperty({ nullable: true, type: String })
  last_error: string | null;

  @ApiProperty({ nullable: true, type: String, description: 'When it is attempted next (pending only)' })
  next_attempt_at: string | null;

  @ApiProperty()
  created_at: string;

  @ApiProperty({ nullable: true, type: String })
  delivered_at: string | null;
}

/** An item of a relayer's deliveries, to whichever target: a target's item and that target. */
export class RelayerDeliveryResponse extends DeliveryResponse {
  @ApiProperty({ description: 'The target (notification) it is sent to' })
  notification_id: string;
}

export class TestDeliveryResponse {
  @ApiProperty()
  delivered: boolean;

  @ApiProperty({ nullable: true, type: Number })
  status_code: number | null;

  @ApiProperty({ nullable: true, type: String })
  error: string | null;

  @ApiProperty()
  duration_ms: number;
}
