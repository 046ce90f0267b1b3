// Charts as plain SVG: no library, nothing but presentation attributes (the page's policy allows no
// inline style). Each chart is a <figure> whose caption says what it shows, an SVG described for
// screen readers, a native tooltip (<title>) on each bar or point with its exact values, and the same
// numbers as a table under "Show the numbers".
import type { ComponentChildren } from 'preact';

/** The drawing's own units: the SVG scales to its frame's width, text with it. */
const WIDTH = 640;
const HEIGHT = 180;
const PAD = { top: 12, right: 12, bottom: 26, left: 56 };
const PLOT_W = WIDTH - PAD.left - PAD.right;
const PLOT_H = HEIGHT - PAD.top - PAD.bottom;

/**
 * A "nice" upper bound for an axis whose largest value is `max`: 1, 2, 2.5 or 5 times a power of ten,
 * at least `max` (1 for nothing, so that an empty chart still has an axis).
 */
export function niceCeiling(max: number): number {
  if (!(max > 0)) return 1;
  const power = 10 ** Math.floor(Math.log10(max));
  for (const step of [1, 2, 2.5, 5, 10]) if (step * power >= max) return step * power;
  return 10 * power;
}

/** The ticks of an axis from 0 to `ceiling`: 0, half and the top. */
export const ticksOf = (ceiling: number): number[] => [0, ceiling / 2, ceiling];

const compact = new Intl.NumberFormat('en', { notation: 'compact', maximumFractionDigits: 1 });

/** An hour's label on the x axis: the time (24 h) or the day and time (7 d), in the viewer's zone. */
function hourLabel(iso: string, withDay: boolean): string {
  const date = new Date(iso);
  return withDay
    ? date.toLocaleString(undefined, { weekday: 'short', hour: '2-digit', minute: '2-digit' })
    : date.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });
}

/** An hour in a table or a tooltip: its date and time, never ambiguous over 7 days (`5 Dec, 14:00`). */
function hourRow(iso: string): string {
  return new Date(iso).toLocaleString(undefined, {
    day: 'numeric',
    month: 'short',
    hour: '2-digit',
    minute: '2-digit',
  });
}

function Frame({
  caption,
  label,
  children,
  table,
}: {
  caption: string;
  label: string;
  children: ComponentChildren;
  table: ComponentChildren;
}) {
  return (
    <figure class="chart">
      <figcaption>{caption}</figcaption>
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-label={label} width="100%">
        {children}
      </svg>
      <details>
        <summary>Show the numbers</summary>
        <div class="table-frame">{table}</div>
      </details>
    </figure>
  );
}

/** The y axis: its gridlines and their labels, `format` for the values. */
function YAxis({ ceiling, format }: { ceiling: number; format: (value: number) => string }) {
  return (
    <g class="axis">
      {ticksOf(ceiling).map((tick) => {
        const y = PAD.top + PLOT_H - (tick / ceiling) * PLOT_H;
        return (
          <g key={tick}>
            <line x1={PAD.left} x2={WIDTH - PAD.right} y1={y} y2={y} class="grid" />
            <text x={PAD.left - 6} y={y + 4} text-anchor="end">
              {format(tick)}
            </text>
          </g>
        );
      })}
    </g>
  );
}

/** Labels under the x axis at the first, middle and last of `count` slots. */
function XLabels({ labels }: { labels: string[] }) {
  const count = labels.length;
  const picks = count === 0 ? [] : [...new Set([0, Math.floor((count - 1) / 2), count - 1])];
  return (
    <g class="axis">
      {picks.map((i) => (
        <text
          key={i}
          x={PAD.left + ((i + 0.5) / count) * PLOT_W}
          y={HEIGHT - 8}
          text-anchor={i === 0 ? 'start' : i === count - 1 ? 'end' : 'middle'}
        >
          {labels[i]}
        </text>
      ))}
    </g>
  );
}

export interface HourBucket {
  start: string;
  delivered: number;
  failed: number;
  p95_ms: number | null;
}

