import { Inject, Injectable } from '@nestjs/common';
import { NotFoundError, ValidationError } from '../common/errors/domain-errors';
import { RequestContext } from '../common/http/request-context';
import { isEncrypted, type FieldCipher } from '../common/security/field-cipher';
import { ResourceWrites, STALE } from '../database/resource-writes';
import { SubResourceWrites } from '../database/sub-resource-writes';
import { Transactions } from '../database/transactions';
import { NotificationResponse, NotificationStateResponse, RotateSigningKeyDto } from './dto/notification.dto';
import { NotificationEntity } from './notification.entity';
import { NOTIFICATION_RESUMED, type NotificationEvent } from './notification-events';
import { toNotificationResponse } from './notification.mapper';
import { toNotificationStateResponse } from './notification-state.mapper';
import { AlertChannelsRepository } from './alert-channels.repository';
import { NotificationsRepository, type PauseChanges } from './notifications.repository';
import { ALERT_CHANNELS, WEBHOOK_TARGETS, type TargetKind } from './target-kind';
import { PutSigningSchemeDto, SigningSchemeResponse } from './dto/signing-scheme.dto';
import { assertKeyFitsScheme, SCHEME_NEEDS_WHSEC_KEY, standardWebhooksSecret } from './signing-scheme';
import { notificationNotFound } from './notifications.errors';
import { SIGNING_KEY_CIPHER } from './notifications.service';

/** paused_reason of a pause by hand. */
const PAUSED_BY_HAND = 'paused by hand';
const MAX_REASON = 600;
const SYSTEM = { type: 'system', id: 'system', name: 'service' } as const;

/**
 * A target's pause, its signing-key rotation and its signing scheme
 * (docs/reference/webhooks.md#10-pausing-a-target, #rotating-the-signing-key, #13-standard-webhooks):
 * each change is audited as `notification.update`. An alert channel pauses as a webhook does, audited
 * as `alert_channel.update` (TargetKind); keys and schemes are the webhooks'. A pause and a scheme are sub-resources
 * (SubResourceWrites): the notification's version stays, its answer does not change; a rotation is a
 * change of the notification (ResourceWrites), as a PATCH of its key is.
 */
@Injectable()
export class NotificationStateService {
  private readonly pauses = new Map<
    TargetKind,
    SubResourceWrites<NotificationEntity, NotificationStateResponse>
  >();
  private readonly rows: ReadonlyMap<TargetKind, NotificationsRepository>;
  private readonly keys: ResourceWrites<NotificationEntity, NotificationResponse>;
  private readonly schemes: SubResourceWrites<NotificationEntity, SigningSchemeResponse>;

  /** @internal Nest injects it. */
  constructor(
    private readonly notifications: NotificationsRepository,
    channels: AlertChannelsRepository,
    transactions: Transactions,
    @Inject(SIGNING_KEY_CIPHER) private readonly cipher: FieldCipher | null,
  ) {
    this.rows = new Map([
      [WEBHOOK_TARGETS, notifications],
      [ALERT_CHANNELS, channels],
    ]);
    for (const [kind, rows] of this.rows) {
      const writes = new SubResourceWrites(transactions, {
        name: kind.name,
        notFound: () => kind.notFound(),
        read: (id, tx) => rows.findForUpdate(id, tx),
        toResponse: (entity: NotificationEntity) => toNotificationStateResponse(entity),
      });
      this.pauses.set(kind, writes);
    }
    this.keys = new ResourceWrites(transactions, {
      name: 'notification',
      event: (notification): NotificationEvent => ({ notification }),
      notFound: () => notificationNotFound(),
      read: (id, tx) => this.notifications.findById(id, tx),
      toResponse: toNotificationResponse,
    });
    this.schemes = new SubResourceWrites(transactions, {
      name: 'notification',
      notFound: () => notificationNotFound(),
      read: (id, tx) => this.notifications.findForUpdate(id, tx),
      toResponse: (entity) => ({ scheme: entity.signingScheme }),
    });
  }

  async get(id: string, kind: TargetKind = WEBHOOK_TARGETS): Promise<NotificationStateResponse> {
    return toNotificationStateResponse(await this.read(id, kind));
  }

  /** Already paused: answered as it is, nothing recorded. */
  pause(id: string, kind: TargetKind = WEBHOOK_TARGETS): Promise<NotificationStateResponse> {
    return this.setPause(id, kind, { pausedAt: new Date(), pausedReason: PAUSED_BY_HAND });
  }

