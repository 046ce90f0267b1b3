import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsDefined, IsIn, IsOptional, ValidateIf } from 'class-validator';
import { PageQueryDto } from '../../common/http/page.dto';
import {
  IsListOf,
  IsOptionalNewId,
  RESOURCE_ID_PATTERN,
  RESOURCE_ID_RULE,
} from '../../common/validation/field-rules';
import { ALERT_CHANNEL_TYPES, type AlertChannelType } from '../../notifications';
import {
  MAX_SUBSCRIBED_RELAYERS,
  ANY_RELAYER,
  isWebhookEvent,
  WEBHOOK_EVENTS,
  type WebhookEvent,
} from '../../webhooks';

const TYPE_RULE = `type must be one of: ${ALERT_CHANNEL_TYPES.join(', ')}`;
export const CHANNEL_RELAYER_IDS_RULE = `relayer_ids must be an array of 1 to ${MAX_SUBSCRIBED_RELAYERS} relayer ids, ["*"], or null (every relayer)`;

const CONFIG_DESCRIPTION =
  'slack: {webhook_url}; pagerduty: {routing_key}; email: {to: [addresses]}. Secrets are masked in ' +
  'answers: a masked value sent back unchanged keeps the stored one';

/** `events` as a subscription's (docs/reference/webhooks.md#6-subscriptions); absent or null: every event. */
const IsChannelEvents = (): PropertyDecorator =>
  IsListOf({
    rule: 'events must be a non-empty array of event names, or null',
    item: (name, at) => (isWebhookEvent(name) ? null : `${at} must be one of: ${WEBHOOK_EVENTS.join(', ')}`),
  });

/** `relayer_ids`: ids (they need not exist yet) or `["*"]`; null is every relayer here. */
const IsChannelRelayerIds = (): PropertyDecorator =>
  IsListOf({
    // [] only from a key with relayer_ids (AlertChannelRules).
    min: 0,
    max: MAX_SUBSCRIBED_RELAYERS,
    rule: CHANNEL_RELAYER_IDS_RULE,
    item: (id, at, list) => {
      if (id === ANY_RELAYER) return list.length > 1 ? `${at}: "*" must be the only item` : null;
      return typeof id === 'string' && RESOURCE_ID_PATTERN.test(id)
        ? null
        : `${at} ${RESOURCE_ID_RULE}, or "*"`;
    },
  });

export class CreateAlertChannelDto {
  @IsOptionalNewId()
  id?: string | null;

  @ApiProperty({ enum: ALERT_CHANNEL_TYPES })
  @IsIn(ALERT_CHANNEL_TYPES, { message: TYPE_RULE })
  type: AlertChannelType;

  @ApiProperty({ type: 'object', additionalProperties: true, description: CONFIG_DESCRIPTION })
  @IsDefined({ message: 'config must be an object' })
  config: unknown;

  @ApiPropertyOptional({ type: [String], enum: WEBHOOK_EVENTS, nullable: true })
  @IsOptional()
  @IsChannelEvents()
  events?: WebhookEvent[] | null;

  @ApiPropertyOptional({ type: [String], nullable: true, maxItems: MAX_SUBSCRIBED_RELAYERS })
  @IsOptional()
  @IsChannelRelayerIds()
  relayer_ids?: string[] | null;
}

/** Absent keeps a field; `config` is replaced whole (its masked secrets kept); null events or relayer_ids: every one. */
export class UpdateAlertChannelDto {
  @ApiPropertyOptional({ type: 'object', additionalProperties: true, description: CONFIG_DESCRIPTION })
  @ValidateIf((dto: UpdateAlertChannelDto) => dto.config !== undefined)
  @IsDefined({ message: 'config must be an object' })
  config?: unknown;

  @ApiPropertyOptional({ type: [String], enum: WEBHOOK_EVENTS, nullable: true })
  @IsOptional()
  @IsChannelEvents()
  events?: WebhookEvent[] | null;

  @ApiPropertyOptional({ type: [String], nullable: true, maxItems: MAX_SUBSCRIBED_RELAYERS })
  @IsOptional()
  @IsChannelRelayerIds()
  relayer_ids?: string[] | null;
}

export class AlertChannelResponse {
  @ApiProperty()
  id: string;

  @ApiProperty({ enum: ALERT_CHANNEL_TYPES })
  type: AlertChannelType;

  @ApiProperty({ type: 'object', additionalProperties: true, description: CONFIG_DESCRIPTION })
  config: Record<string, unknown>;

  @ApiProperty({ type: [String], enum: WEBHOOK_EVENTS, nullable: true })
  events: WebhookEvent[] | null;

  @ApiProperty({ type: [String], nullable: true, description: 'null: every relayer' })
  relayer_ids: string[] | null;
}

export class AlertChannelListQueryDto extends PageQueryDto {}
