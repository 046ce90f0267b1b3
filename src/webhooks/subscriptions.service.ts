import { Injectable } from '@nestjs/common';
import { RelayerScope } from '../common/auth/relayer-scope';
import { ForbiddenError } from '../common/errors/domain-errors';
import { SubResourceWrites } from '../database/sub-resource-writes';
import { Transactions } from '../database/transactions';
import { notificationNotFound } from '../notifications';
import { SubscriptionResponse } from './dto/subscription.dto';
import { FanOutLimit } from './fan-out-limit';
import { ANY_RELAYER } from './subscription-relayer.entity';
import type { Subscription } from './subscription.validation';
import { SubscriptionsRepository, type StoredSubscription } from './subscriptions.repository';

function toSubscriptionResponse(
  row: Pick<StoredSubscription, 'events' | 'relayerIds'>,
): SubscriptionResponse {
  return { events: row.events, relayer_ids: row.relayerIds };
}

/**
 * The subscription as the request's key may see it (docs/reference/keys-and-audit.md#3-relayer-scope):
 * a key limited to some relayers is shown only the ids inside its scope (`*` as is).
 */
function toVisibleResponse(row: Pick<StoredSubscription, 'events' | 'relayerIds'>): SubscriptionResponse {
  const scope = RelayerScope.current();
  const ids = row.relayerIds;
  if (scope === null || ids === null || ids.includes(ANY_RELAYER)) return toSubscriptionResponse(row);
  return { events: row.events, relayer_ids: ids.filter((id) => scope.covers(id)) };
}

const sameList = (a: readonly string[] | null, b: readonly string[] | null): boolean =>
  a === null || b === null ? a === b : a.length === b.length && a.every((item, i) => item === b[i]);

/**
 * docs/reference/webhooks.md#6-subscriptions: a sub-resource of the target, written through
 * SubResourceWrites and audited as a change of the notification (`{ subscription }`).
 */
@Injectable()
export class SubscriptionsService {
  private readonly writes: SubResourceWrites<StoredSubscription, { subscription: SubscriptionResponse }>;

  constructor(
    private readonly subscriptions: SubscriptionsRepository,
    private readonly limit: FanOutLimit,
    transactions: Transactions,
  ) {
    this.writes = new SubResourceWrites(transactions, {
      name: 'notification',
      notFound: () => notificationNotFound(),
      read: (id, tx) => this.subscriptions.findOfTarget(id, tx),
      toResponse: (row) => ({ subscription: toSubscriptionResponse(row) }),
    });
  }

  async get(notificationId: string): Promise<SubscriptionResponse> {
    const found = await this.subscriptions.findOfTarget(notificationId);
    if (!found) throw notificationNotFound();
    return toVisibleResponse(found);
  }

  /**
   * Replaces the subscription; one that changes nothing is answered without a write or a record. A key
   * limited to some relayers subscribes the target only to relayers inside its scope: `*` or an id
   * outside it is 403 before anything is read (the subset rule of its keys, RelayerScope.contains);
   * null (the target's own relayers) names none. One that would make a relayer heard by more than
   * WEBHOOK_MAX_TARGETS_PER_RELAYER targets is a 409 naming it, nothing written (FanOutLimit).
   */
  async put(notificationId: string, next: Subscription): Promise<SubscriptionResponse> {
    // As a scope, `["*"]` is the empty prefix (every relayer): inside no key's scope, whose prefixes
    // are never empty.
    if (
      next.relayerIds !== null &&
      !RelayerScope.contains(RelayerScope.current(), RelayerScope.of(next.relayerIds))
    ) {
      throw new ForbiddenError();
    }
    const written = await this.writes.write(
      notificationId,
      (current) =>
        sameList(current.events, next.events) && sameList(current.relayerIds, next.relayerIds)
          ? null
          : { ...next, exists: true },
      async (current, value, tx) => {
        await this.subscriptions.write(notificationId, value, current.exists, new Date(), tx);
        await this.limit.assertSubscription(notificationId, current.relayerIds, value.relayerIds, tx);
      },
    );
    return written.subscription;
  }
}
