import { percentileOf } from './delivery-stats.repository';

describe('percentileOf: nearest rank over a histogram of latencies', () => {
  it('no values: null', () => {
    expect([percentileOf([], 50), percentileOf([], 95)]).toEqual([null, null]);
  });

  it('one value is every percentile', () => {
    expect([percentileOf([{ value: 7, n: 1 }], 50), percentileOf([{ value: 7, n: 1 }], 95)]).toEqual([7, 7]);
  });

  it('the value at place ceil(p / 100 * n), counting each bucket n times', () => {
    // 10 x 1, 5 x 2, 4 x 3, 1 x 4: 20 values; p50 is the 10th (1), p95 the 19th (3), p100 the 20th (4).
    const histogram = [
      { value: 1, n: 10 },
      { value: 2, n: 5 },
      { value: 3, n: 4 },
      { value: 4, n: 1 },
    ];
    expect([50, 51, 75, 76, 95, 96, 100].map((p) => percentileOf(histogram, p))).toEqual([
      1, 2, 2, 3, 3, 4, 4,
    ]);
  });

  it('21 single values 1..21: p50 is the 11th, p95 the 20th', () => {
    const histogram = Array.from({ length: 21 }, (_, i) => ({ value: i + 1, n: 1 }));
    expect([percentileOf(histogram, 50), percentileOf(histogram, 95)]).toEqual([11, 20]);
  });
});
