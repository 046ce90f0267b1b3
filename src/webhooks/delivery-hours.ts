/**
 * The hourly totals of a target's deliveries (docs/reference/webhooks.md#94-the-cost): what the stats
 * and the hourly series need of one whole hour that closed, kept in webhook_delivery_hours so that a
 * window reads a row per hour, not its deliveries. Pure: the encoding of a latency histogram and the
 * merging of histograms, exact (the percentiles of the merged histogram are those of the deliveries).
 */

export const HOUR_MS = 3600_000;

const [COLON, COMMA, ZERO] = [':'.charCodeAt(0), ','.charCodeAt(0), '0'.charCodeAt(0)];

/**
 * An hour is closed once it ended this long ago: a delivery's `ended_at` is the time of its attempt,
 * written a moment later (a batch of the drain), never minutes later.
 */
export const CLOSED_AFTER_MS = 5 * 60_000;

/** How many deliveries took each latency (whole milliseconds), in ascending order of latency. */
export type Histogram = ReadonlyArray<{ readonly value: number; readonly n: number }>;

/** One closed hour of one target. */
export interface HourTotals {
  /** Ended delivered in the hour (by `ended_at`), with and without a latency. */
  readonly delivered: number;
  /** Ended failed in the hour (by `ended_at`). */
  readonly failed: number;
  /** Of those delivered and failed, how many took more than one attempt. */
  readonly retried: number;
  /** Whose last failure was in the hour (by `failed_at`), whatever their status now. */
  readonly failures: number;
  /** The latencies of those delivered that have one. */
  readonly latencies: Histogram;
}

/** `YYYY-MM-DD HH`, UTC: the first 13 characters of a datetime as either database gives it as text. */
export function hourKey(at: number): string {
  return new Date(at).toISOString().slice(0, 13).replace('T', ' ');
}

export function hourStart(key: string): number {
  return Date.parse(`${key.replace(' ', 'T')}:00:00.000Z`);
}

/** The starts of the whole hours in [from, to): from rounded up to an hour, to rounded down. */
export function wholeHours(from: number, to: number): number[] {
  const hours: number[] = [];
  for (let at = Math.ceil(from / HOUR_MS) * HOUR_MS; at + HOUR_MS <= to; at += HOUR_MS) hours.push(at);
  return hours;
}

/** The end of the last closed hour at `now`: the hours before it no longer change but by a replay or a retry. */
export function closedUntil(now: number): number {
  return Math.floor((now - CLOSED_AFTER_MS) / HOUR_MS) * HOUR_MS;
}

/**
 * `value:n` pairs in ascending order of value, each value after the first as its difference from the
 * one before (`20:3,1:4,7:1` is 3 at 20 ms, 4 at 21, 1 at 28): a few bytes a latency.
 */
export function encodeHistogram(histogram: Histogram): string {
  let previous = 0;
  return histogram
    .map(({ value, n }, i) => {
      const pair = `${i === 0 ? value : value - previous}:${n}`;
      previous = value;
      return pair;
    })
    .join(',');
}

export function decodeHistogram(text: string): Histogram {
  // By hand, character by character: a week of hours is some 100,000 pairs, which split() and
  // map(Number) take ten times as long to read.
  const histogram: Array<{ value: number; n: number }> = [];
  let value = 0;
  let number = 0;
  let difference = 0;
  for (let i = 0; i <= text.length && text.length > 0; i++) {
    const code = i < text.length ? text.charCodeAt(i) : COMMA;
    if (code === COLON) {
      difference = number;
      number = 0;
    } else if (code === COMMA) {
      value = histogram.length === 0 ? difference : value + difference;
      histogram.push({ value, n: number });
      number = 0;
    } else {
      number = number * 10 + (code - ZERO);
    }
  }
  return histogram;
}

/** The histogram of every value the histograms count, in ascending order of value. */
export function mergeHistograms(histograms: readonly Histogram[]): Histogram {
  const counts = new Map<number, number>();
  for (const histogram of histograms) {
    for (const { value, n } of histogram) counts.set(value, (counts.get(value) ?? 0) + n);
  }
  return [...counts.entries()].sort(([a], [b]) => a - b).map(([value, n]) => ({ value, n }));
}
