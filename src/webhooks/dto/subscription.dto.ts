import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional } from 'class-validator';
import { IsListOf, RESOURCE_ID_PATTERN, RESOURCE_ID_RULE } from '../../common/validation/field-rules';
import { ANY_RELAYER } from '../subscription-relayer.entity';
import { isWebhookEvent, WEBHOOK_EVENTS, type WebhookEvent } from '../webhook-events';

/** docs/reference/webhooks.md#6-subscriptions */
export const MAX_SUBSCRIBED_RELAYERS = 1000;

export const RELAYER_IDS_RULE = `relayer_ids must be ["*"], an array of 1 to ${MAX_SUBSCRIBED_RELAYERS} relayer ids, or null`;

/** PUT .../subscription (docs/reference/webhooks.md#6-subscriptions); an absent field is null. */
export class PutSubscriptionDto {
  @ApiPropertyOptional({
    type: [String],
    enum: WEBHOOK_EVENTS,
    nullable: true,
    description: 'The events the target receives (notification_test always); null or absent: every event',
  })
  @IsOptional()
  @IsListOf({
    rule: 'events must be a non-empty array of event names, or null',
    item: (name, at) => (isWebhookEvent(name) ? null : `${at} must be one of: ${WEBHOOK_EVENTS.join(', ')}`),
  })
  events?: WebhookEvent[] | null;

  @ApiPropertyOptional({
    type: [String],
    nullable: true,
    maxItems: MAX_SUBSCRIBED_RELAYERS,
    example: ['*'],
    description:
      'The relayers the target hears of beyond those naming it as notification_id: ["*"] for every ' +
      `relayer, or up to ${MAX_SUBSCRIBED_RELAYERS} relayer ids (they need not exist yet); null or absent: none. ` +
      'A key with relayer_ids replaces only the ids inside its scope, [] or null for none of them',
  })
  @IsOptional()
  @IsListOf({
    // [] only from a key with relayer_ids (SubscriptionRules).
    min: 0,
    max: MAX_SUBSCRIBED_RELAYERS,
    rule: RELAYER_IDS_RULE,
    item: (id, at, list) => {
      if (id === ANY_RELAYER) return list.length > 1 ? `${at}: "*" must be the only item` : null;
      return typeof id === 'string' && RESOURCE_ID_PATTERN.test(id)
        ? null
        : `${at} ${RESOURCE_ID_RULE}, or "*"`;
    },
  })
  relayer_ids?: string[] | null;
}

export class SubscriptionResponse {
  @ApiProperty({ type: [String], enum: WEBHOOK_EVENTS, nullable: true })
  events: WebhookEvent[] | null;

  @ApiProperty({ type: [String], nullable: true })
  relayer_ids: string[] | null;
}
