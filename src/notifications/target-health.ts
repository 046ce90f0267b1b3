/**
 * A target's health (docs/reference/webhooks.md#97-failing-targets-and-the-summary): its success
 * rate, and whether it is failing. Written here once, for the stats' `success_rate` and for the
 * summary and the list's `failing` filter, which decide it in SQL (NotificationsRepository).
 */

/** Success rates are given to 4 decimals: in units of 1 / RATE_SCALE. */
const RATE_SCALE = 10_000;

/** A running target whose success rate over the last hour is under this is failing. */
export const FAILING_BELOW = 0.9;

/** The window a target's failing is judged on: the last hour, as `stats?window=1h`. */
export const FAILING_WINDOW_MS = 3600_000;

/** FAILING_BELOW in units of 1 / RATE_SCALE: a whole number. */
const FAILING_BELOW_SCALED = Math.round(FAILING_BELOW * RATE_SCALE);

/**
 * docs/reference/webhooks.md#93-the-fields: delivered / (delivered + failed), rounded to 4 decimals
 * (half up); null when none ended. One division of whole numbers, so that `rateBelowFailing` can say
 * in whole numbers exactly when it is under FAILING_BELOW.
 */
export function successRate(delivered: number, failed: number): number | null {
  const ended = delivered + failed;
  return ended === 0 ? null : Math.round((delivered * RATE_SCALE) / ended) / RATE_SCALE;
}

/**
 * `successRate(d, f) < FAILING_BELOW` as an SQL condition on two whole-number expressions, compared
 * in whole numbers (no rounding of the database's to differ from Node's): with s = RATE_SCALE and
 * b = FAILING_BELOW × s, round(s·d / (d + f)) < b ⇔ s·d / (d + f) < b − ½ ⇔ (2s − 2b + 1)·d < (2b − 1)·f,
 * false when none ended (d = f = 0), as a null rate is not under anything.
 */
export function rateBelowFailing(delivered: string, failed: string): string {
  const b = FAILING_BELOW_SCALED;
  return `${2 * RATE_SCALE - 2 * b + 1} * ${delivered} < ${2 * b - 1} * ${failed}`;
}
