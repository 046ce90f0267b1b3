// The console's pure logic (amounts, times, shortened text, an API 400 spread over a form's fields), run in Node by the jest project `unit`.
import {
  DECIMALS,
  nativeAmount,
  parseNative,
  roundBase,
  showAmount,
  type NetworkType,
} from '../../console/src/amounts';
import { problemsByField } from '../../console/src/field-errors';
import { shortenMiddle } from '../../console/src/text';
import { absoluteTime, relativeTime } from '../../console/src/when';

describe('console amounts', () => {
  it('knows the decimals of each native unit: ETH 18 (wei), SOL 9 (lamports), XLM 7 (stroops)', () => {
    expect(DECIMALS).toEqual({ evm: 18, solana: 9, stellar: 7 });
  });

  it.each<[string, NetworkType, string]>([
    ['0', 'evm', '0'],
    ['1', 'evm', '0.000000000000000001'],
    ['1500000000000000000', 'evm', '1.5'],
    ['1000000000000000000000', 'evm', '1,000'],
    ['123456789012345678901234567890', 'evm', '123,456,789,012.34567890123456789'],
    ['000000001', 'solana', '0.000000001'],
    ['5000000000', 'solana', '5'],
    ['10000000', 'stellar', '1'],
    ['12345678', 'stellar', '1.2345678'],
    ['not digits', 'evm', 'not digits'],
  ])('writes %s base units of %s as %s native units, every digit kept', (base, type, native) => {
    expect(nativeAmount(base, type)).toBe(native);
  });

  it.each<[string, string, boolean]>([
    ['0', '0', true],
    ['123456', '123456', true],
    ['1234560000', '1234560000', true],
    ['1234564', '1234560', false],
    ['1234565', '1234570', false],
    ['9999995', '10000000', false],
    ['999999499', '999999000', false],
    ['00123', '123', true],
  ])('rounds %s to 6 significant digits: %s (exact: %s)', (base, rounded, exact) => {
    expect(roundBase(base)).toEqual({ base: rounded, exact });
  });

  it.each<[string, NetworkType, string, string, string]>([
    ['1500000000000000000', 'evm', 'ETH', '1.5 ETH', '1.5 ETH (1500000000000000000 wei)'],
    ['1234567891234000000', 'evm', 'ETH', '≈ 1.23457 ETH', '1.234567891234 ETH (1234567891234000000 wei)'],
    [
      '123456789012345678901234567890',
      'evm',
      'ETH',
      '≈ 123,457,000,000 ETH',
      '123,456,789,012.34567890123456789 ETH (123456789012345678901234567890 wei)',
    ],
    ['1', 'evm', 'POL', '0.000000000000000001 POL', '0.000000000000000001 POL (1 wei)'],
    ['999999999', 'solana', 'SOL', '≈ 1 SOL', '0.999999999 SOL (999999999 lamports)'],
    ['0', 'stellar', 'XLM', '0 XLM', '0 XLM (0 stroops)'],
  ])('shows %s %s base units with %s as %s, exactly %s on hover', (base, type, symbol, text, exact) => {
    expect(showAmount(base, type, symbol)).toEqual({ text, exact });
  });

  it.each<[string, NetworkType, string]>([
    ['0.05', 'evm', '50000000000000000'],
    ['1', 'evm', '1000000000000000000'],
    ['  2.5  ', 'evm', '2500000000000000000'],
    ['.5', 'evm', '500000000000000000'],
    ['5.', 'evm', '5000000000000000000'],
    ['0', 'evm', '0'],
    ['0.000000000000000001', 'evm', '1'],
    ['0.0000000000000000010', 'evm', '1'],
    [
      '123456789012345678901234567890.123456789012345678',
      'evm',
      '123456789012345678901234567890123456789012345678',
    ],
    ['0.000000001', 'solana', '1'],
    ['1.5', 'solana', '1500000000'],
    ['0.0000001', 'stellar', '1'],
    ['100', 'stellar', '1000000000'],
  ])('reads %s typed for %s as %s base units, exactly', (typed, type, base) => {
    expect(parseNative(typed, type, 'X')).toEqual({ ok: true, base });
  });

  it.each<[string, NetworkType, string, string]>([
    ['', 'evm', 'ETH', 'Write an amount in ETH, such as 0.05.'],
    ['   ', 'solana', 'SOL', 'Write an amount in SOL, such as 0.05.'],
    ...['-1', '1,5', '1e18', '0x10', '1.2.3', '.', 'abc', '+1'].map(
      (typed): [string, NetworkType, string, string] => [
        typed,
        'evm',
        'ETH',
        'Not an amount: write digits with at most one decimal point, such as 0.05 (no sign, no commas, no exponent).',
      ],
    ),
    ['0.0000000000000000001', 'evm', 'ETH', 'At most 18 decimals: 1 wei is 0.000000000000000001 ETH.'],
    ['0.0000000001', 'solana', 'SOL', 'At most 9 decimals: 1 lamport is 0.000000001 SOL.'],
    ['0.00000001', 'stellar', 'XLM', 'At most 7 decimals: 1 stroop is 0.0000001 XLM.'],
  ])('refuses %j typed for %s, saying why', (typed, type, symbol, problem) => {
    expect(parseNative(typed, type, symbol)).toEqual({ ok: false, problem });
  });

  it('reads back what it shows: every base amount survives native and back', () => {
    for (const type of ['evm', 'solana', 'stellar'] as const) {
      for (const base of [
        '0',
        '1',
        '7',
        '10',
        '123456789',
        '1000000000000000000',
        '98765432109876543210987',
      ]) {
        const native = nativeAmount(base, type).replace(/,/g, '');
        expect(parseNative(native, type, 'X')).toEqual({ ok: true, base });
      }
    }
  });
});

