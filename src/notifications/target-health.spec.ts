import Database from 'better-sqlite3';
import { FAILING_BELOW, rateBelowFailing, successRate } from './target-health';

describe('successRate: delivered over ended, to 4 decimals', () => {
  it.each([
    [0, 0, null],
    [3, 0, 1],
    [0, 4, 0],
    [3, 2, 0.6],
    [2, 1, 0.6667],
    [1, 2, 0.3333],
    [9, 1, 0.9],
    [17_999, 2_001, 0.9],
    [17_998, 2_001, 0.8999],
  ])('%i delivered, %i failed: %p', (delivered, failed, rate) => {
    expect(successRate(delivered, failed)).toBe(rate);
  });
});

describe('rateBelowFailing: the same rule in SQL, in whole numbers', () => {
  const db = new Database(':memory:');
  afterAll(() => db.close());
  const below = db.prepare<[number, number], { below: number }>(
    `SELECT ${rateBelowFailing('?', '?')} AS below`,
  );
  const inSql = (delivered: number, failed: number) => below.get(delivered, failed)?.below === 1;
  const inNode = (delivered: number, failed: number) => {
    const rate = successRate(delivered, failed);
    return rate !== null && rate < FAILING_BELOW;
  };

  it('reads 2001 * delivered < 17999 * failed', () => {
    expect(rateBelowFailing('d', 'f')).toBe('2001 * d < 17999 * f');
  });

  it('agrees with successRate(...) < FAILING_BELOW on every count up to 300 delivered and 60 failed', () => {
    const disagree: [number, number][] = [];
    for (let d = 0; d <= 300; d++)
      for (let f = 0; f <= 60; f++) if (inSql(d, f) !== inNode(d, f)) disagree.push([d, f]);
    expect(disagree).toEqual([]);
  });

  it('agrees at the rounding edge (0.89995 rounds up to 0.9: not failing) and around it, at any size', () => {
    const cases: [number, number, boolean][] = [];
    for (const k of [1, 7, 100, 12_345]) {
      for (const [d, f] of [
        [17_999 * k, 2_001 * k],
        [17_999 * k - 1, 2_001 * k],
        [17_999 * k + 1, 2_001 * k],
        [17_999 * k, 2_001 * k + 1],
      ])
        cases.push([d, f, inSql(d, f)]);
    }
    expect(cases.map(([d, f]) => [d, f, inNode(d, f)])).toEqual(cases);
    // The edge itself is not failing; one delivery fewer is.
    expect([inSql(17_999, 2_001), inSql(17_998, 2_001), inSql(9, 1), inSql(8, 1), inSql(0, 0)]).toEqual([
      false,
      true,
      false,
      true,
      false,
    ]);
  });
});
