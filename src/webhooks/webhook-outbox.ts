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
import { newDelivery } from './delivery-factory';

const STATE_UPDATE = 'relayer_state_update';

/** The transactional outbox (docs/reference/webhooks.md#2-delivery): each row commits with its change. */
@Injectable()
export class WebhookOutbox {
  constructor(
    private readonly deliveries: DeliveriesRepository,
    private readonly dispatcher: DeliveryDispatcher,
  ) {}

  @OnCommitting(RELAYER_EVENTS.created)
  onCreated({ manager, event }: CommittingEvent<RelayerEvent>): Promise<void> {
    return this.write(manager, event, 'relayer_created');
  }

  @OnCommitting(RELAYER_EVENTS.updated)
  onUpdated({ manager, event }: CommittingEvent<RelayerUpdatedEvent>): Promise<void> {
    return this.write(manager, event, 'relayer_updated', { changed: event.changed });
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

  /** Only a change that wrote a delivery wakes the dispatcher (DeliveryDispatcher.wake). */
  @OnEvent('relayer.*')
  onCommitted({ relayer }: RelayerEvent): void {
    if (relayer.notification_id !== null) this.dispatcher.wake(relayer.notification_id);
  }

  /** The payload is `{ payload_type, relayer, ...more }`, in that order. */
  private async write(
    manager: CommittingEvent<RelayerEvent>['manager'],
    { relayer }: RelayerEvent,
    payloadType: string,
    more: Record<string, unknown> = {},
    event = payloadType,
  ): Promise<void> {
    if (relayer.notification_id === null) return;
    const payload = { payload_type: payloadType, relayer, ...more };
    await this.deliveries.insert(manager, newDelivery(relayer.notification_id, event, relayer.id, payload));
  }
}

function balanceFields({ balance, threshold }: RelayerBalanceEvent): Record<string, string> {
  return { balance, threshold };
}
