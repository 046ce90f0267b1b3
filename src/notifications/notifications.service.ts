import { Inject, Injectable } from '@nestjs/common';
import { ReferenceRegistry, type ReferenceUsers } from '../common/references/reference-registry';
import { randomUUID } from 'node:crypto';
import { ConflictError, ForbiddenError } from '../common/errors/domain-errors';
import type { Tagged } from '../common/http/tagged';
import type { IfMatch } from '../common/http/if-match';
import { Page } from '../common/http/page.dto';
import { FieldCipher, isEncrypted } from '../common/security/field-cipher';
import { ResourceWrites, STALE } from '../database/resource-writes';
import { Transactions, type ReadTx } from '../database/transactions';
import {
  CreateNotificationDto,
  NotificationListQueryDto,
  NotificationResponse,
  NotificationSummaryResponse,
  UpdateNotificationDto,
} from './dto/notification.dto';
import { NotificationEntity, type DeliveryTargetType, type SigningScheme } from './notification.entity';
import type { NotificationEvent } from './notification-events';
import { AlertChannelsRepository } from './alert-channels.repository';
import { NotificationChanges, NotificationsRepository } from './notifications.repository';
import { WEBHOOK_TARGETS, type TargetKind } from './target-kind';
import { notificationNotFound } from './notifications.errors';
import { toNotificationResponse, toTaggedNotification } from './notification.mapper';
import { FAILING_WINDOW_MS } from './target-health';
import { assertKeyFitsScheme } from './signing-scheme';

/** What the dispatcher needs of a target (docs/reference/webhooks.md#1-events). Holds keys: never logged. */
export interface DeliveryTarget {
  /** A webhook, or the type of an alert channel (docs/reference/alert-channels.md). */
  readonly type: DeliveryTargetType;
  readonly url: string;
  /** An alert channel's `config`, opened (its secrets in clear); null for a webhook. */
  readonly channelConfig: string | null;
  readonly signingKey: string | null;
  /** The key a rotation replaced, while its overlap lasts: until previousSigningKeyUntil. */
  readonly previousSigningKey: string | null;
  readonly previousSigningKeyUntil: Date | null;
  readonly paused: boolean;
  /** docs/reference/webhooks.md#13-standard-webhooks */
  readonly signingScheme: SigningScheme;
}

/** The start of the window a target's failing is judged on: an hour ago. */
const failingSince = (): Date => new Date(Date.now() - FAILING_WINDOW_MS);

/** The cipher for signing keys at rest, or null when STORAGE_ENCRYPTION_KEY is not set. */
export const SIGNING_KEY_CIPHER = Symbol('SIGNING_KEY_CIPHER');

@Injectable()
export class NotificationsService {
  /** Who references a notification: one in use cannot be deleted (docs/reference/notifications.md). */
  private readonly users = new ReferenceRegistry();
  private readonly writes: ResourceWrites<NotificationEntity, NotificationResponse>;

  /** @internal Nest injects it. */
  constructor(
    private readonly notifications: NotificationsRepository,
    private readonly channels: AlertChannelsRepository,
    transactions: Transactions,
    @Inject(SIGNING_KEY_CIPHER) private readonly cipher: FieldCipher | null,
  ) {
    this.writes = new ResourceWrites(transactions, {
      name: 'notification',
      event: (notification): NotificationEvent => ({ notification }),
      notFound: () => notificationNotFound(),
      read: (id, tx) => this.notifications.findById(id, tx),
      toResponse: toNotificationResponse,
      users: this.users,
      inUse: (_, uses) => new ConflictError(`Notification is used by ${uses.join('; ')}`),
    });
  }

  async create(dto: CreateNotificationDto): Promise<Tagged<NotificationResponse>> {
    const now = new Date();
    const entity = Object.assign(new NotificationEntity(), {
      id: dto.id ?? randomUUID(),
      type: dto.type ?? 'webhook',
      url: dto.url,
      signingKey: dto.signing_key ? this.sealKey(dto.signing_key) : null,
      signingScheme: 'reference',
      channelConfig: null,
      version: 1,
      createdAt: now,
      updatedAt: now,
    });
    return this.writes.create(async (tx) => {
      const outcome = await this.notifications.insertInScope(entity, tx);
      // Outside the key's scope (docs/reference/keys-and-audit.md#3-relayer-scope): before any conflict.
      if (outcome === 'out_of_scope') throw new ForbiddenError();
      if (outcome === 'duplicate') throw new ConflictError('Notification with this ID already exists');
      return entity;
    });
  }