/** Deliveries per hour, delivered and failed stacked, over 24 h or 7 d. */
export function DeliveriesChart({ buckets, window }: { buckets: HourBucket[]; window: '24h' | '7d' }) {
  const withDay = window === '7d';
  const ceiling = niceCeiling(Math.max(0, ...buckets.map((b) => b.delivered + b.failed)));
  const slot = buckets.length === 0 ? PLOT_W : PLOT_W / buckets.length;
  const delivered = buckets.reduce((sum, b) => sum + b.delivered, 0);
  const failed = buckets.reduce((sum, b) => sum + b.failed, 0);
  const y = (value: number): number => (value / ceiling) * PLOT_H;
  return (
    <Frame
      caption={`Deliveries per hour, last ${window === '7d' ? '7 days' : '24 hours'}`}
      label={`Deliveries per hour over the last ${window}: ${delivered.toLocaleString('en')} delivered, ${failed.toLocaleString('en')} failed`}
      table={
        <table>
          <thead>
            <tr>
              <th scope="col">Hour</th>
              <th scope="col">Delivered</th>
              <th scope="col">Failed</th>
              <th scope="col">p95</th>
            </tr>
          </thead>
          <tbody>
            {buckets.map((b) => (
              <tr key={b.start}>
                <td>{hourRow(b.start)}</td>
                <td>{b.delivered}</td>
                <td>{b.failed}</td>
                <td>{b.p95_ms === null ? '–' : `${b.p95_ms} ms`}</td>
              </tr>
            ))}
          </tbody>
        </table>
      }
    >
      <YAxis ceiling={ceiling} format={(v) => compact.format(v)} />
      {buckets.map((b, i) => {
        const x = PAD.left + i * slot + slot * 0.1;
        const w = Math.max(1, slot * 0.8);
        const base = PAD.top + PLOT_H;
        return (
          <g key={b.start}>
            <title>{`${hourRow(b.start)}: ${b.delivered} delivered, ${b.failed} failed`}</title>
            <rect x={x} y={base - y(b.delivered)} width={w} height={y(b.delivered)} class="bar-ok" />
            <rect
              x={x}
              y={base - y(b.delivered) - y(b.failed)}
              width={w}
              height={y(b.failed)}
              class="bar-bad"
            />
          </g>
        );
      })}
      <XLabels labels={buckets.map((b) => hourLabel(b.start, withDay))} />
    </Frame>
  );
}

/** The p95 latency of each hour's delivered ones, as points joined where hours have one. */
export function LatencyChart({ buckets, window }: { buckets: HourBucket[]; window: '24h' | '7d' }) {
  const withDay = window === '7d';
  const ceiling = niceCeiling(Math.max(0, ...buckets.map((b) => b.p95_ms ?? 0)));
  const slot = buckets.length === 0 ? PLOT_W : PLOT_W / buckets.length;
  const point = (b: HourBucket, i: number): [number, number] => [
    PAD.left + (i + 0.5) * slot,
    PAD.top + PLOT_H - ((b.p95_ms ?? 0) / ceiling) * PLOT_H,
  ];
  const measured = buckets.filter((b) => b.p95_ms !== null);
  const worst = measured.reduce<HourBucket | null>(
    (top, b) => (top === null || (b.p95_ms ?? 0) > (top.p95_ms ?? 0) ? b : top),
    null,
  );
  // A line through consecutive measured hours; an hour without deliveries breaks it.
  const runs: string[] = [];
  let run: string[] = [];
  buckets.forEach((b, i) => {
    if (b.p95_ms === null) {
      if (run.length > 0) runs.push(run.join(' '));
      run = [];
      return;
    }
    run.push(point(b, i).join(','));
  });
  if (run.length > 0) runs.push(run.join(' '));
  return (
    <Frame
      caption={`p95 latency per hour, last ${window === '7d' ? '7 days' : '24 hours'}`}
      label={
        worst === null
          ? `No delivery in the last ${window}: no latency to show`
          : `p95 latency per hour over the last ${window}: highest ${worst.p95_ms} ms, at ${hourRow(worst.start)}`
      }
      table={
        <table>
          <thead>
            <tr>
              <th scope="col">Hour</th>
              <th scope="col">p95</th>
            </tr>
          </thead>
          <tbody>
            {buckets.map((b) => (
              <tr key={b.start}>
                <td>{hourRow(b.start)}</td>
                <td>{b.p95_ms === null ? '–' : `${b.p95_ms} ms`}</td>
              </tr>
            ))}
          </tbody>
        </table>
      }
    >
      <YAxis ceiling={ceiling} format={(v) => `${compact.format(v)} ms`} />
      {runs.map((points) => (
        <polyline key={points} points={points} class="line" fill="none" />
      ))}
      {buckets.map((b, i) => {
        if (b.p95_ms === null) return null;
        const [cx, cy] = point(b, i);
        return (
          <circle key={b.start} cx={cx} cy={cy} r={2.5} class="dot">
            <title>{`${hourRow(b.start)}: p95 ${b.p95_ms} ms`}</title>
          </circle>
        );
      })}
      <XLabels labels={buckets.map((b) => hourLabel(b.start, withDay))} />
    </Frame>
  );
}

