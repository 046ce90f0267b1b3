import { Module, type OnModuleInit } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { SignersModule } from '../signers/signers.module';
import { NotificationsModule } from '../notifications/notifications.module';
import { NotificationsService } from '../notifications';
import { SignersService } from '../signers';
import { RelayerEntity } from './relayer.entity';
import { RelayersController } from './relayers.controller';
import { RelayersRepository } from './relayers.repository';
import { RelayerCreateRules, RelayerPatchRules } from './relayers.validation';
import { RelayersService } from './relayers.service';
import { declareResource } from '../common/auth/resources';

// Its resource, permissions and audited type (docs/reference/extension-events.md).
declareResource({ name: 'relayer', permissions: ['relayers:read', 'relayers:write'], audited: true });

@Module({
  imports: [TypeOrmModule.forFeature([RelayerEntity]), SignersModule, NotificationsModule],
  controllers: [RelayersController],
  providers: [RelayersRepository, RelayersService, RelayerCreateRules, RelayerPatchRules],
  exports: [RelayersService, RelayerCreateRules, RelayerPatchRules],
})
export class RelayersModule implements OnModuleInit {
  /** @internal Nest injects it. */
  constructor(
    private readonly notifications: NotificationsService,
    private readonly signers: SignersService,
    private readonly relayers: RelayersRepository,
  ) {}

  /**
   * Relayers reference notifications: a notification they use cannot be deleted (docs/reference/notifications.md).
   * The 409 names those the request's key may see and counts the others (docs/reference/keys-and-audit.md#3-relayer-scope).
   */
  onModuleInit(): void {
    this.notifications.registerUsers({
      kind: 'relayers',
      findIdsUsing: (notificationId, limit) =>
        this.relayers.findIdsBy('notification_id', notificationId, limit),
      countHiddenUsing: (notificationId) =>
        this.relayers.countOutsideScope('notification_id', notificationId),
    });
    // ...and signers: a signer they use cannot be deleted (docs/reference/networks-and-signers.md#3-signers).
    this.signers.registerUsers({
      kind: 'relayers',
      findIdsUsing: (signerId, limit, tx) => this.relayers.findIdsBy('signer_id', signerId, limit, tx),
      countHiddenUsing: (signerId, tx) => this.relayers.countOutsideScope('signer_id', signerId, tx),
    });
  }
}
