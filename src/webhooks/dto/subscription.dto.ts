import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Allow } from 'class-validator';
import { WEBHOOK_EVENTS, type WebhookEvent } from '../webhook-events';

/** Checked by SubscriptionRules (subscription.validation.ts); an absent field is null. */
export class PutSubscriptionDto {
  @ApiPropertyOptional({
    type: [String],
    enum: WEBHOOK_EVENTS,
    nullable: true,
    description: 'The events the target receives (notification_test always); null or absent: every event',
  })
  @Allow()
  events?: unknown;

  @ApiPropertyOptional({
    type: [String],
    nullable: true,
    maxItems: 1000,
    example: ['*'],
    description:
      'The relayers the target hears of beyond those naming it as notification_id: ["*"] for every ' +
      'relayer, or up to 1000 relayer ids (they need not exist yet); null or absent: none',
  })
  @Allow()
  relayer_ids?: unknown;
}

export class SubscriptionResponse {
  @ApiProperty({ type: [String], enum: WEBHOOK_EVENTS, nullable: true })
  events: WebhookEvent[] | null;

  @ApiProperty({ type: [String], nullable: true })
  relayer_ids: string[] | null;
}
