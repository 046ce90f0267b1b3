import { Injectable } from '@nestjs/common';
import { OnEvent } from '@nestjs/event-emitter';
import { OnCommitting } from '../database/on-committing';
import type { CommittingEvent } from '../database/transactions';
import {
  RELAYER_EVENTS,
  type RelayerBalanceEvent,
  type RelayerEvent,
  type RelayerStateChangedEvent,
  type RelayerUpdatedEvent,
} from '../relayers/relayer-events';
import { DeliveriesRepository } from './deliveries.repository';
import { DeliveryDispatcher } from './delivery-dispatcher';
import { FanOutLimit } from './fan-out-limit';
import { newDelivery, newEvent } from './delivery-factory';
import { SubscriptionsRepository } from './subscriptions.repository';
import { ALWAYS_SENT, type WebhookEvent } from './webhook-events';
import { WebhookEventsRepository } from './webhook-events.repository';

const STATE_UPDATE = 'relayer_state_update';

/** The transactional outbox (docs/reference/webhooks.md#2-delivery): each row commits with its change. */
@Injectable()
export class WebhookOutbox {
  /** The targets each event wrote a delivery for, until it commits (a rolled back one is collected). */
  private readonly written = new WeakMap<object, readonly string[]>();

  constructor(
    private readonly deliveries: DeliveriesRepository,
    private readonly dispatcher: DeliveryDispatcher,
    private readonly subscriptions: SubscriptionsRepository,
    private readonly events: WebhookEventsRepository,
    private readonly limit: FanOutLimit,
  ) {}

  /** A relayer created with a target of its own adds a hearer: within WEBHOOK_MAX_TARGETS_PER_RELAYER (FanOutLimit). */
  @OnCommitting(RELAYER_EVENTS.created)
  async onCreated({ manager, event }: CommittingEvent<RelayerEvent>): Promise<void> {
    const { id, notification_id: ownTarget } = event.relayer;
    if (ownTarget !== null) await this.limit.assertOwnTarget(manager, id, ownTarget);
    await this.write(manager, event, 'relayer_created');
  }

  /** So does a PATCH that gives it another. */
  @OnCommitting(RELAYER_EVENTS.updated)
  async onUpdated({ manager, event }: CommittingEvent<RelayerUpdatedEvent>): Promise<void> {
    const { id, notification_id: ownTarget } = event.relayer;
    if (ownTarget !== null && event.changed.includes('notification_id')) {
      await this.limit.assertOwnTarget(manager, id, ownTarget);
    }
    await this.write(manager, event, 'relayer_updated', { changed: event.changed });
  }

  @OnCommitting(RELAYER_EVENTS.deleted)
  onDeleted({ manager, event }: CommittingEvent<RelayerEvent>): Promise<void> {
    return this.write(manager, event, 'relayer_deleted');
  }

  @OnCommitting(RELAYER_EVENTS.stateChanged)
  onStateChanged({ manager, event }: CommittingEvent<RelayerStateChangedEvent>): Promise<void> {
    const disabled = event.state === 'disabled';
    const more = disabled
      ? { disable_reason: event.disableReason ?? null }
      : { retry_count: event.retryCount ?? 0 };
    return this.write(manager, event, disabled ? 'relayer_disabled' : 'relayer_enabled', more, STATE_UPDATE);
  }

  /** docs/reference/balance-alerts.md#3-events: once per crossing, in the transaction that flipped it. */
  @OnCommitting(RELAYER_EVENTS.balanceLow)
  onBalanceLow({ manager, event }: CommittingEvent<RelayerBalanceEvent>): Promise<void> {
    return this.write(manager, event, 'relayer_low_balance', balanceFields(event));
  }

  @OnCommitting(RELAYER_EVENTS.balanceRestored)
  onBalanceRestored({ manager, event }: CommittingEvent<RelayerBalanceEvent>): Promise<void> {
    return this.write(manager, event, 'relayer_balance_restored', balanceFields(event));
  }

  /** Only a change that wrote a delivery wakes the dispatcher, for each target it wrote one for (DeliveryDispatcher.wake). */
  @OnEvent('relayer.*')
  onCommitted(event: RelayerEvent): void {
    for (const target of this.written.get(event) ?? []) this.dispatcher.wake(target);
    this.written.delete(event);
  }

  /**
   * The payload is `{ payload_type, relayer, ...more }`, in that order. One delivery for each target
   * that hears of the relayer (docs/reference/webhooks.md#6-subscriptions): its own, and those
   * subscribed to it or to every relayer, each once, unless the target's subscription leaves the
   * event out. Each is a row of the target's outbox, in commit order with its other events, and all
   * reference the event's one body.
   */
  private async write(
    manager: CommittingEvent<RelayerEvent>['manager'],
    change: RelayerEvent,
    payloadType: string,
    more: Record<string, unknown> = {},
    event = payloadType,
  ): Promise<void> {
    const { relayer } = change;
    const targets = await this.subscriptions.targetsOf(manager, relayer.id, relayer.notification_id);
    const wanted = [...targets]
      .filter(([, events]) => wants(events, event))
      .map(([notificationId]) => notificationId);
    if (wanted.length > 0) {
      // One body for every target (docs/reference/webhooks.md#21-a-transactional-outbox).
      const body = newEvent(event, { payload_type: payloadType, relayer, ...more });
      await this.events.insert(manager, body);
      await this.deliveries.insertAll(
        manager,
        wanted.map((notificationId) => newDelivery(notificationId, body, event, relayer.id)),
      );
    }
    this.written.set(change, wanted);
  }
}

function wants(events: readonly WebhookEvent[] | null, event: string): boolean {
  return events === null || [...ALWAYS_SENT, ...events].some((name) => name === event);
}

function balanceFields({ balance, threshold }: RelayerBalanceEvent): Record<string, string> {
  return { balance, threshold };
}
