// Times as the console shows them: relative to now, with the absolute time and its zone for the hover.
// No import: test/console/units.spec.ts runs these in Node.

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** The largest unit first: an amount of time is written in the largest unit it holds once. */
const UNITS: readonly [number, string][] = [
  [365 * DAY, 'y'],
  [30 * DAY, 'mo'],
  [DAY, 'd'],
  [HOUR, 'h'],
  [MINUTE, 'min'],
  [SECOND, 's'],
];

/**
 * `at` relative to `now` (both in ms since the epoch), in whole units, rounded down: `12 s ago`,
 * `3 min ago`, `in 2 h`; `just now` within a second either way.
 */
export function relativeTime(at: number, now: number): string {
  const ms = at - now;
  const size = Math.abs(ms);
  if (size < SECOND) return 'just now';
  const [unit, name] = UNITS.find(([length]) => size >= length) ?? UNITS[UNITS.length - 1];
  const count = Math.floor(size / unit);
  return ms < 0 ? `${count} ${name} ago` : `in ${count} ${name}`;
}

const two = (n: number) => String(n).padStart(2, '0');

/**
 * `at` in the zone `offsetMinutes` east of UTC, with that zone: `2026-12-05 14:03:12 UTC+01:00`. The
 * offset is the reader's (Date's getTimezoneOffset() is its opposite).
 */
export function absoluteTime(at: number, offsetMinutes: number): string {
  const local = new Date(at + offsetMinutes * MINUTE);
  const date = `${local.getUTCFullYear()}-${two(local.getUTCMonth() + 1)}-${two(local.getUTCDate())}`;
  const time = `${two(local.getUTCHours())}:${two(local.getUTCMinutes())}:${two(local.getUTCSeconds())}`;
  const size = Math.abs(offsetMinutes);
  const zone = `UTC${offsetMinutes < 0 ? '-' : '+'}${two(Math.floor(size / 60))}:${two(size % 60)}`;
  return `${date} ${time} ${zone}`;
}
