import { Inject, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { NotFoundError, ValidationError } from '../common/errors/domain-errors';
import { Page, PageQueryDto } from '../common/http/page';
import { FieldCipher } from '../common/security/encryption';
import { checkUrl } from '../common/security/url-policy';
import { isPossibleId } from '../common/validation/field-rules';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { CreateNotificationDto, NotificationResponse, UpdateNotificationDto } from './dto/notification.dto';
import { NotificationEntity } from './notification.entity';
import { NotificationChanges, NotificationsRepository } from './notifications.repository';

/** The cipher for signing keys at rest, or null when STORAGE_ENCRYPTION_KEY is not set. */
export const SIGNING_KEY_CIPHER = Symbol('SIGNING_KEY_CIPHER');

export const NOTIFICATION_NOT_FOUND = 'Notification not found';

export function toNotificationResponse(entity: NotificationEntity): NotificationResponse {
  return { id: entity.id, type: entity.type, url: entity.url, has_signing_key: entity.signingKey !== null };
}

@Injectable()
export class NotificationsService {
  constructor(
    private readonly notifications: NotificationsRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(SIGNING_KEY_CIPHER) private readonly cipher: FieldCipher | null,
  ) {}

  async create(dto: CreateNotificationDto): Promise<NotificationResponse> {
    this.assertUrlAllowed(dto.url);
    const now = new Date();
    const entity = Object.assign(new NotificationEntity(), {
      id: dto.id ?? randomUUID(),
      type: dto.type ?? 'webhook',
      url: dto.url,
      signingKey: dto.signing_key ? this.sealKey(dto.signing_key) : null,
      createdAt: now,
      updatedAt: now,
    });
    await this.notifications.insert(entity);
    return toNotificationResponse(entity);
  }

  async update(id: string, dto: UpdateNotificationDto): Promise<NotificationResponse> {
    if (!isPossibleId(id) || !(await this.notifications.existsById(id))) {
      throw new NotFoundError(NOTIFICATION_NOT_FOUND);
    }
    const changes: NotificationChanges = {};
    if (dto.type != null) changes.type = dto.type;
    if (dto.url != null) {
      this.assertUrlAllowed(dto.url);
      changes.url = dto.url;
    }
    if (dto.signing_key === '') changes.signingKey = null;
    else if (dto.signing_key != null) changes.signingKey = this.sealKey(dto.signing_key);

    if (Object.keys(changes).length > 0 && !(await this.notifications.update(id, changes, new Date()))) {
      throw new NotFoundError(NOTIFICATION_NOT_FOUND);
    }
    return this.get(id);
  }

  async get(id: string): Promise<NotificationResponse> {
    const entity = isPossibleId(id) ? await this.notifications.findById(id) : null;
    if (!entity) throw new NotFoundError(NOTIFICATION_NOT_FOUND);
    return toNotificationResponse(entity);
  }

  async list(query: PageQueryDto): Promise<Page<NotificationResponse>> {
    const { items, total } = await this.notifications.findPage(query.offset, query.per_page);
    return new Page(items.map(toNotificationResponse), query, total);
  }

  /** 409 naming the relayers while any relayer references the notification (contract 8). */
  async remove(id: string): Promise<string> {
    if (!isPossibleId(id) || !(await this.notifications.existsById(id)))
      throw new NotFoundError(NOTIFICATION_NOT_FOUND);
    if ((await this.notifications.findReferencingRelayerIds(id)).length > 0) {
      throw await this.notifications.inUseError(id);
    }
    if (!(await this.notifications.deleteById(id))) throw new NotFoundError(NOTIFICATION_NOT_FOUND);
    return 'Notification deleted successfully';
  }

  private assertUrlAllowed(url: string): void {
    const reason = checkUrl(url, this.config.webhookUrlPolicy);
    if (reason !== null) throw new ValidationError(`url ${reason}`);
  }

  private sealKey(key: string): string {
    return this.cipher ? this.cipher.encrypt(key) : key;
  }
}