  /** With `If-Match` (docs/reference/safe-writes.md), only the version it matched is written. */
  async update(
    id: string,
    dto: UpdateNotificationDto,
    options: { ifMatch?: IfMatch | null } = {},
  ): Promise<Tagged<NotificationResponse>> {
    const changes: NotificationChanges = {};
    if (dto.type != null) changes.type = dto.type;
    if (dto.url != null) changes.url = dto.url;
    if (dto.signing_key === '') changes.signingKey = null;
    else if (dto.signing_key != null) changes.signingKey = this.sealKey(dto.signing_key);
    // A key set here replaces the one in use at once, without overlap (docs/reference/webhooks.md#11-rotating-the-signing-key).
    if (changes.signingKey !== undefined) {
      changes.previousSigningKey = null;
      changes.signingKeyOverlapUntil = null;
    }
    return this.writes.update(
      id,
      () => (Object.keys(changes).length === 0 ? null : { ...changes, updatedAt: new Date() }),
      async (current, write, tx) => {
        if (write.signingKey !== undefined) {
          const key = dto.signing_key === '' ? null : (dto.signing_key ?? null);
          await assertKeyFitsScheme(this.notifications, id, key, tx);
        }
        if (!(await this.notifications.update(id, write, current.version, tx))) return STALE;
      },
      options,
    );
  }

  async get(id: string): Promise<NotificationResponse> {
    return (await this.getTagged(id)).data;
  }

  /** The notification with its entity tag (docs/reference/safe-writes.md). */
  async getTagged(id: string): Promise<Tagged<NotificationResponse>> {
    const entity = await this.notifications.findById(id);
    if (!entity) throw notificationNotFound();
    return toTaggedNotification(entity);
  }

  /**
   * Where to deliver: its URL, its signing keys in clear (the previous one only during its overlap,
   * with its end) and whether it is paused, or null when gone; read on `tx` when given (WorkerDatabase).
   */
  async findTarget(id: string, tx?: ReadTx, now = new Date()): Promise<DeliveryTarget | null> {
    const entity = await this.notifications.findDeliveryTarget(id, tx);
    if (!entity) return null;
    const until = entity.signingKeyOverlapUntil;
    const overlapping = until !== null && until > now && entity.previousSigningKey !== null;
    return {
      type: entity.type,
      url: entity.url,
      channelConfig: this.openKey(entity.channelConfig),
      signingKey: this.openKey(entity.signingKey),
      previousSigningKey: overlapping ? this.openKey(entity.previousSigningKey) : null,
      previousSigningKeyUntil: overlapping ? until : null,
      paused: entity.pausedAt !== null,
      signingScheme: entity.signingScheme,
    };
  }

  /** For the webhook_targets_paused gauge. */
  countPaused(): Promise<number> {
    return this.notifications.countPaused();
  }

  /** A module whose resources reference notifications says how to find them. */
  registerUsers(users: ReferenceUsers): void {
    this.users.register(users);
  }

  /**
   * For the resources that reference one, and the routes under `/notifications/{id}` (or, of `kind`
   * ALERT_CHANNELS, `/alert-channels/{id}`): false for one outside the request's scope, as for a
   * missing one (docs/reference/keys-and-audit.md#3-relayer-scope), and for one of the other kind.
   */
  exists(id: string, kind: TargetKind = WEBHOOK_TARGETS): Promise<boolean> {
    return (kind === WEBHOOK_TARGETS ? this.notifications : this.channels).existsById(id);
  }

  /** docs/reference/notifications.md#13-read-and-list: with `failing`, the failing targets or the others. */
  async list(query: NotificationListQueryDto): Promise<Page<NotificationResponse>> {
    const failing =
      query.failing === undefined ? undefined : { is: query.failing === 'true', since: failingSince() };
    const { items, total } = await this.notifications.findPage(query.offset, query.per_page, { failing });
    return new Page(items.map(toNotificationResponse), query, total);
  }

  /**
   * docs/reference/webhooks.md#97-failing-targets-and-the-summary: the targets the key may see,
   * counted in one statement.
   */
  async summary(): Promise<NotificationSummaryResponse> {
    const { total, paused, failing } = await this.notifications.countByHealth(failingSince());
    return { total, running: total - paused, paused, failing };
  }

  /** 409 while anything references it (docs/reference/notifications.md); `If-Match` as for update. */
  async remove(id: string, options: { ifMatch?: IfMatch | null } = {}): Promise<string> {
    await this.writes.remove(
      id,
      async (_, version, tx) => {
        const deleted = await this.notifications.deleteById(id, version, tx);
        return deleted === 'in_use' ? deleted : deleted === 'deleted';
      },
      options,
    );
    return 'Notification deleted successfully';
  }

  /** A signing key or a channel's configuration as stored: sealed when STORAGE_ENCRYPTION_KEY is set. */
  sealKey(key: string): string {
    return this.cipher ? this.cipher.encrypt(key) : key;
  }

  /** What sealKey stored, in clear. */
  openKey(key: string | null): string | null {
    return key && isEncrypted(key) && this.cipher ? this.cipher.decrypt(key) : key;
  }
}
