// PagerDuty's Events API v2 as PagerDuty documents it, checked on every request:
// - the event, its fields and limits, de-duplication and what each action does:
//   https://developer.pagerduty.com/docs/events-api-v2/trigger-events/
// - the answers (202, 400, 429, 5xx), the 512 KB limit and the PD-CEF payload fields:
//   https://developer.pagerduty.com/docs/events-api-v2/overview/
// - the bodies of 202 and 400: the example answers of https://v2.developer.pagerduty.com/docs/send-an-event-events-api-v2.
// Another path is answered 404 `{"status":"not found"}`, a body of our own: PagerDuty documents none.
// The routing key is a secret: no violation and no answer repeats it.
import { randomUUID } from 'node:crypto';
import {
  ProviderStandIn,
  type Answer,
  type IncomingRequest,
  type ProviderRequest,
  type ScriptedReply,
  type Verdict,
} from './provider-stand-in';
import { waitFor } from './wait';

export const ENQUEUE_PATH = '/v2/enqueue';
const MAX_BODY_BYTES = 512 * 1024;
const ACTIONS = ['trigger', 'acknowledge', 'resolve'] as const;
const SEVERITIES = ['critical', 'error', 'warning', 'info'] as const;
const EVENT_FIELDS = [
  'routing_key',
  'event_action',
  'dedup_key',
  'payload',
  'images',
  'links',
  'client',
  'client_url',
];
const PAYLOAD_FIELDS = [
  'summary',
  'source',
  'severity',
  'timestamp',
  'component',
  'group',
  'class',
  'custom_details',
];
/** ISO 8601 date and time with a zone, the offset with or without a colon (PagerDuty's example has none). */
const ISO_8601 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;

export type EventAction = (typeof ACTIONS)[number];
export type Severity = (typeof SEVERITIES)[number];

export interface Link {
  readonly href: string;
  readonly text?: string;
}

/** An incident as PagerDuty keeps it: one per routing key and dedup key until it is resolved. */
export interface Incident {
  readonly routingKey: string;
  readonly dedupKey: string;
  status: 'triggered' | 'acknowledged' | 'resolved';
  /** From the trigger that opened it: later triggers are folded in without changing it. */
  readonly summary: string;
  readonly severity: Severity;
  /** The triggers folded into it, the first included. */
  triggers: number;
  readonly links: readonly Link[];
}

/** A valid event, its dedup key generated when a trigger came without one. */
interface Event {
  readonly routingKey: string;
  readonly action: EventAction;
  readonly dedupKey: string;
  readonly summary: string;
  readonly severity: Severity;
  readonly links: readonly Link[];
}

type JsonObject = Record<string, unknown>;

const isObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const oneOf = <T extends string>(values: readonly T[], value: unknown): value is T =>
  values.some((known) => known === value);

/**
 * PagerDuty's Events API v2 (`/v2/enqueue`) on a loopback port: every event is checked against
 * PagerDuty's documented format (`violations()`) and applied to the incidents as PagerDuty would,
 * unless a scripted reply (a 500, a 429) stands in for the answer.
 */
export class PagerDutyStandIn extends ProviderStandIn {
  private readonly opened: Incident[] = [];

  /** Every recorded request, valid or not. */
  get events(): ProviderRequest[] {
    return this.received;
  }

  /** The Events API URL to configure (`PAGERDUTY_EVENTS_URL`). */
  enqueueUrl(): string {
    return this.url(ENQUEUE_PATH);
  }

  /** Copies of the incidents, in the order they were opened. */
  incidents(): Incident[] {
    return this.opened.map((incident) => ({ ...incident }));
  }

  /** The replies for the next events, in order; afterwards PagerDuty's own. */
  script(replies: ScriptedReply[]): void {
    this.scriptPath(ENQUEUE_PATH, replies);
  }

  /** Polls until `count` events were received (deadline 15 s). */
  waitFor(count: number, timeoutMs = 15_000): Promise<ProviderRequest[]> {
    return this.waitForRequests('PagerDuty events', () => true, count, timeoutMs);
  }

