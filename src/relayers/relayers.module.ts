import { Module, type OnModuleInit } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CatalogueModule } from '../catalogue/catalogue.module';
import { SignerUsersRegistry } from '../signers/signer-users';
import { SignersModule } from '../signers/signers.module';
import { NotificationUsersRegistry } from '../notifications/notification-users';
import { NotificationsModule } from '../notifications/notifications.module';
import { RelayerEntity } from './relayer.entity';
import { RelayersController } from './relayers.controller';
import { RelayersRepository } from './relayers.repository';
import { RelayersService } from './relayers.service';

@Module({
  imports: [TypeOrmModule.forFeature([RelayerEntity]), CatalogueModule, SignersModule, NotificationsModule],
  controllers: [RelayersController],
  providers: [RelayersRepository, RelayersService],
  exports: [RelayersService],
})
export class RelayersModule implements OnModuleInit {
  constructor(
    private readonly notificationUsers: NotificationUsersRegistry,
    private readonly signerUsers: SignerUsersRegistry,
    private readonly relayers: RelayersRepository,
  ) {}

  /** Relayers reference notifications: a notification they use cannot be deleted (docs/reference/notifications.md). */
  onModuleInit(): void {
    this.notificationUsers.register({
      kind: 'relayers',
      findIdsUsing: (notificationId, limit) => this.relayers.findIdsByNotification(notificationId, limit),
    });
    // ...and signers: a signer they use cannot be deleted (docs/reference/networks-and-signers.md#3-signers).
    this.signerUsers.register({
      kind: 'relayers',
      findIdsUsing: (signerId, limit, manager) => this.relayers.findIdsBySigner(signerId, limit, manager),
    });
  }
}
