import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import { RelayerScope } from '../common/auth/relayer-scope';
import { ScopedMetrics } from './scoped-metrics';

/** A registry holding one metric of each kind the rule tells apart. */
function registry(): Registry {
  const registers = [new Registry()];
  const balance = new Gauge({
    name: 'relayer_balance',
    help: 'b',
    labelNames: ['relayer_id', 'network'],
    registers,
  });
  balance.set({ relayer_id: 'team-a-1', network: 'sepolia' }, 1);
  balance.set({ relayer_id: 'team-b-1', network: 'sepolia' }, 2);
  balance.set({ relayer_id: 'TEAM-A-2', network: 'sepolia' }, 3);
  new Gauge({
    name: 'api_key_expiry_timestamp_seconds',
    help: 'k',
    labelNames: ['key_id', 'name'],
    registers,
  }).set({ key_id: 'k1', name: 'team-b deploy' }, 9);
  new Gauge({ name: 'relayers_system_disabled', help: 'd', registers }).set(4);
  new Counter({ name: 'webhook_deliveries_total', help: 'w', labelNames: ['outcome'], registers }).inc({
    outcome: 'delivered',
  });
  new Histogram({ name: 'http_request_duration_seconds', help: 'h', buckets: [1], registers }).observe(0.5);
  new Gauge({ name: 'per_target', help: 't', labelNames: ['notification_id'], registers }).set(
    { notification_id: 'team-b-hook' },
    5,
  );
  return registers[0];
}

describe('ScopedMetrics (docs/reference/keys-and-audit.md#37-metrics)', () => {
  const scope = RelayerScope.of(['team-a-*']);

  it('shows a scoped key the service’s own metrics and those of resources, never keys’ nor totals over every team', () => {
    const metrics = new ScopedMetrics(registry());
    expect(metrics.visible(scope).map((metric) => metric.name)).toEqual([
      'relayer_balance',
      'http_request_duration_seconds',
      'per_target',
    ]);
    expect(metrics.visible(null)).toHaveLength(6);
  });

  it('keeps the series whose resource ids the scope covers, byte for byte, in the text prom-client writes', async () => {
    const source = registry();
    const metrics = new ScopedMetrics(source);
    const [balance, histogram, target] = metrics.visible(scope);
    expect(await metrics.text(balance, scope)).toBe(
      '# HELP relayer_balance b\n# TYPE relayer_balance gauge\nrelayer_balance{relayer_id="team-a-1",network="sepolia"} 1',
    );
    expect(await metrics.text(histogram, scope)).toBe(await source.getSingleMetricAsString(histogram.name));
    expect(await metrics.text(target, scope)).toBe('# HELP per_target t\n# TYPE per_target gauge');
  });

  it('scrapes what it shows, as Registry#metrics() writes it; without a scope, exactly that', async () => {
    const source = registry();
    const metrics = new ScopedMetrics(source);
    expect(await metrics.scrape(null)).toBe(await source.metrics());
    const text = await metrics.scrape(scope);
    expect(text.endsWith('\n')).toBe(true);
    expect(text).toContain('relayer_balance{relayer_id="team-a-1",network="sepolia"} 1\n');
    for (const hidden of ['team-b', 'TEAM-A-2', 'api_key', 'relayers_system_disabled', 'webhook_']) {
      expect({ hidden, found: text.includes(hidden) }).toEqual({ hidden, found: false });
    }
  });
});
