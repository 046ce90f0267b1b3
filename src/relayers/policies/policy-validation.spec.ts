import { parseJson, stringifyJson } from '../../common/http/json';
import {
  mergePolicies,
  policySchema,
  validatePolicies,
  type NetworkType,
  type Policies,
  type PolicyValue,
} from './policy-validation';

const SOL_A = 'So11111111111111111111111111111111111111112';
const SOL_B = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
const SOL_C = '11111111111111111111111111111111';
const SOL_WITH_ZERO = 'So1111111111111111111111111111111111111110'; // '0' is not base58
const EVM_A = '0x742d35Cc6634C0532925a3b844Bc454e4438f44e';
const EVM_B = '0xABCDEFABCDEFABCDEFABCDEFABCDEFABCDEFABCD';
const G_ISSUER = 'GA5ZSEJYB37JRC5AVCIA5MOP4RHTM335X2KGX3IHOJAPP5RE34K4KZVN';
const USDC = `USDC:${G_ISSUER}`;
/** A Soroban contract id (the testnet USDC asset contract); the second one has a broken checksum. */
const CONTRACT = 'CBIELTK6YBZJU5UP2WWQEUCYKLPU6AUNZ2BQ4WWFEIE3USCIHMXQDAMA';
const CONTRACT_BAD_CHECKSUM = 'CBIELTK6YBZJU5UP2WWQEUCYKLPU6AUNZ2BQ4WWFEIE3USCIHMXQDAMB';

const INT32_MAX = 2147483647;
const INT64_MAX = 9223372036854775807n;

/** What validation adds when nothing is given: Solana's default fee payment strategy. */
const DEFAULTS: Record<NetworkType, Policies> = {
  evm: {},
  solana: { fee_payment_strategy: 'user' },
  stellar: {},
};

function accepted(type: NetworkType, raw: unknown): Policies {
  const { value, problems } = validatePolicies(type, raw);
  if (value === null) throw new Error(`expected valid policies, got: ${problems.join('; ')}`);
  return value;
}

function refused(type: NetworkType, raw: unknown): readonly string[] {
  const { value, problems } = validatePolicies(type, raw);
  if (value !== null) throw new Error(`expected errors, got: ${stringifyJson(value)}`);
  return problems;
}

/** A distinct base58 address per index (the digits 0-9 mapped onto base58 characters). */
const solanaAddress = (index: number): string =>
  `${'1'.repeat(28)}${[...String(index).padStart(4, '0')].map((digit) => 'ABCDEFGHJK'[Number(digit)]).join('')}`;

const repeat = <T>(count: number, make: (index: number) => T): T[] =>
  Array.from({ length: count }, (_, i) => make(i));

// ---- one row per field of the three interface tables ----------------------------------------------

interface Kind {
  /** [given, normalised] */
  readonly valid: ReadonlyArray<readonly [unknown, PolicyValue]>;
  readonly invalid: readonly unknown[];
  /** The message after `policies.<field> `. */
  readonly rule: string;
}

const WRONG_TYPES = ['5', true, [], {}];

