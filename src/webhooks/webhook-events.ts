/**
 * Every `event` a notification target may receive (docs/reference/webhooks.md#12-the-events and the
 * balance alerts): what a subscription's `events` and a replay's `event` may name.
 */
export const WEBHOOK_EVENTS = [
  'relayer_created',
  'relayer_updated',
  'relayer_deleted',
  'relayer_state_update',
  'notification_test',
  'relayer_low_balance',
  'relayer_balance_restored',
] as const;

export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

/** Sent whatever a target's subscription says (docs/reference/webhooks.md#6-subscriptions). */
export const ALWAYS_SENT: readonly WebhookEvent[] = ['notification_test'];

export function isWebhookEvent(value: unknown): value is WebhookEvent {
  return typeof value === 'string' && (WEBHOOK_EVENTS as readonly string[]).includes(value);
}
