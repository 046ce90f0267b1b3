import {
  closedUntil,
  decodeHistogram,
  encodeHistogram,
  hourKey,
  hourStart,
  mergeHistograms,
  wholeHours,
  type Histogram,
} from './delivery-hours';
import { percentileOf } from './delivery-stats.repository';

const HOUR = 3600_000;
const at = (iso: string) => Date.parse(iso);

describe('the hourly totals of a target (src/webhooks/delivery-hours.ts)', () => {
  it.each<[string, Histogram, string]>([
    ['none', [], ''],
    ['one', [{ value: 0, n: 1 }], '0:1'],
    [
      'each value after the first as its difference',
      [
        { value: 20, n: 3 },
        { value: 21, n: 4 },
        { value: 28, n: 1 },
        { value: 30000, n: 12 },
      ],
      '20:3,1:4,7:1,29972:12',
    ],
  ])('a histogram in text and back: %s', (_, histogram, text) => {
    expect(encodeHistogram(histogram)).toBe(text);
    expect(decodeHistogram(text)).toEqual(histogram);
  });

  it('merged histograms count every value of each, in ascending order, and their percentiles are those of all the values', () => {
    const hours: Histogram[] = [
      [
        { value: 5, n: 2 },
        { value: 40, n: 1 },
      ],
      [],
      [
        { value: 1, n: 1 },
        { value: 5, n: 3 },
        { value: 900, n: 1 },
      ],
    ];
    const merged = mergeHistograms(hours);
    expect(merged).toEqual([
      { value: 1, n: 1 },
      { value: 5, n: 5 },
      { value: 40, n: 1 },
      { value: 900, n: 1 },
    ]);
    const values = [5, 5, 40, 1, 5, 5, 5, 900].sort((a, b) => a - b);
    const nearestRank = (p: number) => values[Math.max(1, Math.ceil((p * values.length) / 100)) - 1];
    for (const p of [1, 50, 63, 87, 88, 95, 100]) expect(percentileOf(merged, p)).toBe(nearestRank(p));
    expect(mergeHistograms([])).toEqual([]);
  });

  it('hours as `YYYY-MM-DD HH` (UTC) and back', () => {
    expect(hourKey(at('2026-12-06T07:59:59.999Z'))).toBe('2026-12-06 07');
    expect(hourStart('2026-12-06 07')).toBe(at('2026-12-06T07:00:00.000Z'));
  });

  it('the whole hours of a window: its start rounded up, its end rounded down', () => {
    expect(wholeHours(at('2026-12-06T04:30:00.000Z'), at('2026-12-06T07:00:00.000Z'))).toEqual([
      at('2026-12-06T05:00:00.000Z'),
      at('2026-12-06T06:00:00.000Z'),
    ]);
    expect(wholeHours(at('2026-12-06T05:00:00.000Z'), at('2026-12-06T06:59:59.999Z'))).toEqual([
      at('2026-12-06T05:00:00.000Z'),
    ]);
    expect(wholeHours(at('2026-12-06T05:00:00.001Z'), at('2026-12-06T06:00:00.000Z'))).toEqual([]);
  });

  it('an hour is closed 5 minutes after its end', () => {
    expect(closedUntil(at('2026-12-06T07:05:00.000Z'))).toBe(at('2026-12-06T07:00:00.000Z'));
    expect(closedUntil(at('2026-12-06T07:04:59.999Z'))).toBe(at('2026-12-06T06:00:00.000Z'));
    expect(closedUntil(at('2026-12-06T07:04:59.999Z')) + HOUR).toBe(at('2026-12-06T07:00:00.000Z'));
  });
});
