import { OnEvent } from '@nestjs/event-emitter';
import { CHANGE_RECORDED, type Change, type CommittingEvent } from './transactions';

/**
 * What `Tx.publish` and `Tx.recordChange` hand the subscribers in the transaction, by event name.
 * A feature adds its events where it names them (relayer-events.ts):
 * `declare module '../database/on-committing' { interface CommittingEvents { 'widget.created': WidgetEvent } }`.
 */
export interface CommittingEvents {
  [CHANGE_RECORDED]: Change;
}

/** A subscriber of `<name>.committing`: it takes the event as published, with the transaction's manager. */
type CommittingSubscriber<K extends keyof CommittingEvents> = (
  event: CommittingEvent<CommittingEvents[K]>,
) => unknown;

/**
 * `@OnEvent('<name>.committing')` with the event's type checked against the method's parameter. The
 * method runs in the change's transaction, before commit; if it throws or rejects, the change is
 * rolled back, whatever `@OnEvent` options say (SafeSubscribers,
 * docs/reference/extension-events.md#2-subscriber-failures), so it takes none.
 */
export function OnCommitting<K extends keyof CommittingEvents>(name: K) {
  return <M extends CommittingSubscriber<K>>(
    target: object,
    method: string | symbol,
    descriptor: TypedPropertyDescriptor<M>,
  ): void => {
    OnEvent(`${name}.committing`)(target, method, descriptor);
  };
}
