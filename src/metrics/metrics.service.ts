import { Injectable } from '@nestjs/common';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { RelayerScope } from '../common/auth/relayer-scope';
import { NotFoundError } from '../common/errors/domain-errors';
import { DatabaseDialect } from '../database/dialects/database-dialect';
import { ScopedMetrics } from './scoped-metrics';

/**
 * A registry per application, so that tests can run several applications in one process. Every
 * reading of it goes through `names`, `metricText` and `scrape`, which show a request's key only what
 * its scope may see (ScopedMetrics, docs/reference/keys-and-audit.md#3-relayer-scope).
 */
@Injectable()
export class MetricsService {
  readonly registry = new Registry();
  private readonly scoped = new ScopedMetrics(this.registry);

  readonly requests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests answered, by method, route and status',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [this.registry],
  });

  readonly duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time to answer HTTP requests, by method, route and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });

  readonly rateLimited = new Counter({
    name: 'rate_limit_rejections_total',
    help: 'Requests refused with 429 by the rate limit',
    registers: [this.registry],
  });

  readonly databaseErrors = new Counter({
    name: 'database_errors_total',
    help: 'Database errors seen by requests, by kind (unavailable or query)',
    labelNames: ['kind'] as const,
    registers: [this.registry],
  });

  constructor(dialect: DatabaseDialect) {
    collectDefaultMetrics({ register: this.registry });
    new Gauge({
      name: 'database_pool_connections',
      help: 'Connections of the MySQL pool by state (total, free, waiting requests); SQLite has one',
      labelNames: ['state'] as const,
      registers: [this.registry],
      collect() {
        for (const [state, count] of Object.entries(dialect.poolConnections())) this.set({ state }, count);
      },
    });
  }

  /** Every metric's name the request's key may see, sorted (as the reference system's registry gathers them). */
  names(): string[] {
    return this.scoped
      .visible(RelayerScope.current())
      .map((metric) => metric.name)
      .sort();
  }

  async metricText(name: string): Promise<string> {
    // Looked up by name among those shown: the registry's own lookup is a plain object, where `constructor` exists.
    const scope = RelayerScope.current();
    const metric = this.scoped.visible(scope).find((candidate) => candidate.name === name);
    if (!metric) throw new NotFoundError('Metric not found');
    return `${await this.scoped.text(metric, scope)}\n`;
  }

  /** Every metric the request's key may see, in Prometheus text (every one outside a request). */
  scrape(): Promise<string> {
    return this.scoped.scrape(RelayerScope.current());
  }
}
