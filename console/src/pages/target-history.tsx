import { useState } from 'preact/hooks';
import { DeliveriesChart, LatencyChart } from '../chart';
import { Loaded, useLoad } from '../components';
import type { TargetCalls } from '../target-calls';

const WINDOWS = ['24h', '7d'] as const;
type SeriesWindow = (typeof WINDOWS)[number];
const WINDOW_LABEL: Record<SeriesWindow, string> = { '24h': '24 hours', '7d': '7 days' };

/**
 * A target's (or a channel's) deliveries and p95 latency hour by hour over 24 hours or 7 days
 * (GET .../stats/series?window=, docs/reference/webhooks.md#95-the-hourly-series), as charts. Read
 * when the page opens, on the switch and after an action, not every 15 s: a 7 d series costs 169
 * statements.
 */
export function HistoryPanel({ target, round }: { target: TargetCalls; round: number }) {
  const [span, setSpan] = useState<SeriesWindow>('24h');
  const [load, reload] = useLoad(() => target.series(span), [target.kind, target.id, span, round]);
  return (
    <section class="panel" aria-labelledby="history-heading">
      <h2 id="history-heading">Deliveries per hour</h2>
      <div class="window-switch" role="group" aria-label="Chart window">
        {WINDOWS.map((w) => (
          <button type="button" key={w} aria-pressed={w === span} onClick={() => setSpan(w)}>
            Last {WINDOW_LABEL[w]}
          </button>
        ))}
      </div>
      <Loaded load={load} what="the hourly series" retry={reload}>
        {(series) => (
          <>
            <DeliveriesChart buckets={series.buckets} window={series.window} />
            <LatencyChart buckets={series.buckets} window={series.window} />
          </>
        )}
      </Loaded>
    </section>
  );
}
