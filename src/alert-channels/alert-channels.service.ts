import { Inject, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { RelayerScope } from '../common/auth/relayer-scope';
import { ConflictError, ForbiddenError, ValidationError } from '../common/errors/domain-errors';
import type { IfMatch } from '../common/http/if-match';
import { Page, type PageQueryDto } from '../common/http/page.dto';
import { entityTag, Tagged } from '../common/http/tagged';
import { MASK, maskUrl } from '../common/security/url-masking';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/app-config.module';
import { ResourceWrites, STALE } from '../database/resource-writes';
import { Transactions, type ReadTx } from '../database/transactions';
import {
  ALERT_CHANNELS,
  AlertChannelsRepository,
  alertChannelNotFound,
  NotificationEntity,
  NotificationsService,
  type AlertChannelType,
} from '../notifications';
import {
  ANY_RELAYER,
  FanOutLimit,
  SubscriptionsRepository,
  WebhooksService,
  type StoredSubscription,
  type WebhookEvent,
} from '../webhooks';
import type { AlertChannelEvent } from './alert-channel-events';
import { channelAddress, type ChannelConfig } from './send/channel-config';
import {
  channelEvents,
  channelRelayerIds,
  checkChannelConfig,
  checkChannelEvents,
  type CheckedCreate,
} from './alert-channels.validation';
import type {
  AlertChannelListQueryDto,
  AlertChannelResponse,
  UpdateAlertChannelDto,
} from './dto/alert-channel.dto';

/** A channel's row with its subscription (the events and relayers it hears of), as the API shows them. */
interface AlertChannelRow extends NotificationEntity {
  readonly events: WebhookEvent[] | null;
  /** Sorted; `["*"]` for every relayer. */
  readonly relayerIds: string[];
}

const isEveryRelayer = (ids: readonly string[]): boolean => ids.includes(ANY_RELAYER);
const sameList = (a: readonly string[] | null, b: readonly string[] | null): boolean =>
  a === null || b === null ? a === b : a.length === b.length && a.every((item, i) => item === b[i]);

/**
 * A channel's secrets as answers show them (docs/reference/alert-channels.md#2-config): a Slack URL
 * masked as an RPC URL is, a routing key `***`; the recipients of e-mail as they are.
 */
function maskedConfig(config: ChannelConfig): Record<string, unknown> {
  if ('webhook_url' in config) return { webhook_url: maskUrl(config.webhook_url) };
  if ('routing_key' in config) return { routing_key: MASK };
  return { to: [...config.to] };
}

/**
 * docs/reference/alert-channels.md: alert channels are delivery targets of their own kind in
 * `notifications` (AlertChannelsRepository), each with a subscription as a webhook target's, written
 * through ResourceWrites as `alert_channel` and delivered by the webhooks' dispatcher.
 */
@Injectable()
export class AlertChannelsService {
  private readonly writes: ResourceWrites<AlertChannelRow, AlertChannelResponse>;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly channels: AlertChannelsRepository,
    private readonly subscriptions: SubscriptionsRepository,
    private readonly limit: FanOutLimit,
    private readonly webhooks: WebhooksService,
    private readonly notifications: NotificationsService,
    transactions: Transactions,
  ) {
    this.writes = new ResourceWrites(transactions, {
      name: ALERT_CHANNELS.name,
      event: (channel): AlertChannelEvent => ({ alert_channel: channel }),
      notFound: () => alertChannelNotFound(),
      read: (id, tx) => this.read(id, tx),
      toResponse: (row) => this.toResponse(row),
    });
  }

  async create({ dto, config }: CheckedCreate): Promise<Tagged<AlertChannelResponse>> {
    const now = new Date();
    const id = dto.id ?? randomUUID();
    const events = channelEvents(dto.type, dto.events ?? null);
    const relayerIds = channelRelayerIds(dto.relayer_ids ?? null);
    this.assertScopeMayName(relayerIds);
    const entity = Object.assign(new NotificationEntity(), {
      id,
      type: dto.type,
      url: '',
      signingKey: null,
      signingScheme: 'reference',
      channelConfig: this.seal(config),
      version: 1,
      createdAt: now,
      updatedAt: now,
    });
    return this.writes.create(async (tx) => {
      const outcome = await this.channels.insertInScope(entity, tx);
      // Outside the key's scope (docs/reference/keys-and-audit.md#3-relayer-scope): before any conflict.
      if (outcome === 'out_of_scope') throw new ForbiddenError();
      if (outcome === 'duplicate') throw new ConflictError('Alert channel with this ID already exists');
      await this.webhooks.targetCreated(id, tx);
      await this.subscriptions.write(id, { events, relayerIds }, false, now, tx);
      await this.limit.assertSubscription(id, null, relayerIds, tx);
      return Object.assign(entity, { events, relayerIds });
    });
  }

  /** With `If-Match` (docs/reference/safe-writes.md), only the version it matched is written. */
  update(
    id: string,
    dto: UpdateAlertChannelDto,
    options: { ifMatch?: IfMatch | null } = {},
  ): Promise<Tagged<AlertChannelResponse>> {
    return this.writes.update(
      id,
      (current) => this.plan(current, dto),
      async (current, changes, tx) => {
        const { channelConfig } = changes;
        const updatedAt = changes.updatedAt ?? new Date();
        const written = await this.channels.update(id, { channelConfig, updatedAt }, current.version, tx);
        if (!written) return STALE;
        const events = changes.events === undefined ? current.events : changes.events;
        const relayerIds = changes.relayerIds ?? current.relayerIds;
        if (changes.events !== undefined || changes.relayerIds !== undefined) {
          await this.subscriptions.write(id, { events, relayerIds }, true, updatedAt, tx);
          await this.limit.assertSubscription(id, current.relayerIds, relayerIds, tx);
        }
      },
      options,
    );
  }

  async getTagged(id: string): Promise<Tagged<AlertChannelResponse>> {
    const row = await this.read(id);
    if (!row) throw alertChannelNotFound();
    return new Tagged(this.toResponse(row), entityTag(row.version, row.createdAt));
  }

  async list(query: AlertChannelListQueryDto): Promise<Page<AlertChannelResponse>> {
    return this.page(query, (row) => this.toResponse(row));
  }

  /** The channel, or null when there is none of that id in the request's scope. */
  async find(id: string): Promise<AlertChannelResponse | null> {
    const row = await this.read(id);
    return row && this.toResponse(row);
  }

  /**
   * The list with each channel's configuration unmasked beside it: for the export only
   * (src/config-file), which writes its secrets as environment references. The request's scope
   * applies as to the list.
   */
  listWithConfigs(
    query: PageQueryDto,
  ): Promise<Page<{ channel: AlertChannelResponse; config: ChannelConfig }>> {
    return this.page(query, (row) => ({ channel: this.toResponse(row), config: this.configOf(row) }));
  }

  /**
   * For pause, resume and test: 404 as for every route, 403 for a key that may not change the whole
   * channel (assertMayChangeWhole).
   */
  async assertMayChange(id: string): Promise<void> {
    const row = await this.read(id);
    if (!row) throw alertChannelNotFound();
    this.assertMayChangeWhole(row);
  }

  /** Its deliveries go with it. */
  async remove(id: string, options: { ifMatch?: IfMatch | null } = {}): Promise<string> {
    await this.writes.remove(
      id,
      async (row, version, tx) => {
        this.assertMayChangeWhole(row);
        return (await this.channels.deleteById(id, version, tx)) === 'deleted';
      },
      options,
    );
    this.webhooks.targetDeleted();
    return 'Alert channel deleted successfully';
  }

  /** The changes a PATCH makes to `current`, or null for none; a bad config or event list is a 400. */
  private plan(current: AlertChannelRow, dto: UpdateAlertChannelDto): Partial<AlertChannelRow> | null {
    const type = current.type as AlertChannelType;
    const changes: { channelConfig?: string; events?: WebhookEvent[] | null; relayerIds?: string[] } = {};
    const problems: string[] = [];
    if (dto.config !== undefined || dto.events !== undefined) this.assertMayChangeWhole(current);
    if (dto.config !== undefined) {
      const stored = this.configOf(current);
      const checked = checkChannelConfig(type, dto.config, {
        policy: this.config.webhookUrlPolicy,
        smtp: this.config.alerts.smtpUrl !== null,
        stored,
      });
      problems.push(...checked.problems);
      if (checked.value !== null && JSON.stringify(checked.value) !== JSON.stringify(stored)) {
        changes.channelConfig = this.seal(checked.value);
      }
    }
    if (dto.events !== undefined) {
      problems.push(...checkChannelEvents(type, dto.events));
      const events = channelEvents(type, dto.events);
      if (!sameList(events, current.events)) changes.events = events;
    }
    if (dto.relayer_ids !== undefined) {
      const relayerIds = this.relayerIdsToStore(current.relayerIds, dto.relayer_ids);
      if (!sameList(relayerIds, current.relayerIds)) changes.relayerIds = relayerIds;
    }
    if (problems.length > 0) throw new ValidationError(problems);
    return Object.keys(changes).length === 0 ? null : { ...changes, updatedAt: new Date() };
  }

  /**
   * As a subscription's (docs/reference/keys-and-audit.md#35-balance-alerts-and-webhook-operations):
   * a key with relayer_ids replaces only the stored ids inside its scope and may not name every
   * relayer; none left at all is refused, as a channel that hears no relayer would be.
   */
  private relayerIdsToStore(stored: string[], sent: string[] | null): string[] {
    const scope = RelayerScope.current();
    if (scope === null) {
      if (sent?.length === 0) throw new ValidationError('relayer_ids must not be empty');
      return channelRelayerIds(sent);
    }
    if (sent === null || isEveryRelayer(sent) || isEveryRelayer(stored)) throw new ForbiddenError();
    this.assertScopeMayName(sent);
    const ids = channelRelayerIds([...stored.filter((id) => !scope.covers(id)), ...sent]);
    if (ids.length === 0) throw new ValidationError('relayer_ids: the channel would hear of no relayer');
    return ids;
  }

  /**
   * docs/reference/alert-channels.md#18-teams: a key with relayer_ids changes a channel's address,
   * events, pause or existence only when the channel hears no relayer outside its scope; else those
   * would reach other teams' events (403). Its part of a shared channel's relayer_ids it may change.
   */
  private assertMayChangeWhole(row: AlertChannelRow): void {
    const scope = RelayerScope.current();
    if (scope === null) return;
    if (row.relayerIds.some((id) => id === ANY_RELAYER || !scope.covers(id))) throw new ForbiddenError();
  }

  /** A key with relayer_ids names only relayers of its scope, and not every relayer (403). */
  private assertScopeMayName(relayerIds: readonly string[]): void {
    const scope = RelayerScope.current();
    if (scope === null) return;
    if (isEveryRelayer(relayerIds) || !RelayerScope.contains(scope, RelayerScope.of(relayerIds))) {
      throw new ForbiddenError();
    }
  }

  /** A page of the channels of the request's scope, each with its subscription, as `map` makes it. */
  private async page<T>(query: PageQueryDto, map: (row: AlertChannelRow) => T): Promise<Page<T>> {
    const { items, total } = await this.channels.findPage(query.offset, query.per_page);
    // The page's subscriptions in two statements, not two per channel.
    const subscriptions = await this.subscriptions.findOfTargets(items.map((row) => row.id));
    const rows = items.map((row) => this.joined(row, subscriptions.get(row.id) ?? null));
    return new Page(rows.map(map), query, total);
  }

  private async read(id: string, tx?: ReadTx): Promise<AlertChannelRow | null> {
    const row = await this.channels.findById(id, tx);
    return row && this.withSubscription(row, tx);
  }

  private async withSubscription(row: NotificationEntity, tx?: ReadTx): Promise<AlertChannelRow> {
    return this.joined(row, await this.subscriptions.findOfTarget(row.id, tx, ALERT_CHANNELS));
  }

  /** Every channel is written with its subscription; none (a write racing a read) hears every event. */
  private joined(
    row: NotificationEntity,
    subscription: Pick<StoredSubscription, 'events' | 'relayerIds'> | null,
  ): AlertChannelRow {
    return Object.assign(row, {
      events: subscription?.events ?? null,
      relayerIds: subscription?.relayerIds ?? [ANY_RELAYER],
    });
  }

  /** Every relayer is null; a key with relayer_ids sees only the ids of its scope. */
  private toResponse(row: AlertChannelRow): AlertChannelResponse {
    const scope = RelayerScope.current();
    const every = isEveryRelayer(row.relayerIds);
    return {
      id: row.id,
      type: row.type as AlertChannelType,
      config: maskedConfig(this.configOf(row)),
      events: row.events,
      relayer_ids: every ? null : row.relayerIds.filter((id) => scope?.covers(id) ?? true),
    };
  }

  private configOf(row: NotificationEntity): ChannelConfig {
    return channelAddress(row.type as AlertChannelType, this.notifications.openKey(row.channelConfig)).config;
  }

  private seal(config: ChannelConfig): string {
    return this.notifications.sealKey(JSON.stringify(config));
  }
}
