import { Injectable } from '@nestjs/common';
import { Counter, Gauge, Histogram } from 'prom-client';
import type { NetworkType } from '../catalogue';
import { MetricsService } from '../metrics';
import type { CheckResult } from './network-checks';
import { RelayerChecksRepository } from './relayer-checks.repository';

@Injectable()
export class RelayerHealthMetrics {
  private readonly checks: Counter<'network_type' | 'outcome' | 'reason'>;
  private readonly latency: Histogram<'network_type'>;

  constructor(metrics: MetricsService, checks: RelayerChecksRepository) {
    this.checks = new Counter({
      name: 'relayer_health_checks_total',
      help: 'Relayer health checks by network type, outcome (passed or failed) and reason of failure',
      labelNames: ['network_type', 'outcome', 'reason'] as const,
      registers: [metrics.registry],
    });
    this.latency = new Histogram({
      name: 'relayer_health_check_duration_seconds',
      help: 'Time of one relayer health check (every RPC call of it), by network type',
      labelNames: ['network_type'] as const,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers: [metrics.registry],
    });
    new Gauge({
      name: 'relayers_system_disabled',
      help: 'Relayers disabled by their health checks now',
      registers: [metrics.registry],
      async collect() {
        this.set(await checks.countDisabled().catch(() => 0));
      },
    });
  }

  observe(networkType: NetworkType, result: CheckResult, seconds: number): void {
    this.checks.inc({
      network_type: networkType,
      outcome: result.ok ? 'passed' : 'failed',
      reason: result.ok ? 'none' : result.reason,
    });
    this.latency.observe({ network_type: networkType }, seconds);
  }
}
