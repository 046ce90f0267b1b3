import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { RelayersModule } from '../relayers/relayers.module';
import { BalanceAlertsService } from './balance-alerts.service';
import { NetworkBalanceAlertRules, RelayerBalanceAlertRules } from './balance-alerts.validation';
import { NetworkBalanceAlertController } from './network-balance-alert.controller';
import { NetworkBalanceAlertEntity } from './network-balance-alert.entity';
import { NetworkBalanceAlertsRepository } from './network-balance-alerts.repository';
import { RelayerBalanceAlertController } from './relayer-balance-alert.controller';
import { RelayerBalanceAlertEntity } from './relayer-balance-alert.entity';
import { RelayerBalanceAlertsRepository } from './relayer-balance-alerts.repository';

/** Balance alerts (docs/reference/balance-alerts.md): the rules; the health checks evaluate them. */
@Module({
  imports: [TypeOrmModule.forFeature([NetworkBalanceAlertEntity, RelayerBalanceAlertEntity]), RelayersModule],
  controllers: [RelayerBalanceAlertController, NetworkBalanceAlertController],
  providers: [
    BalanceAlertsService,
    NetworkBalanceAlertsRepository,
    RelayerBalanceAlertsRepository,
    NetworkBalanceAlertRules,
    RelayerBalanceAlertRules,
  ],
  exports: [BalanceAlertsService],
})
export class BalanceAlertsModule {}
