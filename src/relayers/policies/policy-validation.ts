import { z } from 'zod';
import type { NetworkType } from '../../catalogue';
import type { Checked } from '../../common/validation/dto-validation.pipe';
import { isPlainObject } from '../../common/validation/field-rules';
import { isValidStrKey } from '../../common/validation/stellar-strkey';
import { issueLines } from '../../config/zod-issues';

export type { NetworkType };

/** A JSON value as `parseJson` produces it: integers beyond 2^53 are bigint. */
export type PolicyValue =
  null | boolean | number | bigint | string | PolicyValue[] | { [key: string]: PolicyValue };
export type Policies = { [key: string]: PolicyValue };

/** The JSON Schema (OpenAPI 3.0 dialect) of a network type's policies, for the API document. */
export type JsonSchema = Readonly<Record<string, unknown>>;

/*
 * One zod schema per network type, which also gives the API document its JSON Schema. Every rule
 * carries its whole message; an issue's path gives `policies.x.y[i]`. zod checks a list's length
 * before its items and never descends into an unknown key, so hostile input costs nothing.
 * Integers come as number or bigint (wei also as a digit string) and stay exact.
 */

const ROOT = 'policies';
const [INT32_MAX, INT64_MAX, UINT8_MAX] = [2147483647n, 9223372036854775807n, 255n];
/** Far above any wei amount (uint256 has 78 digits); only keeps a hostile value from costing time. */
const MAX_WEI_DIGITS = 1000;
const WEI_LIMIT = 10n ** BigInt(MAX_WEI_DIGITS);
const [MAX_ADDRESS_LIST, MAX_TOKENS] = [500, 100];
const [MAX_ERROR_LINES, MAX_KEY_IN_MESSAGE] = [50, 64];
/** Deeper than any policy shape, so whatever lies below is refused by validation. */
const MAX_MERGE_DEPTH = 8;
const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

const BASE58_ADDRESS = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/;
const EVM_ADDRESS = /^0x[0-9a-fA-F]{40}$/;
/** A classic asset (`native`, `XLM` or CODE:ISSUER) or a Soroban contract id (C + 55 base32). */
const STELLAR_ASSET = /^(?:native|XLM|[A-Za-z0-9]{1,12}:G[A-Z2-7]{55}|C[A-Z2-7]{55})$/;
const STELLAR_CONTRACT = /^C[A-Z2-7]{55}$/;

/** Each rule's message is whole (it follows the field's path); a required field says when it is absent. */
const orRequired = (required: boolean, rule: string) =>
  required
    ? { error: ({ input }: { input?: unknown }) => (input === undefined ? 'is required' : rule) }
    : rule;

/** A whole JSON number as bigint (an unsafe `number` is inexact: left as is, so refused). */
const wholeAsBigInt = (value: unknown): unknown =>
  typeof value === 'number' && Number.isSafeInteger(value) ? BigInt(value) : value;

/** Stored exactly: a number when safe, a bigint beyond. */
const normalise = (value: bigint): number | bigint => (value <= MAX_SAFE ? Number(value) : value);

const integer = (max: bigint) => {
  const rule = `must be a whole number from 0 to ${max}`;
  const bigint = max === INT64_MAX ? z.int64(rule) : z.bigint(rule).max(max, rule);
  return z.preprocess(wholeAsBigInt, bigint.min(0n, rule)).transform(normalise);
};

/** A wei amount: unbounded above, as a JSON number or a string of decimal digits, kept exact. */
const wei = () =>
  z
    .preprocess(
      wholeAsBigInt,
      z.xor(
        [z.bigint().min(0n).lt(WEI_LIMIT), z.string().max(MAX_WEI_DIGITS).regex(/^\d+$/)],
        `must be a whole number >= 0 (a JSON number or a string of decimal digits, at most ${MAX_WEI_DIGITS} digits)`,
      ),
    )
    .transform((value) => normalise(BigInt(value)))
    .describe('wei, exact: a whole JSON number or a string of decimal digits (answered as a number)');

const decimal = (max?: number) => {
  const rule = max === undefined ? 'must be a finite number >= 0' : `must be a number from 0 to ${max}`;
  const number = z.number(rule).min(0, rule);
  // + 0 turns -0 into 0
  const asNumber = (value: unknown) => (typeof value === 'bigint' ? Number(value) : value);
  return z.preprocess(asNumber, max === undefined ? number : number.max(max, rule)).transform((n) => n + 0);
};

const boolean = () => z.boolean('must be a boolean');

const oneOf = <const T extends readonly [string, ...string[]]>(options: T) =>
  z.enum(options, `must be one of: ${options.join(', ')}`);

const text = (min: number, max: number) => {
  const rule = `must be a string of ${min} to ${max} characters`;
  return z.string(rule).min(min, rule).max(max, rule);
};