describe('console times', () => {
  const now = Date.parse('2026-12-05T13:03:12.000Z');

  it.each<[number, string]>([
    [0, 'just now'],
    [-999, 'just now'],
    [999, 'just now'],
    [-12_000, '12 s ago'],
    [-59_999, '59 s ago'],
    [-60_000, '1 min ago'],
    [-3 * 60_000 - 5_000, '3 min ago'],
    [2 * 3_600_000 + 1_000, 'in 2 h'],
    [-23 * 3_600_000, '23 h ago'],
    [-3 * 86_400_000, '3 d ago'],
    [45 * 86_400_000, 'in 1 mo'],
    [-400 * 86_400_000, '1 y ago'],
    [30_000, 'in 30 s'],
  ])('writes a time %d ms from now as %s', (offset, text) => {
    expect(relativeTime(now + offset, now)).toBe(text);
  });

  it.each<[number, string]>([
    [0, '2026-12-05 13:03:12 UTC+00:00'],
    [60, '2026-12-05 14:03:12 UTC+01:00'],
    [-300, '2026-12-05 08:03:12 UTC-05:00'],
    [330, '2026-12-05 18:33:12 UTC+05:30'],
    [660, '2026-12-06 00:03:12 UTC+11:00'],
  ])('writes the absolute time in the zone %d min east of UTC as %s', (offset, text) => {
    expect(absoluteTime(now, offset)).toBe(text);
  });
});

describe('console text', () => {
  it.each<[string, string]>([
    ['0x7E5F4552091A69125d5DfCb7b8C2659029395Bdf', '0x7E5F…5Bdf'],
    ['6ASf5EcmmEHTgDJ4X4ZT5vT6iHVJBXPg5AN5YoTCpGWt', '6ASf5E…pGWt'],
    ['GBGLLK7WVV47X5NLXTFPZQTJ3BONEZI62S4ILNMGT4SBV3PQUW5CTECA', 'GBGLLK…TECA'],
    ['short', 'short'],
    ['exactly11ch', 'exactly11ch'],
  ])('cuts %s in its middle as %s', (value, short) => {
    expect(shortenMiddle(value)).toBe(short);
  });
});

describe('console field errors', () => {
  const RELAYER = [
    'id',
    'name',
    'network',
    'signer_id',
    'notification_id',
    'policies',
    'policies.min_balance',
  ];

  it.each<[string, string, readonly string[], Record<string, string>, string | null]>([
    [
      'one problem of one field',
      'name must be 1 to 255 characters, not only whitespace',
      RELAYER,
      { name: 'name must be 1 to 255 characters, not only whitespace' },
      null,
    ],
    [
      'a nested path to the longest field it starts with',
      'policies.min_balance must be a whole number >= 0; policies.gas_price_cap must be a whole number >= 0',
      RELAYER,
      {
        'policies.min_balance': 'policies.min_balance must be a whole number >= 0',
        policies: 'policies.gas_price_cap must be a whole number >= 0',
      },
      null,
    ],
    [
      'the sentences that name a field by what it points at',
      "Network 'x' not found for network type 'evm'; Signer with ID s-1 not found; Notification with ID n-1 not found",
      RELAYER,
      {
        network: "Network 'x' not found for network type 'evm'",
        signer_id: 'Signer with ID s-1 not found',
        notification_id: 'Notification with ID n-1 not found',
      },
      null,
    ],
    [
      'a row of a list, and two problems of one field joined',
      'rpc_urls[1].url must be an http or https URL; rpc_urls[1].weight must be a whole number from 0 to 100',
      ['rpc_urls', 'rpc_urls[0]', 'rpc_urls[1]'],
      {
        'rpc_urls[1]':
          'rpc_urls[1].url must be an http or https URL; rpc_urls[1].weight must be a whole number from 0 to 100',
      },
      null,
    ],
    [
      'what names no field of the form, left for the form itself',
      'address is not an allowed field; name must be 1 to 255 characters, not only whitespace; and 3 more problems',
      RELAYER,
      { name: 'name must be 1 to 255 characters, not only whitespace' },
      'address is not an allowed field; and 3 more problems',
    ],
    [
      'a field that only starts like another',
      'names is not an allowed field',
      RELAYER,
      {},
      'names is not an allowed field',
    ],
    [
      'a sentence about a field the form does not have',
      'Signer with ID s-1 not found',
      ['name'],
      {},
      'Signer with ID s-1 not found',
    ],
  ])('gives %s', (_case, message, fields, byField, rest) => {
    expect(problemsByField(message, fields)).toEqual({ fields: byField, rest });
  });
});
