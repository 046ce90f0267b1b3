import { Injectable } from '@nestjs/common';
import type { BodyRules, Checked, DtoCheck } from '../common/validation/dto-validation.pipe';
import { PutSubscriptionDto } from './dto/subscription.dto';
import { WEBHOOK_EVENTS, type WebhookEvent } from './webhook-events';

/** A subscription as the service writes it: each list without repeats, or null. */
export interface Subscription {
  /** In the order of WEBHOOK_EVENTS. */
  readonly events: WebhookEvent[] | null;
  /** Sorted. */
  readonly relayerIds: string[] | null;
}

/** PUT .../subscription: the DTO checked the lists (the value is used only when they passed); here they lose their repeats. */
@Injectable()
export class SubscriptionRules implements BodyRules<PutSubscriptionDto, Subscription> {
  readonly dto = PutSubscriptionDto;

  check({ value: { events, relayer_ids } }: DtoCheck<PutSubscriptionDto>): Checked<Subscription> {
    return {
      value: {
        events: Array.isArray(events) ? WEBHOOK_EVENTS.filter((name) => events.includes(name)) : null,
        relayerIds: Array.isArray(relayer_ids) ? [...new Set(relayer_ids)].sort() : null,
      },
      problems: [],
    };
  }
}
