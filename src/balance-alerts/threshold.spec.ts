import { parseJson } from '../common/http/json';
import { bodyProblems } from '../common/validation/dto-validation.pipe';
import { NetworkBalanceAlertRules, RelayerBalanceAlertRules } from './balance-alerts.validation';
import { isBelowThreshold } from './threshold';

const RULE =
  'threshold must be a whole number >= 0 in the base unit (a JSON integer or a string of decimal digits, at most 1000 digits)';

describe('a threshold in a body (docs/reference/balance-alerts.md#15-exact-at-any-size)', () => {
  // Bodies as the service parses them: unsafe integers arrive as bigint.
  const body = (json: string): unknown => parseJson(`{"threshold": ${json}}`);
  /** What the validation stage makes of a body: the threshold, or the problems. */
  const parseThreshold = async (given: unknown, nullable: boolean) => {
    const rules = nullable ? new RelayerBalanceAlertRules() : new NetworkBalanceAlertRules();
    const { value, problems } = await bodyProblems(rules, given);
    return problems.length === 0 ? value : { problem: problems.join('; ') };
  };

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
  ])('%s → %s', async (json, expected) => {
    expect(await parseThreshold(body(json), false)).toEqual({ threshold: expected });
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
  ])('%s → 400 naming threshold', async (json) => {
    expect(await parseThreshold(body(json), true)).toEqual({ problem: RULE });
  });

  it('null: no alert for a relayer, refused for a network; absent: required', async () => {
    expect({
      relayer: await parseThreshold({ threshold: null }, true),
      network: await parseThreshold({ threshold: null }, false),
      absent: await parseThreshold({}, true),
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
