import { Injectable } from '@nestjs/common';
import { RelayerScope } from '../common/auth/relayer-scope';
import { ConflictError, ForbiddenError } from '../common/errors/domain-errors';
import { SubResourceWrites } from '../database/sub-resource-writes';
import { Transactions } from '../database/transactions';
import { notificationNotFound } from '../notifications';
import { MAX_SUBSCRIBED_RELAYERS, SubscriptionResponse } from './dto/subscription.dto';
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
function toVisibleResponse({ events, relayer_ids: ids }: SubscriptionResponse): SubscriptionResponse {
  const scope = RelayerScope.current();
  if (scope === null || ids === null || ids.includes(ANY_RELAYER)) return { events, relayer_ids: ids };
  return { events, relayer_ids: ids.filter((id) => scope.covers(id)) };
}

const isEveryRelayer = (ids: readonly string[] | null): boolean => ids?.includes(ANY_RELAYER) ?? false;

/**
 * The relayer ids a PUT stores (docs/reference/keys-and-audit.md#35-balance-alerts-and-webhook-operations):
 * without a scope, those sent. A key with a scope replaces only the stored ids inside it, those outside
 * kept (a target its teams share: each team's part is its own); null or [] sent are none of its ids, and
 * none left at all is null. A stored `["*"]` is the whole target's rule: only `["*"]` sent keeps it, and
 * anything else is 403 (as setting it is, where it is not stored).
 */
function relayerIdsToStore(
  scope: RelayerScope | null,
  stored: string[] | null,
  sent: string[] | null,
): string[] | null {
  if (scope === null) return sent;
  if (isEveryRelayer(stored) || isEveryRelayer(sent)) {
    if (isEveryRelayer(stored) && isEveryRelayer(sent)) return stored;
    throw new ForbiddenError();
  }
  const kept = (stored ?? []).filter((id) => !scope.covers(id));
  if (kept.length + (sent?.length ?? 0) > MAX_SUBSCRIBED_RELAYERS) {
    throw new ConflictError(
      `The subscription would name ${kept.length + (sent?.length ?? 0)} relayer ids, ${kept.length} of them ` +
        `outside this key's scope: at most ${MAX_SUBSCRIBED_RELAYERS}`,
    );
  }
  const ids = [...kept, ...(sent ?? [])].sort();
  return ids.length === 0 ? null : ids;
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
    return toVisibleResponse(toSubscriptionResponse(found));
  }

  /**
   * Replaces the subscription (relayerIdsToStore: a key limited to some relayers, only its part of the
   * ids) and answers it as its GET does; one that changes nothing is answered without a write or a
   * record, which holds the whole subscription stored. Such a key sends only ids inside its scope: an
   * id outside it is 403 before anything is read (the subset rule of its keys, RelayerScope.contains),
   * `*` once the stored ids are read. One that would make a relayer heard by more than
   * WEBHOOK_MAX_TARGETS_PER_RELAYER targets is a 409 naming it, nothing written (FanOutLimit).
   */
  async put(notificationId: string, next: Subscription): Promise<SubscriptionResponse> {
    const scope = RelayerScope.current();
    if (
      next.relayerIds !== null &&
      !isEveryRelayer(next.relayerIds) &&
      !RelayerScope.contains(scope, RelayerScope.of(next.relayerIds))
    ) {
      throw new ForbiddenError();
    }
    const written = await this.writes.write(
      notificationId,
      (current) => {
        const relayerIds = relayerIdsToStore(scope, current.relayerIds, next.relayerIds);
        return sameList(current.events, next.events) && sameList(current.relayerIds, relayerIds)
          ? null
          : { events: next.events, relayerIds, exists: true };
      },
      async (current, value, tx) => {
        await this.subscriptions.write(notificationId, value, current.exists, new Date(), tx);
        await this.limit.assertSubscription(notificationId, current.relayerIds, value.relayerIds, tx);
      },
    );
    return toVisibleResponse(written.subscription);
  }
}
