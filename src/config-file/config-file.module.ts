import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AlertChannelsModule } from '../alert-channels/alert-channels.module';
import { CatalogueModule } from './catalogue.module';
import { NetworksModule } from '../networks/networks.module';
import { NotificationsModule } from '../notifications/notifications.module';
import { RelayersModule } from '../relayers/relayers.module';
import { SignersModule } from '../signers/signers.module';
import { ConfigEntriesRepository } from './config-entries.repository';
import { ConfigEntryEntity } from './config-entry.entity';
import { ConfigExportService } from './config-export.service';
import { ConfigFileController } from './config-file.controller';
import { ConfigReconciler } from './config-reconciler';
import { declareResource } from '../common/auth/resources';

// Its resource, permissions and audited type (docs/reference/extension-events.md).
declareResource({ name: 'config', permissions: ['config:read'] });

/**
 * The configuration file's relayers, notifications and alert channels applied at start, and the state
 * taken back out.
 */
@Module({
  imports: [
    TypeOrmModule.forFeature([ConfigEntryEntity]),
    AlertChannelsModule,
    CatalogueModule,
    NetworksModule,
    NotificationsModule,
    RelayersModule,
    SignersModule,
  ],
  controllers: [ConfigFileController],
  providers: [ConfigReconciler, ConfigExportService, ConfigEntriesRepository],
  exports: [ConfigReconciler],
})
export class ConfigFileModule {}
