import { Injectable } from '@nestjs/common';
import { ReferenceRegistry } from '../common/references/reference-registry';

/** Who references a notification (relayers): one in use cannot be deleted (docs/reference/notifications.md). */
@Injectable()
export class NotificationUsersRegistry extends ReferenceRegistry {}
