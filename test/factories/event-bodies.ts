// Event bodies as the webhook outbox writes them (src/webhooks/webhook-outbox.ts), for the tests of
// the alert channels: `{id, event, payload: {payload_type, relayer, ...more}, timestamp}`.

export const EVENT_ID = '3f8e2c1a-5b7d-4e9f-a1c2-0d3e4f5a6b7c';
export const OCCURRED_AT = '2026-11-23T09:15:30.123Z';

/** A relayer as GET /api/v1/relayers/{id} answers it, with the caller's fields laid over it. */
export function relayerResponse(over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: 'rl-payments-1',
    name: 'payments-1',
    network: 'mainnet',
    network_type: 'evm',
    address: '0x00000000000000000000000000000000000000a1',
    signer_id: 'signer-1',
    notification_id: null,
    paused: false,
    system_disabled: false,
    disabled_reason: null,
    custom_rpc_urls: null,
    policies: null,
    created_at: '2026-11-01T00:00:00.000Z',
    updated_at: '2026-11-23T09:15:30.000Z',
    ...over,
  };
}

/** The `event` a payload_type is sent under (docs/reference/webhooks.md#12-the-events). */
const EVENT_OF: Record<string, string> = {
  relayer_disabled: 'relayer_state_update',
  relayer_enabled: 'relayer_state_update',
};

/** The body of a relayer's event: `more` after `relayer` in the payload, as the outbox writes it. */
export function relayerEventBody(
  payloadType: string,
  more: Record<string, unknown> = {},
  relayer: Record<string, unknown> = relayerResponse(),
): string {
  return eventBody(EVENT_OF[payloadType] ?? payloadType, { payload_type: payloadType, relayer, ...more });
}

export function eventBody(event: string, payload: Record<string, unknown>): string {
  return JSON.stringify({ id: EVENT_ID, event, payload, timestamp: OCCURRED_AT });
}
