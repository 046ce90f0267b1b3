import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { FieldCipher } from '../common/security/field-cipher';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/app-config.module';
import { NotificationEntity } from './notification.entity';
import { NotificationsController } from './notifications.controller';
import { AlertChannelsRepository } from './alert-channels.repository';
import { NotificationsRepository } from './notifications.repository';
import { NotificationsService, SIGNING_KEY_CIPHER } from './notifications.service';
import { NotificationCreateRules, NotificationPatchRules } from './notifications.validation';
import { NotificationStateService } from './notification-state.service';
import { declareResource } from '../common/auth/resources';

// Its resource, permissions and audited type (docs/reference/extension-events.md).
declareResource({
  name: 'notification',
  permissions: ['notifications:read', 'notifications:write'],
  audited: true,
});

@Module({
  imports: [TypeOrmModule.forFeature([NotificationEntity])],
  controllers: [NotificationsController],
  providers: [
    NotificationsRepository,
    AlertChannelsRepository,
    NotificationsService,
    NotificationCreateRules,
    NotificationPatchRules,
    NotificationStateService,
    {
      provide: SIGNING_KEY_CIPHER,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) =>
        config.storageEncryptionKey ? FieldCipher.fromBase64Key(config.storageEncryptionKey) : null,
    },
  ],
  exports: [
    NotificationsService,
    NotificationStateService,
    NotificationCreateRules,
    NotificationPatchRules,
    AlertChannelsRepository,
  ],
})
export class NotificationsModule {}
