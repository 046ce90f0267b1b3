import { Injectable } from '@nestjs/common';
import { Counter, Gauge, Histogram } from 'prom-client';
import { BalanceAlertsService } from '../balance-alerts';
import { networkId, type NetworkType } from '../catalogue';
import { MetricsService } from '../metrics';
import type { CheckResult } from './network-checks';
import { RelayerChecksRepository } from './relayer-checks.repository';

/** Gauges of one scrape share one read of the database. */
const SAMPLE_REUSE_MS = 500;

interface BalanceSample {
  readonly labels: { relayer_id: string; network_type: string; network: string };
  readonly balance: number;
  readonly low: boolean;
}

@Injectable()
export class RelayerHealthMetrics {
  private readonly checks: Counter<'network_type' | 'outcome' | 'reason'>;
  private readonly latency: Histogram<'network_type'>;

  /** One read per scrape feeds the three balance gauges; the last one is kept when the database fails. */
  private balances: Promise<BalanceSample[]> | null = null;
  private lastBalances: BalanceSample[] = [];

  constructor(
    metrics: MetricsService,
    private readonly checkRows: RelayerChecksRepository,
    private readonly alerts: BalanceAlertsService,
  ) {
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
        this.set(await checkRows.countDisabled().catch(() => 0));
      },
    });
    // docs/reference/balance-alerts.md#6-metrics
    const sample = () => this.sampleBalances();
    const labelNames = ['relayer_id', 'network_type', 'network'] as const;
    new Gauge({
      name: 'relayer_balance',
      help: 'Balance found by the last check of each enabled relayer, in the base unit (wei, lamport, stroop)',
      labelNames,
      registers: [metrics.registry],
      async collect() {
        const samples = await sample();
        this.reset();
        for (const { labels, balance } of samples) this.set(labels, balance);
      },
    });
    new Gauge({
      name: 'relayer_low_balance',
      help: 'Whether the last check of each enabled relayer found its balance below its alert threshold (1) or not (0)',
      labelNames,
      registers: [metrics.registry],
      async collect() {
        const samples = await sample();
        this.reset();
        for (const { labels, low } of samples) this.set(labels, low ? 1 : 0);
      },
    });
    new Gauge({
      name: 'relayers_low_balance',
      help: 'Enabled relayers whose last check found their balance below their alert threshold',
      registers: [metrics.registry],
      async collect() {
        this.set((await sample()).filter((s) => s.low).length);
      },
    });
  }

  /** Shared by the gauges of one scrape (they are collected together). */
  private sampleBalances(): Promise<BalanceSample[]> {
    this.balances ??= this.readBalances()
      .then((samples) => (this.lastBalances = samples))
      .catch(() => this.lastBalances)
      .finally(() => setTimeout(() => (this.balances = null), SAMPLE_REUSE_MS).unref());
    return this.balances;
  }

  private async readBalances(): Promise<BalanceSample[]> {
    const [rows, { own, byNetwork }] = await Promise.all([
      this.checkRows.findCheckedEnabled(),
      this.alerts.allThresholds(),
    ]);
    return rows.map((row) => {
      const threshold = own.has(row.id)
        ? own.get(row.id)
        : byNetwork.get(networkId(row.networkType as NetworkType, row.network));
      return {
        labels: { relayer_id: row.id, network_type: row.networkType, network: row.network },
        balance: Number(row.balance),
        // The stored state of the last comparison, while a threshold still applies.
        low: threshold != null && row.balanceLow === true,
      };
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
