import { Injectable } from '@nestjs/common';
import { NotificationsRepository } from './notifications.repository';
import { ALERT_CHANNELS, type TargetKind } from './target-kind';

/** The alert channels' rows of `notifications` (docs/reference/alert-channels.md), read as the webhooks' are. */
@Injectable()
export class AlertChannelsRepository extends NotificationsRepository {
  override readonly kind: TargetKind = ALERT_CHANNELS;
}
