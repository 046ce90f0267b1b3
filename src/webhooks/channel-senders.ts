import { Injectable } from '@nestjs/common';
import type { DeliveryTarget } from '../notifications';
import type { AttemptResult } from './webhook-sender';

/** Sends one delivery of a target that is no webhook; resolves to the attempt's result, never rejects. */
export interface ChannelSender {
  send(targetId: string, target: DeliveryTarget, body: string): Promise<AttemptResult>;
}

/**
 * docs/reference/alert-channels.md#7-one-machinery: the dispatcher sends a webhook itself and any
 * other type of target through the sender registered for it (the alert channels register theirs), so
 * that the webhooks' machinery knows no channel.
 */
@Injectable()
export class ChannelSenders {
  private readonly senders = new Map<string, ChannelSender>();

  register(types: readonly string[], sender: ChannelSender): void {
    for (const type of types) this.senders.set(type, sender);
  }

  send(targetId: string, target: DeliveryTarget, body: string): Promise<AttemptResult> {
    const sender = this.senders.get(target.type);
    if (sender) return sender.send(targetId, target, body);
    const error = `no sender for ${target.type} targets`;
    return Promise.resolve({ delivered: false, retryable: false, statusCode: null, error, durationMs: 0 });
  }
}
