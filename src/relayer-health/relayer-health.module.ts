import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { BalanceAlertsModule } from '../balance-alerts/balance-alerts.module';
import { OutboundHttpModule } from '../common/security/outbound-http.module';
import { MetricsModule } from '../metrics/metrics.module';
import { NetworksModule } from '../networks/networks.module';
import { RelayersModule } from '../relayers/relayers.module';
import { RelayerHealthScheduler } from './relayer-health-scheduler';
import { RelayerCheckEntity } from './relayer-check.entity';
import { RelayerChecksRepository } from './relayer-checks.repository';
import { RelayerHealthController } from './relayer-health.controller';
import { RelayerHealthMetrics } from './relayer-health-metrics';
import { RelayerHealthService } from './relayer-health.service';
import { RpcFetch } from './rpc-fetch';
import { HEALTH_CHECKS } from './network-checks';
import { BalanceHistoryService } from './balance-history.service';
import { RelayerBalanceSampleEntity } from './relayer-balance-sample.entity';
import { RelayerBalanceSamplesRepository } from './relayer-balance-samples.repository';

@Module({
  imports: [
    TypeOrmModule.forFeature([RelayerCheckEntity, RelayerBalanceSampleEntity]),
    BalanceAlertsModule,
    NetworksModule,
    MetricsModule,
    OutboundHttpModule,
    RelayersModule,
  ],
  controllers: [RelayerHealthController],
  providers: [
    RelayerChecksRepository,
    RelayerBalanceSamplesRepository,
    BalanceHistoryService,
    RelayerHealthService,
    RelayerHealthMetrics,
    RelayerHealthScheduler,
    RpcFetch,
    ...HEALTH_CHECKS,
  ],
  exports: [RelayerHealthService],
})
export class RelayerHealthModule {}
