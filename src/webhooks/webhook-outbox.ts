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
  async onCreated(tx: CommittingEvent<RelayerEvent>): Promise<void> {
    const { id, notification_id: ownTarget } = tx.event.relayer;
    if (ownTarget !== null) await this.limit.assertOwnTarget(id, ownTarget, tx);
    await this.write(tx, 'relayer_created');
  }

  /** So does a PATCH that gives it another. */
  @OnCommitting(RELAYER_EVENTS.updated)
  async onUpdated(tx: CommittingEvent<RelayerUpdatedEvent>): Promise<void> {
    const { id, notification_id: ownTarget } = tx.event.relayer;
    if (ownTarget !== null && tx.event.changed.includes('notification_id')) {
      await this.limit.assertOwnTarget(id, ownTarget, tx);
    }
    await this.write(tx, 'relayer_updated', { changed: tx.event.changed });
  }

  @OnCommitting(RELAYER_EVENTS.deleted)
  onDeleted(tx: CommittingEvent<RelayerEvent>): Promise<void> {
    return this.write(tx, 'relayer_deleted');
  }

  @OnCommitting(RELAYER_EVENTS.stateChanged)
  onStateChanged(tx: CommittingEvent<RelayerStateChangedEvent>): Promise<void> {
    const disabled = tx.event.state === 'disabled';
    const more = disabled
      ? { disable_reason: tx.event.disableReason ?? null }
      : { retry_count: tx.event.retryCount ?? 0 };
    return this.write(tx, disabled ? 'relayer_disabled' : 'relayer_enabled', more, STATE_UPDATE);
  }

  /** docs/reference/balance-alerts.md#3-events: once per crossing, in the transaction that flipped it. */
  @OnCommitting(RELAYER_EVENTS.balanceLow)
  onBalanceLow(tx: CommittingEvent<RelayerBalanceEvent>): Promise<void> {
    return this.write(tx, 'relayer_low_balance', balanceFields(tx.event));
  }

  @OnCommitting(RELAYER_EVENTS.balanceRestored)
  onBalanceRestored(tx: CommittingEvent<RelayerBalanceEvent>): Promise<void> {
    return this.write(tx, 'relayer_balance_restored', balanceFields(tx.event));
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
   * reference the event's one body. `tx`: the change's `.committing` event, in its transaction.
   */
  private async write(
    tx: CommittingEvent<RelayerEvent>,
    payloadType: string,
    more: Record<string, unknown> = {},
    event = payloadType,
  ): Promise<void> {
    const { relayer } = tx.event;
    const targets = await this.subscriptions.targetsOf(relayer.id, relayer.notification_id, tx);
    const wanted = [...targets]
      .filter(([, events]) => wants(events, event))
      .map(([notificationId]) => notificationId);
    if (wanted.length > 0) {
      // One body for every target (docs/reference/webhooks.md#21-a-transactional-outbox).
      const body = newEvent(event, { payload_type: payloadType, relayer, ...more });
      await this.events.insert(body, tx);
      await this.deliveries.insertAll(
        wanted.map((notificationId) => newDelivery(notificationId, body, event, relayer.id)),
        tx,
      );
    }
    this.written.set(tx.event, wanted);
  }
}

function wants(events: readonly WebhookEvent[] | null, event: string): boolean {
  return events === null || [...ALWAYS_SENT, ...events].some((name) => name === event);
}

function balanceFields({ balance, threshold }: RelayerBalanceEvent): Record<string, string> {
  return { balance, threshold };
}
