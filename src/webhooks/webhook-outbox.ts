import { Injectable } from '@nestjs/common';
import { OnEvent } from '@nestjs/event-emitter';
import type { CommittingEvent } from '../database/transactions';
import {
  RELAYER_EVENTS,
  type RelayerEvent,
  type RelayerStateChangedEvent,
  type RelayerUpdatedEvent,
} from '../relayers/relayer-events';
import { DeliveriesRepository } from './deliveries.repository';
import { DeliveryDispatcher } from './delivery-dispatcher';
import { newDelivery } from './delivery-factory';

const IN_TRANSACTION = { async: true, promisify: true, suppressErrors: false } as const;

/** The transactional outbox (docs/reference/webhooks.md#2-delivery): each row commits with its change. */
@Injectable()
export class WebhookOutbox {
  constructor(
    private readonly deliveries: DeliveriesRepository,
    private readonly dispatcher: DeliveryDispatcher,
  ) {}

  @OnEvent(`${RELAYER_EVENTS.created}.committing`, IN_TRANSACTION)
  onCreated({ manager, event }: CommittingEvent<RelayerEvent>): Promise<void> {
    return this.write(manager, event, 'relayer_created', {
      payload_type: 'relayer_created',
      relayer: event.relayer,
    });
  }

  @OnEvent(`${RELAYER_EVENTS.updated}.committing`, IN_TRANSACTION)
  onUpdated({ manager, event }: CommittingEvent<RelayerUpdatedEvent>): Promise<void> {
    return this.write(manager, event, 'relayer_updated', {
      payload_type: 'relayer_updated',
      relayer: event.relayer,
      changed: event.changed,
    });
  }

  @OnEvent(`${RELAYER_EVENTS.deleted}.committing`, IN_TRANSACTION)
  onDeleted({ manager, event }: CommittingEvent<RelayerEvent>): Promise<void> {
    return this.write(manager, event, 'relayer_deleted', {
      payload_type: 'relayer_deleted',
      relayer: event.relayer,
    });
  }

  @OnEvent(`${RELAYER_EVENTS.stateChanged}.committing`, IN_TRANSACTION)
  onStateChanged({ manager, event }: CommittingEvent<RelayerStateChangedEvent>): Promise<void> {
    const payload =
      event.state === 'disabled'
        ? {
            payload_type: 'relayer_disabled',
            relayer: event.relayer,
            disable_reason: event.disableReason ?? null,
          }
        : { payload_type: 'relayer_enabled', relayer: event.relayer, retry_count: event.retryCount ?? 0 };
    return this.write(manager, event, 'relayer_state_update', payload);
  }

  @OnEvent('relayer.*')
  onCommitted(): void {
    this.dispatcher.wake();
  }

  private async write(
    manager: CommittingEvent<RelayerEvent>['manager'],
    { relayer }: RelayerEvent,
    event: string,
    payload: Record<string, unknown>,
  ): Promise<void> {
    if (relayer.notification_id === null) return;
    await this.deliveries.insert(manager, newDelivery(relayer.notification_id, event, relayer.id, payload));
  }
}
