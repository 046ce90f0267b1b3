import { Inject, Injectable } from '@nestjs/common';
import { idRequiredInScope, RelayerScope } from '../common/auth/relayer-scope';
import { MASK, resolveSentUrl } from '../common/security/url-masking';
import { checkUrl, type UrlPolicyOptions } from '../common/security/url-policy';
import type { BodyRules, Checked, DtoCheck } from '../common/validation/dto-validation.pipe';
import { isPlainObject, MAX_URL_LENGTH } from '../common/validation/field-rules';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/app-config.module';
import type { AlertChannelType } from '../notifications';
import { WEBHOOK_EVENTS, type WebhookEvent, ANY_RELAYER } from '../webhooks';
import type { ChannelConfig } from './send/channel-config';
import {
  CHANNEL_RELAYER_IDS_RULE,
  CreateAlertChannelDto,
  UpdateAlertChannelDto,
} from './dto/alert-channel.dto';

/** At most this many recipients of one e-mail channel. */
export const MAX_EMAIL_RECIPIENTS = 20;
const MAX_ADDRESS_LENGTH = 254;
const MAX_LOCAL_PART_LENGTH = 64;
/**
 * An address as people write one, without a display name or quotes: dot-separated atoms before the
 * `@` (none empty, RFC 5321's dot-string), a domain name after it; the SMTP server judges the rest.
 */
const EMAIL_ADDRESS =
  /^[^\s@<>(),;:"[\]\\.]+(?:\.[^\s@<>(),;:"[\]\\.]+)*@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)+$/;

const isEmailAddress = (address: unknown): address is string =>
  typeof address === 'string' &&
  address.length <= MAX_ADDRESS_LENGTH &&
  EMAIL_ADDRESS.test(address) &&
  address.indexOf('@') <= MAX_LOCAL_PART_LENGTH;

/** The domain of an address ignores case: one recipient, whatever its spelling. */
const mailboxOf = (address: string): string => {
  const at = address.lastIndexOf('@');
  return `${address.slice(0, at)}@${address.slice(at + 1).toLowerCase()}`;
};
/** A PagerDuty integration's routing key (Events API v2). */
const ROUTING_KEY = /^[A-Za-z0-9]{32}$/;

/**
 * docs/reference/alert-channels.md#5-pagerduty: what opens or closes an incident, and so what a
 * PagerDuty channel may hear (`relayer_state_update`: disabled and enabled again).
 */
export const PAGERDUTY_EVENTS: readonly WebhookEvent[] = [
  'relayer_state_update',
  'relayer_low_balance',
  'relayer_balance_restored',
];

const CONFIG_KEYS: Record<AlertChannelType, readonly string[]> = {
  slack: ['webhook_url'],
  pagerduty: ['routing_key'],
  email: ['to'],
};

/** What a configuration is checked against: the URL policy, whether e-mail can be sent, a stored one. */
export interface ConfigCheck {
  readonly policy: UrlPolicyOptions;
  readonly smtp: boolean;
  /** A PATCH's channel as stored: its masked secrets sent back unchanged stand for it. */
  readonly stored?: ChannelConfig;
}

/**
 * A channel's `config` for `type` (docs/reference/alert-channels.md#2-config): every problem named by
 * its path (`config.webhook_url`), the value null when there is one.
 */
export function checkChannelConfig(
  type: AlertChannelType,
  config: unknown,
  check: ConfigCheck,
): Checked<ChannelConfig | null> {
  if (!isPlainObject(config)) return { value: null, problems: ['config must be an object'] };
  const problems = Object.keys(config)
    .filter((key) => !CONFIG_KEYS[type].includes(key))
    .map((key) => `config.${key} is not an allowed field for a ${type} channel`);
  const found = configOf(type, config, check);
  problems.push(...found.problems);
  return problems.length === 0 ? found : { value: null, problems };
}