  /** Polls until the last incident of `dedupKey` has `status` (deadline 15 s). */
  waitForIncident(dedupKey: string, status: Incident['status'], timeoutMs = 15_000): Promise<Incident> {
    const last = () => this.incidents().findLast((incident) => incident.dedupKey === dedupKey);
    return waitFor(`the incident ${dedupKey} ${status}`, () => last()?.status === status && last(), {
      timeoutMs,
      intervalMs: 20,
      detail: () => `the incident is ${last()?.status ?? 'not opened'}`,
    });
  }

  protected judge({ method, pathname, headers, body }: IncomingRequest): Verdict {
    const violations: string[] = [];
    if (pathname !== ENQUEUE_PATH) violations.push(`path: ${pathname}, not ${ENQUEUE_PATH}`);
    if (method !== 'POST') violations.push(`method: ${method}, not POST`);
    const contentType = headers['content-type'] ?? '';
    if (!/^application\/json\s*(;|$)/i.test(contentType)) {
      violations.push(`content-type: "${contentType}", not application/json`);
    }
    const bytes = Buffer.byteLength(body);
    if (bytes > MAX_BODY_BYTES) violations.push(`body: ${bytes} bytes, more than 512 KB`);
    let json: unknown;
    try {
      json = JSON.parse(body);
    } catch {
      violations.push('body: not JSON');
    }
    if (json !== undefined && !isObject(json)) violations.push('body: not a JSON object');
    const event = isObject(json) ? checkEvent(json, violations) : undefined;
    if (pathname !== ENQUEUE_PATH)
      return { json, violations, answer: answerJson(404, { status: 'not found' }) };
    if (violations.length > 0 || event === undefined) {
      const invalid = { status: 'invalid event', message: 'Event object is invalid', errors: violations };
      return { json, violations, answer: answerJson(400, invalid) };
    }
    const accepted = { status: 'success', message: 'Event processed', dedup_key: event.dedupKey };
    return { json, violations, answer: answerJson(202, accepted), effect: () => this.apply(event) };
  }

  protected scriptedAnswer(status: number): Answer {
    return { status, contentType: 'application/json', body: '' };
  }

  /** What PagerDuty does with an accepted event: a trigger opens an incident or is folded into the open one. */
  private apply(event: Event): void {
    const open = this.opened.find(
      (incident) =>
        incident.routingKey === event.routingKey &&
        incident.dedupKey === event.dedupKey &&
        incident.status !== 'resolved',
    );
    switch (event.action) {
      case 'trigger':
        if (open) open.triggers += 1;
        else {
          const { routingKey, dedupKey, summary, severity, links } = event;
          this.opened.push({
            routingKey,
            dedupKey,
            status: 'triggered',
            summary,
            severity,
            triggers: 1,
            links,
          });
        }
        return;
      case 'acknowledge':
        if (open) open.status = 'acknowledged';
        return;
      case 'resolve':
        // A resolve of no open incident is accepted and dropped.
        if (open) open.status = 'resolved';
        return;
    }
  }
}

function answerJson(status: number, body: JsonObject): Answer {
  return { status, contentType: 'application/json', body: JSON.stringify(body) };
}

