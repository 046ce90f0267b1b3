import { Injectable } from '@nestjs/common';
import type { BodyRules, Checked, DtoCheck } from '../common/validation/dto-validation.pipe';
import { RESOURCE_ID_PATTERN, RESOURCE_ID_RULE } from '../common/validation/field-rules';
import { PutSubscriptionDto } from './dto/subscription.dto';
import { ANY_RELAYER } from './subscription-relayer.entity';
import { isWebhookEvent, WEBHOOK_EVENTS, type WebhookEvent } from './webhook-events';

/** docs/reference/webhooks.md#6-subscriptions */
export const MAX_SUBSCRIBED_RELAYERS = 1000;

/** A subscription as the service writes it: each list without repeats, or null. */
export interface Subscription {
  /** In the order of WEBHOOK_EVENTS. */
  readonly events: WebhookEvent[] | null;
  /** Sorted. */
  readonly relayerIds: string[] | null;
}

const EVENTS_RULE = 'events must be a non-empty array of event names, or null';
const RELAYERS_RULE = `relayer_ids must be ["*"], an array of 1 to ${MAX_SUBSCRIBED_RELAYERS} relayer ids, or null`;

function checkEvents(value: unknown, problems: string[]): WebhookEvent[] | null {
  if (value === undefined || value === null) return null;
  if (!Array.isArray(value) || value.length === 0) {
    problems.push(EVENTS_RULE);
    return null;
  }
  value.forEach((name: unknown, i) => {
    if (!isWebhookEvent(name)) problems.push(`events[${i}] must be one of: ${WEBHOOK_EVENTS.join(', ')}`);
  });
  return WEBHOOK_EVENTS.filter((name) => value.includes(name));
}

function checkRelayers(value: unknown, problems: string[]): string[] | null {
  if (value === undefined || value === null) return null;
  if (!Array.isArray(value) || value.length === 0 || value.length > MAX_SUBSCRIBED_RELAYERS) {
    problems.push(RELAYERS_RULE);
    return null;
  }
  value.forEach((id: unknown, i) => {
    if (id === ANY_RELAYER) {
      if (value.length > 1) problems.push(`relayer_ids[${i}]: "*" must be the only item`);
    } else if (typeof id !== 'string' || !RESOURCE_ID_PATTERN.test(id)) {
      problems.push(`relayer_ids[${i}] ${RESOURCE_ID_RULE}, or "*"`);
    }
  });
  return [...new Set(value as string[])].sort();
}

/** PUT .../subscription: the names and ids of each list (docs/reference/webhooks.md#6-subscriptions). */
@Injectable()
export class SubscriptionRules implements BodyRules<PutSubscriptionDto, Subscription> {
  readonly dto = PutSubscriptionDto;

  check({ value }: DtoCheck<PutSubscriptionDto>): Checked<Subscription> {
    const problems: string[] = [];
    const events = checkEvents(value.events, problems);
    const relayerIds = checkRelayers(value.relayer_ids, problems);
    return { value: { events, relayerIds }, problems };
  }
}
