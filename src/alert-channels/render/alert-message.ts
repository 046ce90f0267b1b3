import { nativeAmount } from './native-amount';
import { oneLine } from './text-limits';

export type AlertSeverity = 'critical' | 'error' | 'warning' | 'info';

/** What a channel needs to know of a relayer's network to show amounts. */
export interface NativeUnit {
  readonly symbol: string;
  readonly decimals: number;
}

export interface RenderContext {
  /** PUBLIC_URL without a trailing slash, or null: then no link. */
  readonly publicUrl: string | null;
  /** The channel the message goes to (the test message names it). */
  readonly channelId: string;
  /** The native unit of a relayer's network (`network_type`, `network` of the payload's relayer). */
  unitOf(networkType: string, network: string): NativeUnit;
}

export interface AlertField {
  readonly label: string;
  readonly value: string;
}

export interface AlertIncident {
  readonly action: 'trigger' | 'resolve';
  readonly dedupKey: string;
}

/** One event as people read it, whatever the channel (docs/reference/webhooks.md#1-events for the bodies). */
export interface AlertMessage {
  /** The payload_type: relayer_low_balance, relayer_disabled, notification_test, ... */
  readonly event: string;
  /** The body's id. */
  readonly eventId: string;
  /** The body's timestamp. */
  readonly occurredAt: string;
  /** One line: `payments-1 on mainnet is below its alert: 0.04 ETH < 0.05 ETH`. */
  readonly title: string;
  /** Plain text for people: the title, then a line per field. */
  readonly text: string;
  /** Relayer, Network, Address, Balance, Alert below, Reason, ...: each value on one line. */
  readonly fields: ReadonlyArray<AlertField>;
  readonly severity: AlertSeverity;
  /** PagerDuty: what this event does to an incident, or null when it concerns none. */
  readonly incident: AlertIncident | null;
  readonly relayerId: string | null;
  /** The relayer's network (`mainnet`), or null for a message about no relayer. */
  readonly network: string | null;
  /** The console page of the event (the relayer's), or null without publicUrl. */
  readonly link: string | null;
}

type Json = Readonly<Record<string, unknown>>;

/** What a message says of the relayer: the fields of the payload's `relayer` it reads. */
interface Relayer {
  readonly id: string;
  /** The name, or the id when the name is empty. */
  readonly reference: string;
  /** The network's name, empty when the body has none. */
  readonly network: string;
  /** `<reference> on <network>`, what a title names. */
  readonly on: string;
  readonly networkType: string;
  readonly fields: AlertField[];
}

/** What one payload_type's template decides; renderAlert adds what every message has. */
interface Draft {
  readonly title: string;
  readonly fields: AlertField[];
  readonly severity: AlertSeverity;
  readonly incident: AlertIncident | null;
  /** The console page after `/console/`, e.g. `#/relayers/r-1`. */
  readonly page: string;
}

/**
 * The message of one delivery's event body (`{id, event, payload: {payload_type, ...}, timestamp}`),
 * one template per payload_type and a generic one for a type it does not know. The body is the
 * service's own; one that is not a JSON object is a bug and throws, without quoting it.
 */
export function renderAlert(body: string, context: RenderContext): AlertMessage {
  const envelope = objectOf(parseBody(body));
  const payload = objectOf(envelope.payload);
  const eventId = textOf(envelope.id);
  const event = textOf(payload.payload_type) || textOf(envelope.event);
  const relayer = relayerOf(payload.relayer);
  const draft = draftOf(event, eventId, payload, relayer, context);
  const publicUrl = context.publicUrl?.replace(/\/+$/, '') ?? null;
  return {
    event,
    eventId,
    occurredAt: textOf(envelope.timestamp),
    title: draft.title,
    text: [draft.title, '', ...draft.fields.map(({ label, value }) => `${label}: ${value}`)].join('\n'),
    fields: draft.fields,
    severity: draft.severity,
    incident: draft.incident,
    relayerId: relayer?.id || null,
    network: relayer?.network || null,
    link: publicUrl === null ? null : `${publicUrl}/console/${draft.page}`,
  };
}