function configOf(
  type: AlertChannelType,
  config: Record<string, unknown>,
  check: ConfigCheck,
): Checked<ChannelConfig | null> {
  const none = (problem: string): Checked<null> => ({ value: null, problems: [problem] });
  switch (type) {
    case 'slack': {
      const url = config.webhook_url;
      if (typeof url !== 'string' || url === '' || url.length > MAX_URL_LENGTH) {
        return none(
          `config.webhook_url must be an http or https URL of at most ${MAX_URL_LENGTH} characters`,
        );
      }
      const stored = check.stored && 'webhook_url' in check.stored ? [check.stored.webhook_url] : [];
      const sent = resolveSentUrl(url, stored);
      if (sent.kind === 'kept') return { value: { webhook_url: sent.url }, problems: [] };
      if (sent.kind !== 'new') return none('config.webhook_url is masked but stands for no stored URL');
      const refusal = checkUrl(url, check.policy);
      return refusal === null
        ? { value: { webhook_url: url }, problems: [] }
        : none(`config.webhook_url ${refusal}`);
    }
    case 'pagerduty': {
      const key = config.routing_key;
      if (key === MASK && check.stored && 'routing_key' in check.stored) {
        return { value: { routing_key: check.stored.routing_key }, problems: [] };
      }
      return typeof key === 'string' && ROUTING_KEY.test(key)
        ? { value: { routing_key: key }, problems: [] }
        : none('config.routing_key must be an integration key of 32 letters and digits');
    }
    case 'email': {
      if (!check.smtp) return none('config.to: e-mail channels need SMTP_URL set on the service');
      const to = config.to;
      if (!Array.isArray(to) || to.length === 0 || to.length > MAX_EMAIL_RECIPIENTS) {
        return none(`config.to must be an array of 1 to ${MAX_EMAIL_RECIPIENTS} e-mail addresses`);
      }
      const problems = to.flatMap((address: unknown, i) =>
        isEmailAddress(address) ? [] : [`config.to[${i}] must be an e-mail address (name@example.com)`],
      );
      if (problems.length > 0) return { value: null, problems };
      return { value: { to: [...new Set((to as string[]).map(mailboxOf))] }, problems: [] };
    }
  }
}

/** A PagerDuty channel hears only what opens or closes an incident: each other event named. */
export function checkChannelEvents(
  type: AlertChannelType,
  events: readonly WebhookEvent[] | null | undefined,
): string[] {
  if (type !== 'pagerduty' || events == null) return [];
  return events.flatMap((event, i) =>
    PAGERDUTY_EVENTS.includes(event)
      ? []
      : [`events[${i}] must be one of: ${PAGERDUTY_EVENTS.join(', ')} (a pagerduty channel)`],
  );
}

/**
 * The events stored for a channel: those sent without repeats in the catalogue's order; null sent
 * is every event, which for PagerDuty is PAGERDUTY_EVENTS.
 */
export function channelEvents(
  type: AlertChannelType,
  events: readonly WebhookEvent[] | null,
): WebhookEvent[] | null {
  if (events === null) return type === 'pagerduty' ? [...PAGERDUTY_EVENTS] : null;
  return WEBHOOK_EVENTS.filter((name) => events.includes(name));
}

/**
 * The relayer ids stored: sorted without repeats; null (every relayer) is `["*"]`. `[]` only from a
 * key with relayer_ids (its part of a channel shared with other teams, AlertChannelsService).
 */
export function channelRelayerIds(ids: readonly string[] | null): string[] {
  return ids === null ? [ANY_RELAYER] : [...new Set(ids)].sort();
}

/** A create checked as a whole: the configuration for its type, the events a PagerDuty channel takes. */
export interface CheckedCreate {
  readonly dto: CreateAlertChannelDto;
  readonly config: ChannelConfig;
}

@Injectable()
export class AlertChannelCreateRules implements BodyRules<CreateAlertChannelDto, CheckedCreate> {
  readonly dto = CreateAlertChannelDto;

  constructor(@Inject(APP_CONFIG) private readonly appConfig: AppConfig) {}

  check({ value, failed }: DtoCheck<CreateAlertChannelDto>): Checked<CheckedCreate> {
    const problems: string[] = [];
    let config: ChannelConfig | null = null;
    if (!failed.has('type') && !failed.has('config')) {
      const smtp = this.appConfig.alerts.smtpUrl !== null;
      const checked = checkChannelConfig(value.type, value.config, {
        policy: this.appConfig.webhookUrlPolicy,
        smtp,
      });
      problems.push(...checked.problems);
      config = checked.value;
    }
    if (!failed.has('type') && !failed.has('events'))
      problems.push(...checkChannelEvents(value.type, value.events));
    const scoped = RelayerScope.current() !== null;
    if (!failed.has('relayer_ids') && value.relayer_ids?.length === 0 && !scoped)
      problems.push(CHANNEL_RELAYER_IDS_RULE);
    // A generated id would fall outside the key's scope.
    if (value.id == null && scoped) problems.push(idRequiredInScope('alert channels'));
    return { value: { dto: value, config: config as ChannelConfig }, problems };
  }
}

/** The shape is checked by the DTO; the configuration and events need the stored type (AlertChannelsService). */
@Injectable()
export class AlertChannelPatchRules implements BodyRules<UpdateAlertChannelDto, UpdateAlertChannelDto> {
  readonly dto = UpdateAlertChannelDto;

  check({ value }: DtoCheck<UpdateAlertChannelDto>): Checked<UpdateAlertChannelDto> {
    return { value, problems: [] };
  }
}
