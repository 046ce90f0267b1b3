import { Module, type OnModuleInit } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { BalanceAlertsService } from '../balance-alerts';
import { BalanceAlertsModule } from '../balance-alerts/balance-alerts.module';
import { OutboundHttpModule } from '../common/security/outbound-http.module';
import { MetricsModule } from '../metrics/metrics.module';
import { NetworksModule } from '../networks/networks.module';
import { RelayersModule } from '../relayers/relayers.module';
import { RelayersService } from '../relayers';
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
export class RelayerHealthModule implements OnModuleInit {
  /** @internal Nest injects them. */
  constructor(
    private readonly alerts: BalanceAlertsService,
    private readonly relayers: RelayersService,
    private readonly health: RelayerHealthService,
  ) {}

  /**
   * A threshold written is compared at once with the balances the checks read
   * (docs/reference/balance-alerts.md#34-a-threshold-written); the relayers' list includes each
   * relayer's status from here (docs/reference/relayers.md#36-the-status-of-each-item).
   */
  onModuleInit(): void {
    this.alerts.compareWritesWith((change, tx) => this.health.compareThreshold(change, tx));
    this.relayers.registerStatusSource({ statusesOf: (relayers) => this.health.statusesOf(relayers) });
  }
}