function draftOf(
  event: string,
  eventId: string,
  payload: Json,
  relayer: Relayer | null,
  context: RenderContext,
): Draft {
  if (event === 'notification_test') {
    const channel = oneLine(context.channelId);
    return {
      title: `Test message for alert channel ${channel}`,
      fields: [{ label: 'Channel', value: channel }],
      severity: 'info',
      incident: { action: 'trigger', dedupKey: `test:${context.channelId}:${eventId}` },
      page: '',
    };
  }
  if (relayer === null) return generic(event, null);
  const { on } = relayer;
  const base = {
    fields: relayer.fields,
    severity: 'info',
    incident: null,
    page: relayerPage(relayer),
  } as const;
  switch (event) {
    case 'relayer_created':
      return { ...base, title: `${on} was created` };
    case 'relayer_updated': {
      const changed = listOf(payload.changed).join(', ');
      return changed === ''
        ? { ...base, title: `${on} was updated` }
        : {
            ...base,
            title: `${on} was updated: ${changed}`,
            fields: [...relayer.fields, { label: 'Changed', value: changed }],
          };
    }
    case 'relayer_deleted':
      // Its page is gone; its history, and who deleted it, are in the audit trail.
      return {
        ...base,
        title: `${on} was deleted`,
        page: `#/audit?resource_type=relayer&resource_id=${encodeURIComponent(relayer.id)}`,
      };
    case 'relayer_disabled': {
      const reason = oneLine(textOf(payload.disable_reason));
      return {
        ...base,
        title: reason === '' ? `${on} was disabled by a health check` : `${on} was disabled: ${reason}`,
        fields: [...relayer.fields, { label: 'Reason', value: reason || 'not given' }],
        severity: 'critical',
        incident: incident(relayer, 'trigger', 'disabled'),
      };
    }
    case 'relayer_enabled': {
      const failed = countOf(payload.retry_count);
      const after = failed === 0 ? '' : ` after ${failed} failed ${failed === 1 ? 'check' : 'checks'}`;
      return {
        ...base,
        title: `${on} is enabled again${after}`,
        fields: [...relayer.fields, { label: 'Failed checks', value: String(failed) }],
        incident: incident(relayer, 'resolve', 'disabled'),
      };
    }
    case 'relayer_low_balance':
    case 'relayer_balance_restored': {
      const unit = context.unitOf(relayer.networkType, relayer.network);
      const amount = (value: unknown) => {
        const native = nativeAmount(textOf(value), unit.decimals);
        return native === null ? 'unknown' : `${native} ${unit.symbol}`;
      };
      const balance = amount(payload.balance);
      const threshold = amount(payload.threshold);
      const low = event === 'relayer_low_balance';
      return {
        ...base,
        title: low
          ? `${on} is below its alert: ${balance} < ${threshold}`
          : `${on} is no longer below its alert: ${balance} >= ${threshold}`,
        fields: [
          ...relayer.fields,
          { label: 'Balance', value: balance },
          { label: 'Alert below', value: threshold },
        ],
        severity: low ? 'warning' : 'info',
        incident: incident(relayer, low ? 'trigger' : 'resolve', 'low_balance'),
      };
    }
    default:
      return generic(event, relayer);
  }
}

/** A payload_type this version has no template for: named, never refused. */
function generic(event: string, relayer: Relayer | null): Draft {
  const name = oneLine(event) || 'without a type';
  return {
    title: relayer === null ? `Event ${name}` : `Event ${name} for ${relayer.on}`,
    fields: [{ label: 'Event', value: name }, ...(relayer?.fields ?? [])],
    severity: 'info',
    incident: null,
    page: relayer === null ? '' : relayerPage(relayer),
  };
}

function relayerPage(relayer: Relayer): string {
  return relayer.id === '' ? '' : `#/relayers/${encodeURIComponent(relayer.id)}`;
}

/** A relayer without an id (a body this version cannot read) opens no incident it could not resolve. */
function incident(relayer: Relayer, action: AlertIncident['action'], kind: string): AlertIncident | null {
  return relayer.id === '' ? null : { action, dedupKey: `${relayer.id}:${kind}` };
}

function relayerOf(value: unknown): Relayer | null {
  if (!isObject(value)) return null;
  const id = oneLine(textOf(value.id));
  const name = oneLine(textOf(value.name));
  const network = oneLine(textOf(value.network));
  const networkType = oneLine(textOf(value.network_type));
  const address = oneLine(textOf(value.address));
  const reference = name || id || 'Unnamed relayer';
  const fields: AlertField[] = [{ label: 'Relayer', value: reference }];
  if (name !== '' && id !== '' && name !== id) fields.push({ label: 'Relayer ID', value: id });
  const shown = network || 'an unknown network';
  fields.push({ label: 'Network', value: networkType === '' ? shown : `${shown} (${networkType})` });
  if (address !== '') fields.push({ label: 'Address', value: address });
  return { id: textOf(value.id), reference, network, on: `${reference} on ${shown}`, networkType, fields };
}

function parseBody(body: string): unknown {
  try {
    return JSON.parse(body);
  } catch {
    // The parser's message quotes the body.
    throw new Error('An alert body must be the JSON of an event');
  }
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function objectOf(value: unknown): Json {
  if (isObject(value)) return value;
  throw new Error('An alert body must be the JSON of an event');
}

function textOf(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

function listOf(value: unknown): string[] {
  return Array.isArray(value) ? value.map(textOf).map(oneLine).filter(Boolean) : [];
}

function countOf(value: unknown): number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : 0;
}
