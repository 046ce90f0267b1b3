import type { Registry } from 'prom-client';
import type { RelayerScope } from '../common/auth/relayer-scope';

type MetricSnapshot = Awaited<ReturnType<Registry['getMetricsAsJSON']>>[number];

/** What every prom-client metric is at run time, beyond the registry's type of it. */
interface CollectedMetric {
  readonly name: string;
  readonly labelNames?: readonly string[];
  get(): Promise<MetricSnapshot>;
}

/**
 * prom-client's writer of one metric in Prometheus text, the one `metrics()` uses for each
 * (Registry#getMetricsAsString, in its code but not its types): a scoped view keeps its format.
 */
interface MetricTextWriter {
  getMetricsAsString(metric: Pick<CollectedMetric, 'get'>): Promise<string>;
}

/** Labels whose value is the id of a team's resource: a series is shown when each it carries is in scope. */
const RESOURCE_LABELS: readonly string[] = ['relayer_id', 'signer_id', 'notification_id'];
/** A label naming an API key: its series are the keys', never a team's. */
const KEY_LABEL = 'key_id';
/**
 * Families about teams' resources and API keys: a series of theirs without a resource label sums
 * over every team (`relayers_system_disabled`, `webhook_deliveries_total`).
 */
const TEAM_FAMILY = /^(?:relayers?|signers?|notifications?|webhooks?|api_keys?)_/;

/**
 * The metrics as a key limited to some ids sees them (docs/reference/keys-and-audit.md#3-relayer-scope):
 * a series naming a relayer, signer or target only when the scope covers it, no API-key series and
 * no total over every team; the service's own (process, HTTP, database, rate limit) as they are.
 * Null: every metric, as prom-client writes them.
 */
export class ScopedMetrics {
  private readonly writer: MetricTextWriter;

  constructor(private readonly registry: Registry) {
    const writer = registry as unknown as Partial<MetricTextWriter>;
    if (typeof writer.getMetricsAsString !== 'function') {
      throw new Error(
        'prom-client no longer has Registry#getMetricsAsString: src/metrics/scoped-metrics.ts needs it',
      );
    }
    this.writer = writer as MetricTextWriter;
  }

  /** The metrics `scope` may see, in the registry's order. */
  visible(scope: RelayerScope | null): CollectedMetric[] {
    const metrics = this.registry.getMetricsAsArray() as unknown as CollectedMetric[];
    return scope === null ? metrics : metrics.filter((metric) => shownToScope(metric));
  }

  /** One metric in Prometheus text, its series narrowed to `scope`. */
  async text(metric: CollectedMetric, scope: RelayerScope | null): Promise<string> {
    if (scope === null) return this.writer.getMetricsAsString(metric);
    return this.writer.getMetricsAsString({
      get: async () => {
        const snapshot = await metric.get();
        return { ...snapshot, values: snapshot.values.filter(({ labels }) => inScope(labels, scope)) };
      },
    });
  }

  /** Every metric `scope` may see, as `Registry#metrics()` writes them. */
  async scrape(scope: RelayerScope | null): Promise<string> {
    if (scope === null) return this.registry.metrics();
    const texts = await Promise.all(this.visible(scope).map((metric) => this.text(metric, scope)));
    return `${texts.join('\n\n')}\n`;
  }
}

function shownToScope(metric: CollectedMetric): boolean {
  const labels = metric.labelNames ?? [];
  if (labels.includes(KEY_LABEL)) return false;
  return labels.some((label) => RESOURCE_LABELS.includes(label)) || !TEAM_FAMILY.test(metric.name);
}

function inScope(
  labels: Readonly<Record<string, string | number | undefined>>,
  scope: RelayerScope,
): boolean {
  return RESOURCE_LABELS.every((label) => {
    const id = labels[label];
    return id === undefined || scope.covers(String(id));
  });
}
