import type { AlertChannelType } from '../../notifications';

/** docs/reference/alert-channels.md#2-config: what each type of channel is sent through. */
export interface SlackConfig {
  /** An incoming webhook's URL: a secret, masked in answers. */
  readonly webhook_url: string;
}

export interface PagerDutyConfig {
  /** The integration's routing key (Events API v2): a secret, `***` in answers. */
  readonly routing_key: string;
}

export interface EmailConfig {
  readonly to: readonly string[];
}

export interface ChannelConfigs {
  readonly slack: SlackConfig;
  readonly pagerduty: PagerDutyConfig;
  readonly email: EmailConfig;
}

export type ChannelConfig = ChannelConfigs[AlertChannelType];

/** A channel as the dispatcher sends to it: its type with its configuration. */
export type ChannelAddress = {
  [T in AlertChannelType]: { readonly type: T; readonly config: ChannelConfigs[T] };
}[AlertChannelType];

/**
 * The stored configuration (JSON, opened) of a channel of `type`; the API checked it when it was
 * written, so a row that does not parse is a broken row, not input.
 */
export function channelAddress(type: AlertChannelType, stored: string | null): ChannelAddress {
  const config: unknown = JSON.parse(stored ?? 'null');
  if (typeof config !== 'object' || config === null) {
    throw new Error(`the stored configuration of a ${type} channel is not an object`);
  }
  return { type, config } as ChannelAddress;
}