const matching = (pattern: RegExp, rule: string, required = false) =>
  z
    .string(orRequired(required, `must be ${rule}`))
    .regex(pattern, `must be ${rule}`)
    .describe(rule);

const STELLAR_ASSET_RULE =
  "'native', 'XLM', CODE:ISSUER (a code of 1 to 12 letters or digits, a G... issuer) or a Soroban contract id (C...)";

/** The pattern gives the shape; a contract id must also be a valid StrKey (version byte, checksum). */
const stellarAsset = () =>
  matching(STELLAR_ASSET, STELLAR_ASSET_RULE, true).refine(
    (asset) => !STELLAR_CONTRACT.test(asset) || isValidStrKey('contract', asset),
    `must be ${STELLAR_ASSET_RULE}`,
  );

const base58Address = (required = false) =>
  matching(BASE58_ADDRESS, 'a base58 address of 32 to 44 characters', required);

/**
 * At most `max` items (zod checks the length before any item). `unique`: the valid items must differ
 * in `key`, `what` names it in the message ("the same mint twice").
 */
function list<T extends z.ZodType>(
  item: T,
  max: number,
  unique?: { readonly what: string; readonly key?: (item: z.output<T>) => unknown },
) {
  const array = z.array(item, 'must be an array').max(max, {
    // zod also measures a string that is not an array: it is still "not an array"
    error: ({ input }) => (Array.isArray(input) ? `must have at most ${max} entries` : 'must be an array'),
  });
  if (!unique) return array;
  const { what, key = (valid: z.output<T>): unknown => valid } = unique;
  return array
    .superRefine(
      (items, context) => {
        const keys = items.filter((_, i) => !context.issues.some((issue) => issue.path?.[0] === i)).map(key);
        if (new Set(keys).size !== keys.length) {
          context.addIssue({ code: 'custom', message: `must not contain ${what} twice` });
        }
      },
      // also when items failed, but not when the list itself did (not an array, too long)
      { when: (payload) => !payload.issues.some((issue) => !issue.path?.length) },
    )
    .meta({ uniqueItems: true });
}

/** null means "cleared": accepted and dropped from the output. */
const withoutNulls = (value: object): Policies =>
  Object.fromEntries<PolicyValue>(Object.entries(value).filter(([, field]) => field != null));

const object = <S extends z.ZodRawShape>(shape: S) =>
  z.strictObject(shape, 'must be an object').transform(withoutNulls);

// ---- the policies (OpenZeppelin Relayer's policy models) -----------------------------------------

const FEE_PAYMENT_STRATEGIES = ['user', 'relayer'] as const;
const STELLAR_SWAP_STRATEGIES = ['order-book', 'soroswap'] as const;

const tokenSwapConfig = () =>
  object({
    slippage_percentage: decimal(100).nullish(),
    min_amount: integer(INT64_MAX).nullish(),
    max_amount: integer(INT64_MAX).nullish(),
    retain_min_amount: integer(INT64_MAX).nullish(),
  });

const solanaAddressList = () =>
  list(base58Address(), MAX_ADDRESS_LIST, { what: 'the same address' }).nullish();

const EVM_POLICY = object({
  eip1559_pricing: boolean().nullish(),
  gas_limit_estimation: boolean().nullish(),
  gas_price_cap: wei().nullish(),
  include_revert_data: boolean().nullish(),
  min_balance: wei().nullish(),
  private_transactions: boolean().nullish(),
  whitelist_receivers: list(
    matching(EVM_ADDRESS, 'an EVM address (0x followed by 40 hex digits)'),
    MAX_ADDRESS_LIST,
  ).nullish(),
});

const SOLANA_ALLOWED_TOKEN = object({
  mint: base58Address(true),
  decimals: integer(UINT8_MAX).nullish(),
  symbol: text(1, 32).nullish(),
  max_allowed_fee: integer(INT64_MAX).nullish(),
  swap_config: tokenSwapConfig().nullish(),
});

const SOLANA_POLICY = object({
  allowed_accounts: solanaAddressList(),
  allowed_programs: solanaAddressList(),
  allowed_tokens: list(SOLANA_ALLOWED_TOKEN, MAX_TOKENS, {
    what: 'the same mint',
    key: (token) => token.mint,
  }).nullish(),
  disallowed_accounts: solanaAddressList(),
  fee_margin_percentage: decimal().nullish(),
  fee_payment_strategy: oneOf(FEE_PAYMENT_STRATEGIES).default('user'),
  max_allowed_fee_lamports: integer(INT64_MAX).nullish(),
  max_signatures: integer(INT32_MAX).nullish(),
  max_tx_data_size: integer(INT32_MAX).nullish(),
  min_balance: integer(INT64_MAX).nullish(),
  swap_config: object({
    strategy: oneOf(['jupiter-swap', 'jupiter-ultra']).nullish(),
    cron_schedule: text(1, 100).nullish(),
    min_balance_threshold: integer(INT64_MAX).nullish(),
    jupiter_swap_options: object({
      priority_fee_max_lamports: integer(INT64_MAX).nullish(),
      priority_level: oneOf(['medium', 'high', 'veryHigh']).nullish(),
      dynamic_compute_unit_limit: boolean().nullish(),
    }).nullish(),
  }).nullish(),
});

