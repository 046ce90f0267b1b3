import type {
  OpenAPIObject,
  ParameterObject,
  PathItemObject,
  ReferenceObject,
  SchemaObject,
} from '@nestjs/swagger';
import { PATCHABLE_FIELDS } from '../relayers/relayer-events';
import { WEBHOOK_EVENTS, type WebhookEvent } from './webhook-events';

type Schema = SchemaObject | ReferenceObject;

/** The relayer of an event: what GET /api/v1/relayers/{id} answers (docs/reference/webhooks.md#13-the-relayer-in-an-event). */
const RELAYER: Schema = { $ref: '#/components/schemas/RelayerResponse' };

const DECIMAL: Schema = { type: 'string', pattern: '^\\d+$' };

/** A payload `{payload_type, ...fields}`, every field present (WebhookOutbox writes them all). */
function payload(payloadType: string, fields: Record<string, Schema>): SchemaObject {
  const properties = { payload_type: { type: 'string', enum: [payloadType] }, ...fields };
  return { type: 'object', required: Object.keys(properties), properties };
}

const relayerPayload = (payloadType: string, more: Record<string, Schema> = {}): SchemaObject =>
  payload(payloadType, { relayer: RELAYER, ...more });

const balancePayload = (payloadType: string): SchemaObject =>
  relayerPayload(payloadType, {
    balance: { ...DECIMAL, description: 'What the check read, in the base unit' },
    threshold: { ...DECIMAL, description: 'The threshold it was compared with, in the base unit' },
  });

/**
 * Each event's payload, as WebhookOutbox and the test event (DeliveryDispatcher.sendTest) build it
 * (docs/reference/webhooks.md#12-the-events): keyed by every name of WEBHOOK_EVENTS, so an event added
 * there does not compile without its entry here.
 */
const PAYLOADS: Record<WebhookEvent, { summary: string; payload: SchemaObject }> = {
  relayer_created: { summary: 'A relayer was created', payload: relayerPayload('relayer_created') },
  relayer_updated: {
    summary: 'A PATCH changed a relayer',
    payload: relayerPayload('relayer_updated', {
      changed: {
        type: 'array',
        description: 'The fields the PATCH changed, sorted',
        items: { type: 'string', enum: [...PATCHABLE_FIELDS] },
      },
    }),
  },
  relayer_deleted: {
    summary: 'A relayer was deleted (relayer: its last state)',
    payload: relayerPayload('relayer_deleted'),
  },
  relayer_state_update: {
    summary: 'A health check disabled the relayer, or enabled it again',
    payload: {
      oneOf: [
        relayerPayload('relayer_disabled', {
          disable_reason: {
            type: ['string', 'null'],
            description: 'The details of the verdict that disabled it',
          },
        }),
        relayerPayload('relayer_enabled', {
          retry_count: {
            type: 'integer',
            minimum: 0,
            description: 'The failed checks before the one that passed',
          },
        }),
      ],
    },
  },
  notification_test: {
    summary: 'POST /api/v1/notifications/{id}/test',
    payload: payload('notification_test', { notification_id: { type: 'string' } }),
  },
  relayer_low_balance: {
    summary: "The relayer's balance fell below its alert threshold",
    payload: balancePayload('relayer_low_balance'),
  },
  relayer_balance_restored: {
    summary: "The relayer's balance rose back to its alert threshold or above",
    payload: balancePayload('relayer_balance_restored'),
  },
};

/** The headers of every delivery (docs/reference/webhooks.md#14-headers and what follows). */
const HEADERS: ParameterObject[] = [
  ['X-Event-Id', true, "The body's id: the same on every attempt and for every target"],
  ['X-Event-Type', true, 'The event'],
  ['User-Agent', true, 'relayer-service/<version>'],
  ['X-Signature', false, 'With a signing key: base64 HMAC-SHA256 of the body'],
  ['X-Signature-256', false, 'With a signing key: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">'],
  ['webhook-id', false, 'With the standard signing scheme: the event id'],
  ['webhook-timestamp', false, 'With the standard signing scheme: unix seconds'],
  ['webhook-signature', false, 'With the standard signing scheme: v1,<base64> (two during a rotation)'],
].map(([name, required, description]) => ({
  name: name as string,
  in: 'header',
  required: required as boolean,
  description: description as string,
  schema: { type: 'string' },
}));

function webhook(event: WebhookEvent): PathItemObject {
  const { summary, payload } = PAYLOADS[event];
  const body: SchemaObject = {
    type: 'object',
    required: ['id', 'event', 'payload', 'timestamp'],
    properties: {
      id: { type: 'string', format: 'uuid' },
      event: { type: 'string', enum: [event] },
      payload,
      timestamp: { type: 'string', format: 'date-time' },
    },
  };
  return {
    post: {
      operationId: `webhook_${event}`,
      tags: ['webhooks'],
      summary,
      description:
        'Sent to the notification targets that hear of it (docs/reference/webhooks.md#1-events); ' +
        'a 2xx acknowledges it, anything else is retried or fails.',
      parameters: HEADERS,
      requestBody: { required: true, content: { 'application/json': { schema: body } } },
      responses: { '2XX': { description: 'Delivered' } },
    },
  };
}

/** The event catalogue: each event's body under `webhooks` (docs/reference/webhooks.md#16-in-the-openapi-document). */
export function documentWebhooks(document: OpenAPIObject): OpenAPIObject {
  document.webhooks = Object.fromEntries(WEBHOOK_EVENTS.map((event) => [event, webhook(event)]));
  return document;
}
