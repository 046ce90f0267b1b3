import type { AlertMessage, AlertSeverity } from './alert-message';
import { clip } from './text-limits';

/** The Events API v2 bounds the summary to 1024 characters. */
const SUMMARY = 1024;

export interface PagerDutyLink {
  readonly href: string;
  readonly text: string;
}

export interface PagerDutyPayload {
  /** The title, at most 1024 characters. */
  readonly summary: string;
  readonly source: string;
  readonly severity: AlertSeverity;
  /** When the event happened (ISO 8601): the body's timestamp. */
  readonly timestamp: string;
  /** The relayer's id; absent for a message about no relayer (the test). */
  readonly component?: string;
  /** The relayer's network, beside its component. */
  readonly group?: string;
  /** The payload_type. */
  readonly class: string;
  /** The message's fields, label to value. */
  readonly custom_details: Readonly<Record<string, string>>;
}

export interface PagerDutyTrigger {
  readonly routing_key: string;
  readonly event_action: 'trigger';
  readonly dedup_key: string;
  readonly payload: PagerDutyPayload;
  readonly links?: readonly PagerDutyLink[];
}

export interface PagerDutyResolve {
  readonly routing_key: string;
  readonly event_action: 'resolve';
  readonly dedup_key: string;
}

/** A body of the Events API v2 (`POST /v2/enqueue`). */
export type PagerDutyEvent = PagerDutyTrigger | PagerDutyResolve;

/**
 * The event a message makes of its incident (`<relayer id>:low_balance`, `<relayer id>:disabled`,
 * `test:<channel>:<event id>`), or null when it concerns none. The routing key is a secret: it
 * goes in the body and nowhere else.
 */
export function pagerDutyEvent(
  message: AlertMessage,
  routingKey: string,
  source: string,
): PagerDutyEvent | null {
  const { incident } = message;
  if (incident === null) return null;
  if (incident.action === 'resolve') return pagerDutyResolve(routingKey, incident.dedupKey);
  return {
    routing_key: routingKey,
    event_action: 'trigger',
    dedup_key: incident.dedupKey,
    payload: {
      summary: clip(message.title, SUMMARY),
      source,
      severity: message.severity,
      timestamp: message.occurredAt,
      ...(message.relayerId === null ? {} : { component: message.relayerId }),
      ...(message.network === null ? {} : { group: message.network }),
      class: message.event,
      custom_details: Object.fromEntries(message.fields.map(({ label, value }) => [label, value])),
    },
    ...(message.link === null ? {} : { links: [{ href: message.link, text: 'Open in console' }] }),
  };
}

/** The event that resolves the incident of `dedupKey` (the test message's, right after its trigger). */
export function pagerDutyResolve(routingKey: string, dedupKey: string): PagerDutyResolve {
  return { routing_key: routingKey, event_action: 'resolve', dedup_key: dedupKey };
}