const STELLAR_ALLOWED_TOKEN = object({
  asset: stellarAsset(),
  max_allowed_fee: integer(INT64_MAX).nullish(),
  swap_config: tokenSwapConfig().nullish(),
});

const STELLAR_POLICY = object({
  allowed_tokens: list(STELLAR_ALLOWED_TOKEN, MAX_TOKENS, {
    what: 'the same asset',
    // `XLM` names the native asset: the two spellings are one asset
    key: (token) => (token.asset === 'XLM' ? 'native' : token.asset),
  }).nullish(),
  concurrent_transactions: boolean().nullish(),
  fee_margin_percentage: decimal().nullish(),
  fee_payment_strategy: oneOf(FEE_PAYMENT_STRATEGIES).optional(),
  max_fee: integer(INT32_MAX).nullish(),
  min_balance: integer(INT64_MAX).nullish(),
  slippage_percentage: decimal(100).nullish(),
  swap_config: object({
    strategies: list(oneOf(STELLAR_SWAP_STRATEGIES), STELLAR_SWAP_STRATEGIES.length, {
      what: 'the same strategy',
    }).nullish(),
    min_balance_threshold: integer(INT64_MAX).nullish(),
    cron_schedule: text(1, 100).nullish(),
  }).nullish(),
  timeout_seconds: integer(INT64_MAX).nullish(),
});

const POLICIES: Readonly<Record<NetworkType, z.ZodType<Policies>>> = {
  evm: EVM_POLICY,
  solana: SOLANA_POLICY,
  stellar: STELLAR_POLICY,
};

/** JSON Schema has no bigint: these are integers, with a maximum when a JSON number holds it exactly. */
const bigintAsInteger = ({ zodSchema }: { zodSchema: z.core.$ZodType }) => {
  if (!(zodSchema instanceof z.ZodBigInt)) return 'throw';
  const { minValue, maxValue, format } = zodSchema;
  return {
    type: 'integer' as const,
    ...(minValue === null ? {} : { minimum: Number(minValue) }),
    ...(maxValue !== null && maxValue <= MAX_SAFE ? { maximum: Number(maxValue) } : format ? { format } : {}),
  };
};

export function policySchema(type: NetworkType): JsonSchema {
  return z.toJSONSchema(POLICIES[type], {
    target: 'openapi-3.0',
    io: 'input',
    unrepresentable: bigintAsInteger,
  });
}

/** On the object as given (zod stops short at a list that is too long), so it holds whatever else is wrong. */
const crossFieldProblems = (type: NetworkType, raw: unknown): string[] =>
  type === 'solana' && isPlainObject(raw) && raw.allowed_accounts != null && raw.disallowed_accounts != null
    ? [`${ROOT}.allowed_accounts and ${ROOT}.disallowed_accounts cannot both be set`]
    : [];

/**
 * Validates a whole (already merged) policy object. Success: normalised for storage (null fields
 * dropped, keys in the schema's order, defaults filled in). Failure: de-duplicated sorted lines.
 */
export function validatePolicies(type: NetworkType, raw: unknown): Checked<Policies | null> {
  const result = POLICIES[type].safeParse(raw);
  const lines = (issue: z.core.$ZodIssue) => issueLines(issue, { root: ROOT, maxKey: MAX_KEY_IN_MESSAGE });
  const problems = [...(result.error?.issues.flatMap(lines) ?? []), ...crossFieldProblems(type, raw)];
  if (result.success && problems.length === 0) return { value: result.data, problems: [] };
  return { value: null, problems: [...new Set(problems)].sort().slice(0, MAX_ERROR_LINES) };
}

/** RFC 7396 JSON merge patch of `patch` over `stored` (`undefined` changes nothing); no input mutated. */
export function mergePolicies(stored: unknown, patch: unknown, depth = 0): unknown {
  if (patch === undefined) return stored;
  if (!isPlainObject(patch) || depth >= MAX_MERGE_DEPTH) return patch;
  const merged = new Map<string, unknown>(isPlainObject(stored) ? Object.entries(stored) : []);
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) merged.delete(key);
    else merged.set(key, mergePolicies(merged.get(key), value, depth + 1));
  }
  // fromEntries defines own properties, so a "__proto__" key stays a plain (refused) field.
  return Object.fromEntries(merged);
}