export interface BalanceSample {
  at: string;
  balance: string;
}

/**
 * A balance over a window as a step line (the checks record a sample when the balance changes: it
 * holds until the next), from the window's start to now. `toNative` gives a base-unit amount in native
 * units as a number for drawing; the labels and tooltips use `label`, exact.
 */
export function BalanceChart({
  samples,
  from,
  to,
  toNative,
  label,
  threshold,
}: {
  samples: BalanceSample[];
  from: Date;
  to: Date;
  toNative: (base: string) => number;
  label: (base: string) => string;
  threshold: string | null;
}) {
  const span = Math.max(1, to.getTime() - from.getTime());
  const x = (at: Date): number =>
    PAD.left + Math.min(1, Math.max(0, (at.getTime() - from.getTime()) / span)) * PLOT_W;
  const values = samples.map((s) => toNative(s.balance));
  const ceiling = niceCeiling(Math.max(0, ...values, threshold === null ? 0 : toNative(threshold)));
  const y = (value: number): number => PAD.top + PLOT_H - (value / ceiling) * PLOT_H;
  const path = samples
    .map((s, i) => {
      const start = x(new Date(s.at));
      const end = i + 1 < samples.length ? x(new Date(samples[i + 1].at)) : x(to);
      return `${i === 0 ? 'M' : 'L'}${start},${y(values[i])} L${end},${y(values[i])}`;
    })
    .join(' ');
  const last = samples.at(-1);
  return (
    <Frame
      caption="Balance, last 7 days"
      label={
        last === undefined
          ? 'No balance recorded in the last 7 days'
          : `Balance over the last 7 days: ${samples.length} ${samples.length === 1 ? 'balance' : 'balances'} recorded, now ${label(last.balance)}${threshold === null ? '' : `; alert below ${label(threshold)}`}`
      }
      table={
        <table>
          <thead>
            <tr>
              <th scope="col">From</th>
              <th scope="col">Balance</th>
            </tr>
          </thead>
          <tbody>
            {samples.map((s) => (
              <tr key={s.at}>
                <td>{new Date(s.at).toLocaleString()}</td>
                <td>{label(s.balance)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      }
    >
      <YAxis ceiling={ceiling} format={(v) => compact.format(v)} />
      {threshold !== null && (
        <line
          x1={PAD.left}
          x2={WIDTH - PAD.right}
          y1={y(toNative(threshold))}
          y2={y(toNative(threshold))}
          class="threshold"
        >
          <title>{`Alert below ${label(threshold)}`}</title>
        </line>
      )}
      {path !== '' && <path d={path} class="line" fill="none" />}
      {samples.map((s, i) => (
        <circle key={s.at} cx={x(new Date(s.at))} cy={y(values[i])} r={2.5} class="dot">
          <title>{`${new Date(s.at).toLocaleString()}: ${label(s.balance)}`}</title>
        </circle>
      ))}
      <XLabels
        labels={[from, new Date((from.getTime() + to.getTime()) / 2), to].map((d) =>
          d.toLocaleDateString(undefined, { month: 'short', day: 'numeric' }),
        )}
      />
    </Frame>
  );
}