const KINDS = {
  boolean: {
    valid: [
      [true, true],
      [false, false],
    ],
    invalid: ['true', 1, 0, [], {}],
    rule: 'must be a boolean',
  },
  int32: {
    valid: [
      [0, 0],
      [5, 5],
      [INT32_MAX, INT32_MAX],
      [7n, 7],
    ],
    invalid: [-1, 1.5, 2147483648, 2147483648n, Infinity, NaN, ...WRONG_TYPES],
    rule: 'must be a whole number from 0 to 2147483647',
  },
  int64: {
    valid: [
      [0, 0],
      [5, 5],
      [Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
      [9007199254740993n, 9007199254740993n],
      [INT64_MAX, INT64_MAX],
    ],
    invalid: [-1, -1n, 1.5, 9223372036854775808n, 1e23, Infinity, ...WRONG_TYPES],
    rule: 'must be a whole number from 0 to 9223372036854775807',
  },
  wei: {
    valid: [
      [0, 0],
      [20000000000, 20000000000],
      [123456789012345678901n, 123456789012345678901n],
      ['123456789012345678901', 123456789012345678901n],
      ['42', 42],
      [2n ** 256n, 2n ** 256n],
    ],
    invalid: [-1, -1n, 1.5, 1e23, Infinity, '12.5', '-1', '0x10', '', ' 1', '1e3', true, [], {}],
    rule: 'must be a whole number >= 0 (a JSON number or a string of decimal digits, at most 1000 digits)',
  },
  float: {
    valid: [
      [0, 0],
      [1.5, 1.5],
      [250, 250],
      [-0, 0],
    ],
    invalid: [-0.1, Infinity, NaN, ...WRONG_TYPES],
    rule: 'must be a finite number >= 0',
  },
  percentage: {
    valid: [
      [0, 0],
      [0.5, 0.5],
      [100, 100],
    ],
    invalid: [-1, 100.01, Infinity, ...WRONG_TYPES],
    rule: 'must be a number from 0 to 100',
  },
  feePaymentStrategy: {
    valid: [
      ['user', 'user'],
      ['relayer', 'relayer'],
    ],
    invalid: ['USER', 'both', '', 1, true, [], {}],
    rule: 'must be one of: user, relayer',
  },
  evmAddresses: {
    valid: [
      [[], []],
      [
        [EVM_A, EVM_B, EVM_A.toLowerCase()],
        [EVM_A, EVM_B, EVM_A.toLowerCase()],
      ],
    ],
    invalid: [EVM_A, 5, true, {}],
    rule: 'must be an array',
  },
  solanaAddresses: {
    valid: [
      [[], []],
      [
        [SOL_A, SOL_B, SOL_C],
        [SOL_A, SOL_B, SOL_C],
      ],
    ],
    invalid: [SOL_A, 5, true, {}],
    rule: 'must be an array',
  },
  solanaTokens: {
    valid: [
      [[], []],
      [[{ mint: SOL_A }], [{ mint: SOL_A }]],
    ],
    invalid: [SOL_A, 5, true, {}],
    rule: 'must be an array',
  },
  stellarTokens: {
    valid: [
      [[], []],
      [[{ asset: 'native' }], [{ asset: 'native' }]],
    ],
    invalid: ['native', 5, true, {}],
    rule: 'must be an array',
  },
  swapConfig: {
    valid: [[{}, {}]],
    invalid: ['jupiter-swap', 5, true, []],
    rule: 'must be an object',
  },
} satisfies Record<string, Kind>;

type Row = readonly [NetworkType, string, keyof typeof KINDS, 'nullable' | 'not nullable'];

const ROWS: readonly Row[] = [
  ['evm', 'eip1559_pricing', 'boolean', 'nullable'],
  ['evm', 'gas_limit_estimation', 'boolean', 'nullable'],
  ['evm', 'gas_price_cap', 'wei', 'nullable'],
  ['evm', 'include_revert_data', 'boolean', 'nullable'],
  ['evm', 'min_balance', 'wei', 'nullable'],
  ['evm', 'private_transactions', 'boolean', 'nullable'],
  ['evm', 'whitelist_receivers', 'evmAddresses', 'nullable'],

  ['solana', 'allowed_accounts', 'solanaAddresses', 'nullable'],
  ['solana', 'allowed_programs', 'solanaAddresses', 'nullable'],
  ['solana', 'allowed_tokens', 'solanaTokens', 'nullable'],
  ['solana', 'disallowed_accounts', 'solanaAddresses', 'nullable'],
  ['solana', 'fee_margin_percentage', 'float', 'nullable'],
  ['solana', 'fee_payment_strategy', 'feePaymentStrategy', 'not nullable'],
  ['solana', 'max_allowed_fee_lamports', 'int64', 'nullable'],
  ['solana', 'max_signatures', 'int32', 'nullable'],
  ['solana', 'max_tx_data_size', 'int32', 'nullable'],
  ['solana', 'min_balance', 'int64', 'nullable'],
  ['solana', 'swap_config', 'swapConfig', 'nullable'],

  ['stellar', 'allowed_tokens', 'stellarTokens', 'nullable'],
  ['stellar', 'concurrent_transactions', 'boolean', 'nullable'],
  ['stellar', 'fee_margin_percentage', 'float', 'nullable'],
  ['stellar', 'fee_payment_strategy', 'feePaymentStrategy', 'not nullable'],
  ['stellar', 'max_fee', 'int32', 'nullable'],
  ['stellar', 'min_balance', 'int64', 'nullable'],
  ['stellar', 'slippage_percentage', 'percentage', 'nullable'],
  ['stellar', 'swap_config', 'swapConfig', 'nullable'],
  ['stellar', 'timeout_seconds', 'int64', 'nullable'],
];

const validCases = ROWS.flatMap(([type, field, kind]) =>
  KINDS[kind].valid.map(([given, expected]) => [type, field, given, expected] as const),
);
const invalidCases = ROWS.flatMap(([type, field, kind]) =>
  KINDS[kind].invalid.map((given) => [type, field, given, KINDS[kind].rule] as const),
);

describe('validatePolicies: the fields of the interface tables', () => {
  it.each(validCases)('%s %s accepts %p', (type, field, given, expected) => {
    expect(accepted(type, { [field]: given })).toStrictEqual({ ...DEFAULTS[type], [field]: expected });
  });

  it.each(invalidCases)('%s %s refuses %p', (type, field, given, rule) => {
    expect(refused(type, { [field]: given })).toStrictEqual([`policies.${field} ${rule}`]);
  });

  it.each(ROWS.filter((row) => row[3] === 'nullable'))(
    '%s %s accepts null as "cleared" and drops it',
    (type, field) => {
      expect(accepted(type, { [field]: null })).toStrictEqual(DEFAULTS[type]);
    },
  );

  it.each(ROWS.filter((row) => row[3] === 'not nullable'))('%s %s refuses null', (type, field, kind) => {
    expect(refused(type, { [field]: null })).toStrictEqual([`policies.${field} ${KINDS[kind].rule}`]);
  });

  it.each(['evm', 'solana', 'stellar'] as const)('%s accepts an empty object', (type) => {
    expect(accepted(type, {})).toStrictEqual(DEFAULTS[type]);
  });
});

describe('validatePolicies: exact integers', () => {
  it('keeps 9223372036854775807 with every digit through parse, validation and stringify', () => {
    const body = '{"min_balance":9223372036854775807,"timeout_seconds":9223372036854775807}';
    const policies = accepted('stellar', parseJson(body));
    expect(policies).toStrictEqual({ min_balance: INT64_MAX, timeout_seconds: INT64_MAX });
    expect(stringifyJson(policies)).toBe(body);
  });

  it('refuses 9223372036854775808 from a parsed body', () => {
    expect(refused('solana', parseJson('{"min_balance":9223372036854775808}'))).toStrictEqual([
      'policies.min_balance must be a whole number from 0 to 9223372036854775807',
    ]);
  });

  it.each([
    ['a bigint', 123456789012345678901n],
    ['a string', '123456789012345678901'],
    ['a parsed JSON number', parseJson('123456789012345678901')],
  ])('takes EVM min_balance and gas_price_cap as %s and returns a bigint', (_how, given) => {
    const policies = accepted('evm', { min_balance: given, gas_price_cap: given });
    expect(policies).toStrictEqual({
      gas_price_cap: 123456789012345678901n,
      min_balance: 123456789012345678901n,
    });
    expect(stringifyJson(policies)).toBe(
      '{"gas_price_cap":123456789012345678901,"min_balance":123456789012345678901}',
    );
  });

  it('takes integers written as 5.0 (a whole JSON number)', () => {
    expect(accepted('solana', parseJson('{"max_signatures":5.0}'))).toStrictEqual({
      fee_payment_strategy: 'user',
      max_signatures: 5,
    });
  });

  it('refuses 1e400 (Infinity after parsing) for an integer field', () => {
    expect(refused('stellar', parseJson('{"max_fee":1e400}'))).toStrictEqual([
      'policies.max_fee must be a whole number from 0 to 2147483647',
    ]);
  });

  it('refuses a wei string of more than 1000 digits', () => {
    expect(refused('evm', { min_balance: '9'.repeat(1001) })).toStrictEqual([
      'policies.min_balance must be a whole number >= 0 (a JSON number or a string of decimal digits, at most 1000 digits)',
    ]);
    expect(accepted('evm', { min_balance: '9'.repeat(1000) })).toStrictEqual({
      min_balance: 10n ** 1000n - 1n,
    });
  });
});

describe('validatePolicies: fee_payment_strategy defaults', () => {
  it('defaults to user for Solana', () => {
    expect(accepted('solana', { max_signatures: 3 })).toStrictEqual({
      fee_payment_strategy: 'user',
      max_signatures: 3,
    });
  });

  it('keeps relayer for Solana', () => {
    expect(accepted('solana', { fee_payment_strategy: 'relayer' })).toStrictEqual({
      fee_payment_strategy: 'relayer',
    });
  });

  it('has no default for Stellar', () => {
    expect(accepted('stellar', { max_fee: 100 })).toStrictEqual({ max_fee: 100 });
  });
});

describe('validatePolicies: address lists', () => {
  const solanaLists = ['allowed_accounts', 'allowed_programs', 'disallowed_accounts'];

  it.each(
    solanaLists.flatMap((field) =>
      [
        'abc',
        SOL_WITH_ZERO,
        `${SOL_B}1`, // 45 characters
        'O1111111111111111111111111111111111', // 'O' is not base58
        5,
        null,
        EVM_A,
      ].map((entry) => [field, entry] as const),
    ),
  )('Solana %s refuses the entry %p', (field, entry) => {
    expect(refused('solana', { [field]: [SOL_A, entry] })).toStrictEqual([
      `policies.${field}[1] must be a base58 address of 32 to 44 characters`,
    ]);
  });

  it.each(solanaLists)('Solana %s refuses duplicates', (field) => {
    expect(refused('solana', { [field]: [SOL_A, SOL_B, SOL_A] })).toStrictEqual([
      `policies.${field} must not contain the same address twice`,
    ]);
  });

  it.each(solanaLists)('Solana %s holds at most 500 entries', (field) => {
    const addresses = repeat(500, solanaAddress);
    expect(accepted('solana', { [field]: addresses })[field]).toHaveLength(500);
    expect(refused('solana', { [field]: [...addresses, SOL_A] })).toStrictEqual([
      `policies.${field} must have at most 500 entries`,
    ]);
  });

  it.each([
    '0x123',
    '742d35Cc6634C0532925a3b844Bc454e4438f44e',
    `${EVM_A}00`,
    '0xZZ2d35Cc6634C0532925a3b844Bc454e4438f44e',
    5,
    null,
  ])('EVM whitelist_receivers refuses the entry %p', (entry) => {
    expect(refused('evm', { whitelist_receivers: [EVM_A, entry] })).toStrictEqual([
      'policies.whitelist_receivers[1] must be an EVM address (0x followed by 40 hex digits)',
    ]);
  });

  it('EVM whitelist_receivers holds at most 500 entries', () => {
    expect(refused('evm', { whitelist_receivers: repeat(501, () => EVM_A) })).toStrictEqual([
      'policies.whitelist_receivers must have at most 500 entries',
    ]);
  });

  it('refuses allowed_accounts and disallowed_accounts together', () => {
    expect(refused('solana', { allowed_accounts: [SOL_A], disallowed_accounts: [SOL_B] })).toStrictEqual([
      'policies.allowed_accounts and policies.disallowed_accounts cannot both be set',
    ]);
    expect(refused('solana', { allowed_accounts: [], disallowed_accounts: [] })).toStrictEqual([
      'policies.allowed_accounts and policies.disallowed_accounts cannot both be set',
    ]);
  });

  it('refuses both account lists also when one of them is too long', () => {
    expect(
      refused('solana', { allowed_accounts: repeat(501, () => SOL_A), disallowed_accounts: [SOL_B] }),
    ).toStrictEqual([
      'policies.allowed_accounts and policies.disallowed_accounts cannot both be set',
      'policies.allowed_accounts must have at most 500 entries',
    ]);
  });

  it('reports duplicates beside the invalid entries, among the valid ones only', () => {
    expect(refused('solana', { allowed_programs: [SOL_A, 'bad', SOL_A, 'bad'] })).toStrictEqual([
      'policies.allowed_programs must not contain the same address twice',
      'policies.allowed_programs[1] must be a base58 address of 32 to 44 characters',
      'policies.allowed_programs[3] must be a base58 address of 32 to 44 characters',
    ]);
  });

  it('accepts one of allowed_accounts and disallowed_accounts when the other is null', () => {
    expect(accepted('solana', { allowed_accounts: null, disallowed_accounts: [SOL_B] })).toStrictEqual({
      disallowed_accounts: [SOL_B],
      fee_payment_strategy: 'user',
    });
  });
});

describe('validatePolicies: Solana allowed_tokens', () => {
  const fullToken = {
    mint: SOL_B,
    decimals: 6,
    symbol: 'USDC',
    max_allowed_fee: 9223372036854775807n,
    swap_config: { slippage_percentage: 0.5, min_amount: 1, max_amount: 1000000, retain_min_amount: 10 },
  };

  it('echoes a full token', () => {
    expect(accepted('solana', { allowed_tokens: [fullToken, { mint: SOL_A }] })).toStrictEqual({
      allowed_tokens: [fullToken, { mint: SOL_A }],
      fee_payment_strategy: 'user',
    });
  });

  it('drops null fields of a token', () => {
    const token = { mint: SOL_A, decimals: null, symbol: null, max_allowed_fee: null, swap_config: null };
    expect(accepted('solana', { allowed_tokens: [token] })).toStrictEqual({
      allowed_tokens: [{ mint: SOL_A }],
      fee_payment_strategy: 'user',
    });
    expect(
      accepted('solana', {
        allowed_tokens: [{ mint: SOL_A, swap_config: { slippage_percentage: null, min_amount: null } }],
      }),
    ).toStrictEqual({ allowed_tokens: [{ mint: SOL_A, swap_config: {} }], fee_payment_strategy: 'user' });
  });

  const FIELD_ERRORS: ReadonlyArray<readonly [string, Record<string, unknown>, string]> = [
    ['mint missing', { decimals: 6 }, 'policies.allowed_tokens[0].mint is required'],
    [
      'mint null',
      { mint: null },
      'policies.allowed_tokens[0].mint must be a base58 address of 32 to 44 characters',
    ],
    [
      'mint not base58',
      { mint: SOL_WITH_ZERO },
      'policies.allowed_tokens[0].mint must be a base58 address of 32 to 44 characters',
    ],
    [
      'decimals 256',
      { mint: SOL_A, decimals: 256 },
      'policies.allowed_tokens[0].decimals must be a whole number from 0 to 255',
    ],
    [
      'decimals -1',
      { mint: SOL_A, decimals: -1 },
      'policies.allowed_tokens[0].decimals must be a whole number from 0 to 255',
    ],
    [
      'decimals "6"',
      { mint: SOL_A, decimals: '6' },
      'policies.allowed_tokens[0].decimals must be a whole number from 0 to 255',
    ],
    [
      'symbol empty',
      { mint: SOL_A, symbol: '' },
      'policies.allowed_tokens[0].symbol must be a string of 1 to 32 characters',
    ],
    [
      'symbol too long',
      { mint: SOL_A, symbol: 'S'.repeat(33) },
      'policies.allowed_tokens[0].symbol must be a string of 1 to 32 characters',
    ],
    [
      'max_allowed_fee negative',
      { mint: SOL_A, max_allowed_fee: -1 },
      'policies.allowed_tokens[0].max_allowed_fee must be a whole number from 0 to 9223372036854775807',
    ],
    [
      'max_allowed_fee above int64',
      { mint: SOL_A, max_allowed_fee: 9223372036854775808n },
      'policies.allowed_tokens[0].max_allowed_fee must be a whole number from 0 to 9223372036854775807',
    ],
    [
      'swap_config not an object',
      { mint: SOL_A, swap_config: [] },
      'policies.allowed_tokens[0].swap_config must be an object',
    ],
    [
      'slippage above 100',
      { mint: SOL_A, swap_config: { slippage_percentage: 101 } },
      'policies.allowed_tokens[0].swap_config.slippage_percentage must be a number from 0 to 100',
    ],
    [
      'min_amount fractional',
      { mint: SOL_A, swap_config: { min_amount: 1.5 } },
      'policies.allowed_tokens[0].swap_config.min_amount must be a whole number from 0 to 9223372036854775807',
    ],
    [
      'max_amount a string',
      { mint: SOL_A, swap_config: { max_amount: '5' } },
      'policies.allowed_tokens[0].swap_config.max_amount must be a whole number from 0 to 9223372036854775807',
    ],
    [
      'retain_min_amount negative',
      { mint: SOL_A, swap_config: { retain_min_amount: -1 } },
      'policies.allowed_tokens[0].swap_config.retain_min_amount must be a whole number from 0 to 9223372036854775807',
    ],
    [
      'unknown token field',
      { mint: SOL_A, asset: 'native' },
      'policies.allowed_tokens[0].asset is not an allowed field',
    ],
    [
      'unknown swap field',
      { mint: SOL_A, swap_config: { strategy: 'jupiter-swap' } },
      'policies.allowed_tokens[0].swap_config.strategy is not an allowed field',
    ],
  ];

  it.each(FIELD_ERRORS)('refuses a token with %s', (_case, token, message) => {
    expect(refused('solana', { allowed_tokens: [token] })).toStrictEqual([message]);
  });

  it.each([null, SOL_A, 5, []])('refuses the entry %p', (entry) => {
    expect(refused('solana', { allowed_tokens: [{ mint: SOL_A }, entry] })).toStrictEqual([
      'policies.allowed_tokens[1] must be an object',
    ]);
  });

  it('refuses the same mint twice', () => {
    expect(
      refused('solana', { allowed_tokens: [{ mint: SOL_A }, { mint: SOL_A, decimals: 9 }] }),
    ).toStrictEqual(['policies.allowed_tokens must not contain the same mint twice']);
  });

  it('holds at most 100 tokens', () => {
    const tokens = repeat(101, (i) => ({ mint: solanaAddress(i) }));
    expect(accepted('solana', { allowed_tokens: tokens.slice(0, 100) }).allowed_tokens).toHaveLength(100);
    expect(refused('solana', { allowed_tokens: tokens })).toStrictEqual([
      'policies.allowed_tokens must have at most 100 entries',
    ]);
  });
});

describe('validatePolicies: Solana swap_config', () => {
  it('echoes a full swap_config', () => {
    const swapConfig = {
      strategy: 'jupiter-ultra',
      cron_schedule: '0 */5 * * * *',
      min_balance_threshold: 1000000,
      jupiter_swap_options: {
        priority_fee_max_lamports: 9223372036854775807n,
        priority_level: 'veryHigh',
        dynamic_compute_unit_limit: true,
      },
    };
    expect(accepted('solana', { swap_config: swapConfig })).toStrictEqual({
      fee_payment_strategy: 'user',
      swap_config: swapConfig,
    });
  });

  it('drops null fields of swap_config', () => {
    const swapConfig = {
      strategy: null,
      cron_schedule: null,
      min_balance_threshold: null,
      jupiter_swap_options: {
        priority_fee_max_lamports: null,
        priority_level: null,
        dynamic_compute_unit_limit: null,
      },
    };
    expect(accepted('solana', { swap_config: swapConfig })).toStrictEqual({
      fee_payment_strategy: 'user',
      swap_config: { jupiter_swap_options: {} },
    });
  });

  it.each([
    [{ strategy: 'jupiter' }, 'policies.swap_config.strategy must be one of: jupiter-swap, jupiter-ultra'],
    [{ strategy: 5 }, 'policies.swap_config.strategy must be one of: jupiter-swap, jupiter-ultra'],
    [{ cron_schedule: '' }, 'policies.swap_config.cron_schedule must be a string of 1 to 100 characters'],
    [
      { cron_schedule: '*'.repeat(101) },
      'policies.swap_config.cron_schedule must be a string of 1 to 100 characters',
    ],
    [
      { min_balance_threshold: -1 },
      'policies.swap_config.min_balance_threshold must be a whole number from 0 to 9223372036854775807',
    ],
    [{ jupiter_swap_options: 'fast' }, 'policies.swap_config.jupiter_swap_options must be an object'],
    [
      { jupiter_swap_options: { priority_fee_max_lamports: 1.5 } },
      'policies.swap_config.jupiter_swap_options.priority_fee_max_lamports must be a whole number from 0 to 9223372036854775807',
    ],
    [
      { jupiter_swap_options: { priority_level: 'low' } },
      'policies.swap_config.jupiter_swap_options.priority_level must be one of: medium, high, veryHigh',
    ],
    [
      { jupiter_swap_options: { dynamic_compute_unit_limit: 'yes' } },
      'policies.swap_config.jupiter_swap_options.dynamic_compute_unit_limit must be a boolean',
    ],
    [{ strategies: ['soroswap'] }, 'policies.swap_config.strategies is not an allowed field'],
    [
      { jupiter_swap_options: { slippage: 1 } },
      'policies.swap_config.jupiter_swap_options.slippage is not an allowed field',
    ],
  ])('refuses %p', (swapConfig, message) => {
    expect(refused('solana', { swap_config: swapConfig })).toStrictEqual([message]);
  });
});

describe('validatePolicies: Stellar allowed_tokens and swap_config', () => {
  it('echoes tokens and a swap_config', () => {
    const policies = {
      allowed_tokens: [
        { asset: 'native' },
        {
          asset: USDC,
          max_allowed_fee: 1000,
          swap_config: { slippage_percentage: 1, min_amount: 1, max_amount: 2, retain_min_amount: 3 },
        },
      ],
      fee_payment_strategy: 'relayer',
      swap_config: {
        strategies: ['soroswap', 'order-book'],
        min_balance_threshold: 5,
        cron_schedule: '@hourly',
      },
    };
    expect(accepted('stellar', policies)).toStrictEqual(policies);
  });

  it('drops null fields of tokens and swap_config', () => {
    expect(
      accepted('stellar', {
        allowed_tokens: [{ asset: 'native', max_allowed_fee: null, swap_config: null }],
        swap_config: { strategies: null, min_balance_threshold: null, cron_schedule: null },
      }),
    ).toStrictEqual({ allowed_tokens: [{ asset: 'native' }], swap_config: {} });
  });

  it.each([['XLM'], [CONTRACT], [`CAD:${G_ISSUER}`], [`C:${G_ISSUER}`]])('accepts the asset %p', (asset) => {
    expect(accepted('stellar', { allowed_tokens: [{ asset }] })).toStrictEqual({
      allowed_tokens: [{ asset }],
    });
  });

  const ASSET_RULE =
    "must be 'native', 'XLM', CODE:ISSUER (a code of 1 to 12 letters or digits, a G... issuer) or a Soroban contract id (C...)";

  it.each([
    [{}, 'policies.allowed_tokens[0].asset is required'],
    [{ asset: 'USDC' }, `policies.allowed_tokens[0].asset ${ASSET_RULE}`],
    [{ asset: 'USDC:GABC' }, `policies.allowed_tokens[0].asset ${ASSET_RULE}`],
    [{ asset: `TOOLONGCODE13:${G_ISSUER}` }, `policies.allowed_tokens[0].asset ${ASSET_RULE}`],
    [{ asset: `USDC:${G_ISSUER.toLowerCase()}` }, `policies.allowed_tokens[0].asset ${ASSET_RULE}`],
    [{ asset: 'NATIVE' }, `policies.allowed_tokens[0].asset ${ASSET_RULE}`],
    [{ asset: 5 }, `policies.allowed_tokens[0].asset ${ASSET_RULE}`],
    [{ asset: 'xlm' }, `policies.allowed_tokens[0].asset ${ASSET_RULE}`],
    [{ asset: CONTRACT_BAD_CHECKSUM }, `policies.allowed_tokens[0].asset ${ASSET_RULE}`],
    [{ asset: `G${CONTRACT.slice(1)}` }, `policies.allowed_tokens[0].asset ${ASSET_RULE}`],
    [
      { asset: 'native', max_allowed_fee: -1 },
      'policies.allowed_tokens[0].max_allowed_fee must be a whole number from 0 to 9223372036854775807',
    ],
    [
      { asset: 'native', swap_config: { slippage_percentage: -1 } },
      'policies.allowed_tokens[0].swap_config.slippage_percentage must be a number from 0 to 100',
    ],
    [
      { asset: 'native', swap_config: { max_amount: 9223372036854775808n } },
      'policies.allowed_tokens[0].swap_config.max_amount must be a whole number from 0 to 9223372036854775807',
    ],
    [{ asset: 'native', mint: SOL_A }, 'policies.allowed_tokens[0].mint is not an allowed field'],
  ])('refuses the token %p', (token, message) => {
    expect(refused('stellar', { allowed_tokens: [token] })).toStrictEqual([message]);
  });

  it.each([
    [USDC, USDC],
    ['native', 'XLM'],
    [CONTRACT, CONTRACT],
  ])('refuses the same asset twice (%s, %s)', (first, second) => {
    expect(refused('stellar', { allowed_tokens: [{ asset: first }, { asset: second }] })).toStrictEqual([
      'policies.allowed_tokens must not contain the same asset twice',
    ]);
  });

  it('holds at most 100 tokens', () => {
    expect(refused('stellar', { allowed_tokens: repeat(101, () => ({ asset: 'native' })) })).toStrictEqual([
      'policies.allowed_tokens must have at most 100 entries',
    ]);
  });

  it.each([
    [{ strategies: ['amm'] }, 'policies.swap_config.strategies[0] must be one of: order-book, soroswap'],
    [{ strategies: 'soroswap' }, 'policies.swap_config.strategies must be an array'],
    [
      { strategies: ['soroswap', 'soroswap'] },
      'policies.swap_config.strategies must not contain the same strategy twice',
    ],
    [
      { strategies: ['soroswap', 'order-book', 'soroswap'] },
      'policies.swap_config.strategies must have at most 2 entries',
    ],
    [
      { min_balance_threshold: '5' },
      'policies.swap_config.min_balance_threshold must be a whole number from 0 to 9223372036854775807',
    ],
    [{ cron_schedule: 5 }, 'policies.swap_config.cron_schedule must be a string of 1 to 100 characters'],
    [{ strategy: 'jupiter-swap' }, 'policies.swap_config.strategy is not an allowed field'],
  ])('refuses the swap_config %p', (swapConfig, message) => {
    expect(refused('stellar', { swap_config: swapConfig })).toStrictEqual([message]);
  });
});

describe('validatePolicies: fields of other network types and unknown fields', () => {
  it.each([
    ['evm', 'max_signatures', 5],
    ['evm', 'allowed_tokens', []],
    ['evm', 'fee_payment_strategy', 'user'],
    ['evm', 'timeout_seconds', 5],
    ['solana', 'whitelist_receivers', [EVM_A]],
    ['solana', 'gas_price_cap', 5],
    ['solana', 'concurrent_transactions', true],
    ['solana', 'timeout_seconds', 5],
    ['solana', 'max_fee', 5],
    ['stellar', 'max_signatures', 5],
    ['stellar', 'allowed_programs', [SOL_A]],
    ['stellar', 'eip1559_pricing', true],
    ['stellar', 'max_allowed_fee_lamports', 5],
    ['evm', 'pad', 1],
    ['solana', 'network_type', 'solana'],
    ['stellar', '__proto__', {}],
  ] as const)('%s refuses %s', (type, field, value) => {
    expect(refused(type, parseJson(stringifyJson({ [field]: value })))).toStrictEqual([
      `policies.${field} is not an allowed field`,
    ]);
  });

  it('refuses a foreign field even when its value is null', () => {
    expect(refused('evm', { max_signatures: null })).toStrictEqual([
      'policies.max_signatures is not an allowed field',
    ]);
  });

  it('cuts a very long unknown key short in the message', () => {
    expect(refused('evm', { ['k'.repeat(1000)]: 1 })).toStrictEqual([
      `policies.${'k'.repeat(64)}... is not an allowed field`,
    ]);
  });

  it.each([null, [], 'policies', 5, true])('refuses %p as the policies value', (raw) => {
    expect(refused('evm', raw)).toStrictEqual(['policies must be an object']);
  });

  it('reports every error, sorted and de-duplicated', () => {
    expect(
      refused('solana', {
        max_signatures: -1,
        allowed_accounts: [SOL_A],
        disallowed_accounts: ['bad'],
        whitelist_receivers: [],
        fee_payment_strategy: null,
        swap_config: { strategy: 'x' },
      }),
    ).toStrictEqual([
      'policies.allowed_accounts and policies.disallowed_accounts cannot both be set',
      'policies.disallowed_accounts[0] must be a base58 address of 32 to 44 characters',
      'policies.fee_payment_strategy must be one of: user, relayer',
      'policies.max_signatures must be a whole number from 0 to 2147483647',
      'policies.swap_config.strategy must be one of: jupiter-swap, jupiter-ultra',
      'policies.whitelist_receivers is not an allowed field',
    ]);
  });

  it('chooses the shape by the given type, never by the fields', () => {
    expect(refused('stellar', { max_signatures: 1, allowed_programs: [SOL_A] })).toStrictEqual([
      'policies.allowed_programs is not an allowed field',
      'policies.max_signatures is not an allowed field',
    ]);
  });
});

describe('validatePolicies: hostile bodies', () => {
  it('caps the error lines at 50', () => {
    const raw = Object.fromEntries(repeat(100000, (i) => [`field_${i}`, i]));
    const errors = refused('evm', raw);
    expect(errors).toHaveLength(50);
    expect(errors[0]).toBe('policies.field_0 is not an allowed field');
  });

  it('refuses a huge list by its length without looking at the entries', () => {
    const started = Date.now();
    expect(refused('solana', { allowed_programs: repeat(1000000, () => 5) })).toStrictEqual([
      'policies.allowed_programs must have at most 500 entries',
    ]);
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('does not descend into deeply nested unknown values', () => {
    let raw: Record<string, unknown> = { a: 1 };
    for (let level = 0; level < 50000; level += 1) raw = { a: raw };
    expect(refused('evm', raw)).toStrictEqual(['policies.a is not an allowed field']);
    expect(refused('evm', mergePolicies({ min_balance: 1 }, raw))).toStrictEqual([
      'policies.a is not an allowed field',
    ]);
  });
});

describe('mergePolicies (RFC 7396)', () => {
  // The examples of RFC 7396, appendix A, whose target is an object or absent.
  it.each([
    [{ a: 'b' }, { a: 'c' }, { a: 'c' }],
    [{ a: 'b' }, { b: 'c' }, { a: 'b', b: 'c' }],
    [{ a: 'b' }, { a: null }, {}],
    [{ a: 'b', b: 'c' }, { a: null }, { b: 'c' }],
    [{ a: ['b'] }, { a: 'c' }, { a: 'c' }],
    [{ a: 'c' }, { a: ['b'] }, { a: ['b'] }],
    [{ a: { b: 'c' } }, { a: { b: 'd', c: null } }, { a: { b: 'd' } }],
    [{ a: [{ b: 'c' }] }, { a: [1] }, { a: [1] }],
    [{ a: 'b' }, ['c'], ['c']],
    [{ a: 'foo' }, null, null],
    [{ a: 'foo' }, 'bar', 'bar'],
    [{ e: null }, { a: 1 }, { e: null, a: 1 }],
    [{}, { a: { bb: { ccc: null } } }, { a: { bb: {} } }],
  ] as const)('%j merged with %j gives %j', (stored, patch, expected) => {
    expect(mergePolicies(stored as Policies, patch)).toStrictEqual(expected);
  });

  it('merges nested policy objects key by key', () => {
    const stored: Policies = {
      fee_payment_strategy: 'user',
      swap_config: {
        strategy: 'jupiter-swap',
        cron_schedule: '@daily',
        jupiter_swap_options: { priority_level: 'high' },
      },
    };
    expect(
      mergePolicies(stored, {
        swap_config: { cron_schedule: null, jupiter_swap_options: { priority_level: 'medium' } },
      }),
    ).toStrictEqual({
      fee_payment_strategy: 'user',
      swap_config: { strategy: 'jupiter-swap', jupiter_swap_options: { priority_level: 'medium' } },
    });
  });

  it('replaces arrays whole, also arrays of objects', () => {
    const stored: Policies = { allowed_tokens: [{ mint: SOL_A, decimals: 9 }, { mint: SOL_B }] };
    expect(mergePolicies(stored, { allowed_tokens: [{ mint: SOL_C }] })).toStrictEqual({
      allowed_tokens: [{ mint: SOL_C }],
    });
  });

  it('keeps nulls inside a replacing array (they are values, not deletions)', () => {
    expect(mergePolicies({}, { allowed_tokens: [{ mint: SOL_A, symbol: null }] })).toStrictEqual({
      allowed_tokens: [{ mint: SOL_A, symbol: null }],
    });
  });

  it('starts from nothing when no policies are stored', () => {
    expect(mergePolicies(null, { max_fee: 5, swap_config: { strategies: null } })).toStrictEqual({
      max_fee: 5,
      swap_config: {},
    });
  });

  it('leaves the policies unchanged for an absent patch and an empty one', () => {
    const stored: Policies = { max_fee: 5 };
    expect(mergePolicies(stored, undefined)).toBe(stored);
    expect(mergePolicies(stored, {})).toStrictEqual(stored);
    expect(mergePolicies(null, undefined)).toBeNull();
  });

  it('never mutates the stored policies or the patch', () => {
    const stored: Policies = {
      swap_config: { strategies: ['soroswap'], cron_schedule: '@daily' },
      max_fee: 1,
    };
    const patch = { swap_config: { cron_schedule: null }, max_fee: 2 };
    const storedCopy = structuredClone(stored);
    const patchCopy = structuredClone(patch);
    mergePolicies(stored, patch);
    expect(stored).toStrictEqual(storedCopy);
    expect(patch).toStrictEqual(patchCopy);
  });

  it('keeps bigints exact', () => {
    expect(
      mergePolicies({ min_balance: INT64_MAX }, { timeout_seconds: 9223372036854775806n }),
    ).toStrictEqual({
      min_balance: INT64_MAX,
      timeout_seconds: 9223372036854775806n,
    });
  });

  it('keeps a "__proto__" key an own field (which validation then refuses)', () => {
    const merged = mergePolicies({}, parseJson('{"__proto__":{"polluted":true}}'));
    expect(Object.getPrototypeOf(merged)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(refused('evm', merged)).toStrictEqual(['policies.__proto__ is not an allowed field']);
  });

  it.each([
    [
      'clears one field with null and re-applies the Solana default',
      'solana',
      { fee_payment_strategy: 'relayer', max_signatures: 3 },
      { fee_payment_strategy: null },
      { fee_payment_strategy: 'user', max_signatures: 3 },
    ],
    [
      'swaps allowed_accounts for disallowed_accounts',
      'solana',
      { fee_payment_strategy: 'user', allowed_accounts: [SOL_A] },
      { allowed_accounts: null, disallowed_accounts: [SOL_B] },
      { disallowed_accounts: [SOL_B], fee_payment_strategy: 'user' },
    ],
    [
      'updates a wei amount given as a string',
      'evm',
      { min_balance: 1, eip1559_pricing: true },
      { min_balance: '123456789012345678901' },
      { eip1559_pricing: true, min_balance: 123456789012345678901n },
    ],
  ] as const)('merge then validate: %s', (_case, type, stored, patch, expected) => {
    expect(accepted(type, mergePolicies(stored as Policies, patch))).toStrictEqual(expected);
  });

  it('merge then validate: refuses a merge that sets both account lists', () => {
    expect(
      refused('solana', mergePolicies({ allowed_accounts: [SOL_A] }, { disallowed_accounts: [SOL_B] })),
    ).toStrictEqual(['policies.allowed_accounts and policies.disallowed_accounts cannot both be set']);
  });
});

describe('policySchema: the JSON Schema of the API document', () => {
  it('types exact integers beyond 2^53 as int64 and keeps the list and token rules', () => {
    const solana = policySchema('solana') as {
      properties: Record<string, { items?: { required?: string[] } } & Record<string, unknown>>;
    };
    expect(solana.properties.min_balance).toEqual({
      type: 'integer',
      minimum: 0,
      format: 'int64',
      nullable: true,
    });
    expect(solana.properties.allowed_accounts).toMatchObject({ maxItems: 500, uniqueItems: true });
    expect(solana.properties.allowed_tokens.items?.required).toEqual(['mint']);
    expect(policySchema('stellar')).toMatchObject({
      properties: { swap_config: { properties: { strategies: { maxItems: 2, uniqueItems: true } } } },
    });
  });
});