  /** Not paused: answered as it is. Otherwise its backlog goes out, in commit order. */
  resume(id: string, kind: TargetKind = WEBHOOK_TARGETS): Promise<NotificationStateResponse> {
    return this.setPause(id, kind, { pausedAt: null, pausedReason: null });
  }

  /**
   * The target paused itself: `failures` deliveries in a row ended failed, the last with
   * `lastError`. Recorded as the system's change, whatever started the dispatcher's round; a
   * target already paused stays as it was. Whether it is paused now.
   */
  async pauseAfterFailures(
    id: string,
    kind: TargetKind,
    failures: number,
    lastError: string,
  ): Promise<boolean> {
    const reason = `${failures} deliveries in a row failed; the last: ${lastError}`.slice(0, MAX_REASON);
    try {
      const state = await RequestContext.runAs(SYSTEM, () =>
        this.setPause(id, kind, { pausedAt: new Date(), pausedReason: reason }),
      );
      return state.paused;
    } catch (error) {
      // Deleted meanwhile: nothing left to pause.
      if (error instanceof NotFoundError) return false;
      throw error;
    }
  }

  /**
   * docs/reference/webhooks.md#11-rotating-the-signing-key: the new key signs from now on; the one it
   * replaces signs too until `overlap_seconds` have passed (none without a key before, or with 0).
   */
  async rotateSigningKey(id: string, dto: RotateSigningKeyDto): Promise<NotificationStateResponse> {
    const key = this.cipher ? this.cipher.encrypt(dto.signing_key) : dto.signing_key;
    await this.keys.update(
      id,
      (current) => {
        const now = new Date();
        const overlap = dto.overlap_seconds > 0 && current.signingKey !== null;
        return {
          signingKey: key,
          previousSigningKey: overlap ? current.signingKey : null,
          signingKeyOverlapUntil: overlap ? new Date(now.getTime() + dto.overlap_seconds * 1000) : null,
          updatedAt: now,
        };
      },
      async (current, write, tx) => {
        await assertKeyFitsScheme(this.notifications, id, dto.signing_key, tx);
        if (!(await this.notifications.update(id, write, current.version, tx))) return STALE;
      },
    );
    return this.get(id);
  }

  async getSigningScheme(id: string): Promise<SigningSchemeResponse> {
    return { scheme: (await this.read(id, WEBHOOK_TARGETS)).signingScheme };
  }

  /**
   * docs/reference/webhooks.md#13-standard-webhooks: `standard` needs a whsec_ key, read locked with
   * the row (a key written meanwhile is seen). The same scheme again: answered, nothing recorded.
   */
  putSigningScheme(id: string, { scheme }: PutSigningSchemeDto): Promise<SigningSchemeResponse> {
    return this.schemes.write(
      id,
      (current) => {
        if (current.signingScheme === scheme) return null;
        if (scheme === 'standard' && standardWebhooksSecret(this.openKey(current.signingKey)) === null) {
          throw new ValidationError(SCHEME_NEEDS_WHSEC_KEY);
        }
        return { ...current, signingScheme: scheme };
      },
      async (_current, next, tx) => {
        await this.notifications.setSigningScheme(id, { signingScheme: next.signingScheme }, tx);
      },
    );
  }

  private setPause(id: string, kind: TargetKind, changes: PauseChanges): Promise<NotificationStateResponse> {
    const pausing = changes.pausedAt !== null;
    const pauses = this.pauses.get(kind);
    if (!pauses) throw new Error(`no pause writes for ${kind.name}`);
    return pauses.write(
      id,
      (current) => ((current.pausedAt !== null) === pausing ? null : { ...current, ...changes }),
      async (_current, _next, tx) => {
        await this.notifications.setPause(id, changes, tx);
        if (!pausing) await tx.publish(NOTIFICATION_RESUMED, { notificationId: id });
      },
    );
  }

  private openKey(key: string | null): string | null {
    return key && isEncrypted(key) && this.cipher ? this.cipher.decrypt(key) : key;
  }

  private async read(id: string, kind: TargetKind): Promise<NotificationEntity> {
    const entity = await this.rows.get(kind)?.findById(id);
    if (!entity) throw kind.notFound();
    return entity;
  }
}
