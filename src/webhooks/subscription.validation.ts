import { Injectable } from '@nestjs/common';
import { RelayerScope } from '../common/auth/relayer-scope';
import type { BodyRules, Checked, DtoCheck } from '../common/validation/dto-validation.pipe';
import { PutSubscriptionDto, RELAYER_IDS_RULE } from './dto/subscription.dto';
import { WEBHOOK_EVENTS, type WebhookEvent } from './webhook-events';

/** A subscription as the service writes it: each list without repeats, or null. */
export interface Subscription {
  /** In the order of WEBHOOK_EVENTS. */
  readonly events: WebhookEvent[] | null;
  /** Sorted. */
  readonly relayerIds: string[] | null;
}

/**
 * PUT .../subscription: the DTO checked the lists (the value is used only when they passed); here they
 * lose their repeats. `relayer_ids: []` is "none of the ids in my scope" from a key with relayer_ids
 * (SubscriptionsService.put), and refused from any other key, for which null says none.
 */
@Injectable()
export class SubscriptionRules implements BodyRules<PutSubscriptionDto, Subscription> {
  readonly dto = PutSubscriptionDto;

  check({ value: { events, relayer_ids } }: DtoCheck<PutSubscriptionDto>): Checked<Subscription> {
    const empty = Array.isArray(relayer_ids) && relayer_ids.length === 0;
    return {
      value: {
        events: Array.isArray(events) ? WEBHOOK_EVENTS.filter((name) => events.includes(name)) : null,
        relayerIds: Array.isArray(relayer_ids) ? [...new Set(relayer_ids)].sort() : null,
      },
      problems: empty && RelayerScope.current() === null ? [RELAYER_IDS_RULE] : [],
    };
  }
}