/** Adds the event's violations to `out`; the event when it has none. */
function checkEvent(json: JsonObject, out: string[]): Event | undefined {
  const before = out.length;
  unknownFields('', json, EVENT_FIELDS, 'the event', out);
  const routingKey = json.routing_key;
  if (typeof routingKey !== 'string') out.push('routing_key: not a string');
  else if (routingKey.length !== 32) out.push(`routing_key: ${routingKey.length} characters, not 32`);
  const action = json.event_action;
  if (!oneOf(ACTIONS, action)) out.push(`event_action: ${JSON.stringify(action)}, not ${ACTIONS.join(', ')}`);
  let dedupKey = json.dedup_key;
  if (dedupKey === undefined) {
    if (action === 'acknowledge' || action === 'resolve') {
      out.push(`dedup_key: missing, required to ${action}`);
    }
    dedupKey = randomUUID().replaceAll('-', '');
  } else if (typeof dedupKey !== 'string' || dedupKey === '') out.push('dedup_key: not a non-empty string');
  else if (dedupKey.length > 255) out.push(`dedup_key: ${dedupKey.length} characters, at most 255`);
  const payload = json.payload;
  if (payload === undefined) {
    if (action === 'trigger') out.push('payload: missing, required to trigger');
  } else checkPayload(payload, out);
  if (json.links !== undefined) {
    checkObjects('links', json.links, out, (link, at) => {
      unknownFields(`${at}.`, link, ['href', 'text'], 'a link', out);
      checkUrl(`${at}.href`, link.href, out);
      if (link.text !== undefined && typeof link.text !== 'string') out.push(`${at}.text: not a string`);
    });
  }
  if (json.images !== undefined) {
    checkObjects('images', json.images, out, (image, at) => {
      unknownFields(`${at}.`, image, ['src', 'href', 'alt'], 'an image', out);
      checkUrl(`${at}.src`, image.src, out);
      if (typeof image.src === 'string' && !image.src.startsWith('https://'))
        out.push(`${at}.src: not served over HTTPS`);
      if (image.href !== undefined) checkUrl(`${at}.href`, image.href, out);
      if (image.alt !== undefined && typeof image.alt !== 'string') out.push(`${at}.alt: not a string`);
    });
  }
  if (json.client !== undefined && typeof json.client !== 'string') out.push('client: not a string');
  if (json.client_url !== undefined) checkUrl('client_url', json.client_url, out);
  if (out.length > before) return undefined;
  // Checked above: the casts name what the checks established.
  const { summary = '', severity = 'info' } = (payload ?? {}) as { summary?: string; severity?: Severity };
  const links = (json.links ?? []) as Link[];
  return {
    routingKey: routingKey as string,
    action: action as EventAction,
    dedupKey: dedupKey as string,
    summary,
    severity,
    links,
  };
}

function checkPayload(payload: unknown, out: string[]): void {
  if (!isObject(payload)) {
    out.push('payload: not an object');
    return;
  }
  unknownFields('payload.', payload, PAYLOAD_FIELDS, 'the payload', out);
  const { summary, source, severity, timestamp } = payload;
  if (typeof summary !== 'string' || summary === '') out.push('payload.summary: not a non-empty string');
  else if (summary.length > 1024) out.push(`payload.summary: ${summary.length} characters, at most 1024`);
  if (typeof source !== 'string' || source === '') out.push('payload.source: not a non-empty string');
  if (!oneOf(SEVERITIES, severity)) {
    out.push(`payload.severity: ${JSON.stringify(severity)}, not ${SEVERITIES.join(', ')}`);
  }
  if (timestamp !== undefined && (typeof timestamp !== 'string' || !ISO_8601.test(timestamp))) {
    out.push(`payload.timestamp: ${JSON.stringify(timestamp)}, not an ISO 8601 date and time`);
  }
  for (const field of ['component', 'group', 'class'] as const) {
    if (payload[field] !== undefined && typeof payload[field] !== 'string')
      out.push(`payload.${field}: not a string`);
  }
  if (payload.custom_details !== undefined && !isObject(payload.custom_details)) {
    out.push('payload.custom_details: not an object');
  }
}

function unknownFields(
  prefix: string,
  value: JsonObject,
  known: readonly string[],
  what: string,
  out: string[],
): void {
  for (const key of Object.keys(value)) {
    if (!known.includes(key)) out.push(`${prefix}${key}: not a field of ${what}`);
  }
}

function checkObjects(
  at: string,
  value: unknown,
  out: string[],
  each: (item: JsonObject, at: string) => void,
): void {
  if (!Array.isArray(value)) {
    out.push(`${at}: not an array`);
    return;
  }
  value.forEach((item, i) => {
    if (isObject(item)) each(item, `${at}[${i}]`);
    else out.push(`${at}[${i}]: not an object`);
  });
}

function checkUrl(at: string, value: unknown, out: string[]): void {
  if (typeof value !== 'string' || !URL.canParse(value)) out.push(`${at}: not a URL`);
}
