import type { Schemas } from '../api/client';
import { EVENTS } from './notification-forms';
import { RelayerList } from './notification-parts';

export type Channel = Schemas['AlertChannelResponse'];
export type ChannelType = Channel['type'];
type EventName = (typeof EVENTS)[number];

export const CHANNEL_TYPES: readonly ChannelType[] = ['slack', 'pagerduty', 'email'];
export const TYPE_LABEL: Record<ChannelType, string> = {
  slack: 'Slack',
  pagerduty: 'PagerDuty',
  email: 'E-mail',
};

/** What opens or closes a PagerDuty incident: all a PagerDuty channel may hear, and its "every event". */
export const PAGERDUTY_EVENTS: readonly EventName[] = [
  'relayer_state_update',
  'relayer_low_balance',
  'relayer_balance_restored',
];

/** The events a channel of the type may hear. */
export const eventsOf = (type: ChannelType): readonly EventName[] =>
  type === 'pagerduty' ? PAGERDUTY_EVENTS : EVENTS;

/** A channel's `config` as the API answered it (its secrets masked), its fields read as their type has them. */
export interface ShownConfig {
  webhook_url: string;
  routing_key: string;
  to: string[];
}

export function shownConfig(channel: Pick<Channel, 'config'>): ShownConfig {
  const { webhook_url: url, routing_key: key, to } = channel.config;
  return {
    webhook_url: typeof url === 'string' ? url : '',
    routing_key: typeof key === 'string' ? key : '',
    to: Array.isArray(to) ? to.filter((address): address is string => typeof address === 'string') : [],
  };
}

/** Where a channel's messages go, in a sentence: its masked Slack URL, PagerDuty, or its recipients. */
export function whereOf(channel: Pick<Channel, 'type' | 'config'>): string {
  const config = shownConfig(channel);
  switch (channel.type) {
    case 'slack':
      return config.webhook_url;
    case 'pagerduty':
      return 'PagerDuty';
    case 'email':
      return config.to.join(', ');
  }
}

/** What a channel's configuration says, as shown by the API: secrets masked, never more. */
export function ConfigFacts({ channel }: { channel: Channel }) {
  const config = shownConfig(channel);
  switch (channel.type) {
    case 'slack':
      return (
        <>
          <dt>Slack webhook URL</dt>
          <dd class="mono">{config.webhook_url} (its secret part never shown)</dd>
        </>
      );
    case 'pagerduty':
      return (
        <>
          <dt>Routing key</dt>
          <dd>{config.routing_key} (never shown)</dd>
        </>
      );
    case 'email':
      return (
        <>
          <dt>Recipients</dt>
          <dd class="mono">{config.to.join(', ')}</dd>
        </>
      );
  }
}

/** A channel's events: every one, or those named. */
export function eventsText(events: Channel['events']): string {
  return events === null ? 'Every event' : events.join(', ');
}

/** A channel's relayers: every one (null), those listed, or none a scoped key may see ([]). */
export function ChannelRelayers({ ids }: { ids: Channel['relayer_ids'] }) {
  if (ids === null) return <>Every relayer</>;
  if (ids.length === 0) return <>None of the relayers this key may see</>;
  return <RelayerList ids={ids} />;
}
