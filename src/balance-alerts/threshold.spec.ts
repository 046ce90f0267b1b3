import { parseJson } from '../common/http/json';
import { isBelowThreshold, parseThreshold } from './threshold';

const RULE =
  'threshold must be a whole number >= 0 in the base unit (a JSON integer or a string of decimal digits, at most 1000 digits)';

describe('parseThreshold (docs/reference/balance-alerts.md#15-exact-at-any-size)', () => {
  // Bodies as the service parses them: unsafe integers arrive as bigint.
  const body = (json: string): unknown =>
    (parseJson(`{"threshold": ${json}}`) as { threshold: unknown }).threshold;

  it.each([
    ['"1000"', '1000'],
    ['"000042"', '42'],
    ['"0"', '0'],
    ['0', '0'],
    ['-0', '0'],
    ['9007199254740991', '9007199254740991'],
    ['18446744073709551617', '18446744073709551617'],
    [`"${'9'.repeat(1000)}"`, '9'.repeat(1000)],
    ['1e3', '1000'],
  ])('%s → %s', (json, expected) => {
    expect(parseThreshold(body(json), false)).toEqual({ threshold: expected });
  });

  it.each([
    '-1',
    '"-1"',
    '1.5',
    '"1.5"',
    '1e20',
    '1e400',
    '"1e3"',
    '""',
    '" 12"',
    '"0x10"',
    'true',
    '[1]',
    '{}',
    '-18446744073709551617',
    `"${'9'.repeat(1001)}"`,
  ])('%s → 400 naming threshold', (json) => {
    expect(parseThreshold(body(json), true)).toEqual({ problem: RULE });
  });

  it('null: no alert for a relayer, refused for a network; absent: required', () => {
    expect({
      relayer: parseThreshold(null, true),
      network: parseThreshold(null, false),
      absent: parseThreshold(undefined, true),
    }).toEqual({
      relayer: { threshold: null },
      network: { problem: `${RULE}; null is for a relayer's own rule` },
      absent: { problem: 'threshold is required' },
    });
  });

  it('below means strictly below, exactly at any size', () => {
    const big = 10n ** 30n;
    expect([
      isBelowThreshold(999n, '1000'),
      isBelowThreshold(1000n, '1000'),
      isBelowThreshold(big - 1n, big.toString()),
      isBelowThreshold(big, big.toString()),
      isBelowThreshold(0n, '0'),
    ]).toEqual([true, false, true, false, false]);
  });
});
