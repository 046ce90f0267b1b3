import { StrKey } from '@stellar/stellar-base';
import type { NetworkType } from '../../catalogue/catalogue.service';
import { isPlainObject } from '../../common/validation/field-rules';

export type { NetworkType };

/** A JSON value as `parseJson` produces it: integers beyond 2^53 are bigint. */
export type PolicyValue =
  null | boolean | number | bigint | string | PolicyValue[] | { [key: string]: PolicyValue };
export type Policies = { [key: string]: PolicyValue };

/*
 * One declarative table per network type (POLICY_SHAPES), read by one walker, not class-validator:
 * integers come as number | bigint | string, wei stays exact, items need `[i]` paths, and the walk
 * validates and normalises in one pass. It follows the table, never the input (fixed depth, every
 * list length-checked first).
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

const BASE58_ADDRESS = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/;
const EVM_ADDRESS = /^0x[0-9a-fA-F]{40}$/;
/** A classic asset (`native`, `XLM` or CODE:ISSUER) or a Soroban contract id (C + 55 base32). */
const STELLAR_ASSET = /^(?:native|XLM|[A-Za-z0-9]{1,12}:G[A-Z2-7]{55}|C[A-Z2-7]{55})$/;
const STELLAR_CONTRACT = /^C[A-Z2-7]{55}$/;
const DECIMAL_DIGITS = /^\d+$/;

const INVALID = Symbol('invalid');
type Outcome = PolicyValue | typeof INVALID;

/** The JSON Schema (OpenAPI 3.0 dialect) of what a check accepts, for the API document. */
export type JsonSchema = Readonly<Record<string, unknown>>;

/** Validates one value at `path`, pushing error lines; returns the normalised value or INVALID. */
type CheckFn = (value: unknown, path: string, errors: string[]) => Outcome;

type Check = CheckFn & { readonly schema: JsonSchema };

const check = (schema: JsonSchema, fn: CheckFn): Check => Object.assign(fn, { schema });

/** `nullable`: null means "cleared" (dropped from the output); `fallback`: the value when absent. */
interface Field {
  readonly check: Check;
  readonly nullable?: boolean;
  readonly required?: boolean;
  readonly fallback?: PolicyValue;
}

type Shape = Readonly<Record<string, Field>>;

const rejected = (errors: string[], line: string): typeof INVALID => (errors.push(line), INVALID);

const normaliseInteger = (value: bigint): number | bigint =>
  value <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(value) : value;

/** A whole JSON number as bigint; an unsafe `number` (exponent notation: inexact) is refused. */
function wholeNumber(value: unknown): bigint | undefined {
  if (typeof value === 'bigint') return value;
  return typeof value === 'number' && Number.isSafeInteger(value) ? BigInt(value) : undefined;
}

const boolean = (): Check =>
  check({ type: 'boolean' }, (value, path, errors) =>
    typeof value === 'boolean' ? value : rejected(errors, `${path} must be a boolean`),
  );

const oneOf = (options: readonly string[]): Check =>
  check({ type: 'string', enum: options }, (value, path, errors) =>
    typeof value === 'string' && options.includes(value)
      ? value
      : rejected(errors, `${path} must be one of: ${options.join(', ')}`),
  );

const integer = (max: bigint): Check =>
  check(
    {
      type: 'integer',
      minimum: 0,
      ...(max <= BigInt(Number.MAX_SAFE_INTEGER) ? { maximum: Number(max) } : { format: 'int64' }),
    },
    (value, path, errors) => {
      const whole = wholeNumber(value);
      return whole !== undefined && whole >= 0n && whole <= max
        ? normaliseInteger(whole)
        : rejected(errors, `${path} must be a whole number from 0 to ${max}`);
    },
  );

/** A wei amount: unbounded above, as a JSON number or a string of decimal digits, kept exact. */
const wei = (): Check =>
  check(
    {
      oneOf: [
        { type: 'integer', minimum: 0 },
        { type: 'string', pattern: DECIMAL_DIGITS.source, maxLength: MAX_WEI_DIGITS },
      ],
      description: 'wei, exact: a whole JSON number or a string of decimal digits (answered as a number)',
    },
    (value, path, errors) => {
      const whole =
        typeof value === 'string' && value.length <= MAX_WEI_DIGITS && DECIMAL_DIGITS.test(value)
          ? BigInt(value)
          : wholeNumber(value);
      return whole !== undefined && whole >= 0n && whole < WEI_LIMIT
        ? normaliseInteger(whole)
        : rejected(
            errors,
            `${path} must be a whole number >= 0 (a JSON number or a string of decimal digits, at most ${MAX_WEI_DIGITS} digits)`,
          );
    },
  );

const decimal = (max?: number): Check =>
  check(
    { type: 'number', minimum: 0, ...(max === undefined ? {} : { maximum: max }) },
    (value, path, errors) => {
      const number = typeof value === 'bigint' ? Number(value) : value;
      const fits =
        typeof number === 'number' && Number.isFinite(number) && number >= 0 && number <= (max ?? Infinity);
      if (fits) return number + 0; // + 0 turns -0 into 0
      return rejected(
        errors,
        max === undefined
          ? `${path} must be a finite number >= 0`
          : `${path} must be a number from 0 to ${max}`,
      );
    },
  );

const text = (min: number, max: number): Check =>
  check({ type: 'string', minLength: min, maxLength: max }, (value, path, errors) =>
    typeof value === 'string' && value.length >= min && value.length <= max
      ? value
      : rejected(errors, `${path} must be a string of ${min} to ${max} characters`),
  );

const matching = (pattern: RegExp, rule: string): Check =>
  check({ type: 'string', pattern: pattern.source, description: rule }, (value, path, errors) =>
    typeof value === 'string' && pattern.test(value) ? value : rejected(errors, `${path} must be ${rule}`),
  );

/** The pattern gives the shape; a contract id must also be a valid StrKey (version byte, checksum). */
const stellarAsset = (): Check => {
  const rule =
    "'native', 'XLM', CODE:ISSUER (a code of 1 to 12 letters or digits, a G... issuer) or a Soroban contract id (C...)";
  return check({ type: 'string', pattern: STELLAR_ASSET.source, description: rule }, (value, path, errors) =>
    typeof value === 'string' &&
    STELLAR_ASSET.test(value) &&
    (!STELLAR_CONTRACT.test(value) || StrKey.isValidContract(value))
      ? value
      : rejected(errors, `${path} must be ${rule}`),
  );
};

/** `XLM` names the native asset: the two spellings are one asset in `unique`. */
const stellarAssetKey = (item: PolicyValue): PolicyValue | undefined => {
  const asset = isPlainObject(item) ? item.asset : undefined;
  return asset === 'XLM' ? 'native' : asset;
};

const base58Address = (): Check => matching(BASE58_ADDRESS, 'a base58 address of 32 to 44 characters');

interface ListOptions {
  readonly max: number;
  /** Items must differ in this key; `what` names it in the message ("mint" → "the same mint twice"). */
  readonly unique?: { readonly key: (item: PolicyValue) => PolicyValue | undefined; readonly what: string };
}

const itself = (item: PolicyValue) => item;

const list = (item: Check, { max, unique }: ListOptions): Check =>
  check(
    { type: 'array', items: item.schema, maxItems: max, ...(unique ? { uniqueItems: true } : {}) },
    (value, path, errors) => {
      if (!Array.isArray(value)) return rejected(errors, `${path} must be an array`);
      if (value.length > max) return rejected(errors, `${path} must have at most ${max} entries`);
      const before = errors.length;
      const items = value
        .map((entry: unknown, index) => item(entry, `${path}[${index}]`, errors))
        .filter((checked) => checked !== INVALID);
      const keys = unique ? items.map(unique.key).filter((key) => key !== undefined) : [];
      if (new Set(keys).size !== keys.length) errors.push(`${path} must not contain ${unique?.what} twice`);
      return errors.length === before ? items : INVALID;
    },
  );

const nameInMessage = (key: string): string =>
  key.length > MAX_KEY_IN_MESSAGE ? `${key.slice(0, MAX_KEY_IN_MESSAGE)}...` : key;

/** Every INVALID comes with an error line, so no new line in `errors` means a valid output. */
function walkShape(shape: Shape, value: Record<string, unknown>, path: string, errors: string[]): Policies {
  for (const key of Object.keys(value)) {
    if (!Object.hasOwn(shape, key)) errors.push(`${path}.${nameInMessage(key)} is not an allowed field`);
  }
  const output: Policies = {};
  for (const [key, field] of Object.entries(shape)) {
    const fieldPath = `${path}.${key}`;
    const given = Object.hasOwn(value, key) ? value[key] : undefined;
    if (given === undefined) {
      if (field.required) errors.push(`${fieldPath} is required`);
      else if (field.fallback !== undefined) output[key] = field.fallback;
    } else if (given !== null || !field.nullable) {
      const checked = field.check(given, fieldPath, errors);
      if (checked !== INVALID) output[key] = checked;
    }
  }
  return output;
}

const object = (shape: Shape): Check =>
  check(shapeSchema(shape), (value, path, errors) => {
    if (!isPlainObject(value)) return rejected(errors, `${path} must be an object`);
    const before = errors.length;
    const output = walkShape(shape, value, path, errors);
    return errors.length === before ? output : INVALID;
  });

function shapeSchema(shape: Shape): JsonSchema {
  const required = Object.keys(shape).filter((key) => shape[key].required);
  return {
    type: 'object',
    additionalProperties: false,
    properties: Object.fromEntries(
      Object.entries(shape).map(([key, field]) => [
        key,
        {
          ...field.check.schema,
          ...(field.nullable ? { nullable: true } : {}),
          ...(field.fallback !== undefined ? { default: field.fallback } : {}),
        },
      ]),
    ),
    ...(required.length > 0 ? { required } : {}),
  };
}

const optional = (check: Check): Field => ({ check, nullable: true });

// ---- the shapes (OpenZeppelin Relayer's policy models) -------------------------------------------

const FEE_PAYMENT_STRATEGIES = ['user', 'relayer'] as const;
const SOLANA_SWAP_STRATEGIES = ['jupiter-swap', 'jupiter-ultra'] as const;
const JUPITER_PRIORITY_LEVELS = ['medium', 'high', 'veryHigh'] as const;
const STELLAR_SWAP_STRATEGIES = ['order-book', 'soroswap'] as const;

const tokenSwapConfig: Shape = {
  slippage_percentage: optional(decimal(100)),
  min_amount: optional(integer(INT64_MAX)),
  max_amount: optional(integer(INT64_MAX)),
  retain_min_amount: optional(integer(INT64_MAX)),
};

const keyOf = (name: string) => (item: PolicyValue) => (isPlainObject(item) ? item[name] : undefined);

const EVM_POLICY: Shape = {
  eip1559_pricing: optional(boolean()),
  gas_limit_estimation: optional(boolean()),
  gas_price_cap: optional(wei()),
  include_revert_data: optional(boolean()),
  min_balance: optional(wei()),
  private_transactions: optional(boolean()),
  whitelist_receivers: optional(
    list(matching(EVM_ADDRESS, 'an EVM address (0x followed by 40 hex digits)'), { max: MAX_ADDRESS_LIST }),
  ),
};

const solanaAddressList = (): Field =>
  optional(
    list(base58Address(), { max: MAX_ADDRESS_LIST, unique: { key: itself, what: 'the same address' } }),
  );

const SOLANA_ALLOWED_TOKEN: Shape = {
  mint: { check: base58Address(), required: true },
  decimals: optional(integer(UINT8_MAX)),
  symbol: optional(text(1, 32)),
  max_allowed_fee: optional(integer(INT64_MAX)),
  swap_config: optional(object(tokenSwapConfig)),
};

const SOLANA_SWAP_CONFIG: Shape = {
  strategy: optional(oneOf(SOLANA_SWAP_STRATEGIES)),
  cron_schedule: optional(text(1, 100)),
  min_balance_threshold: optional(integer(INT64_MAX)),
  jupiter_swap_options: optional(
    object({
      priority_fee_max_lamports: optional(integer(INT64_MAX)),
      priority_level: optional(oneOf(JUPITER_PRIORITY_LEVELS)),
      dynamic_compute_unit_limit: optional(boolean()),
    }),
  ),
};

const SOLANA_POLICY: Shape = {
  allowed_accounts: solanaAddressList(),
  allowed_programs: solanaAddressList(),
  allowed_tokens: optional(
    list(object(SOLANA_ALLOWED_TOKEN), {
      max: MAX_TOKENS,
      unique: { key: keyOf('mint'), what: 'the same mint' },
    }),
  ),
  disallowed_accounts: solanaAddressList(),
  fee_margin_percentage: optional(decimal()),
  fee_payment_strategy: { check: oneOf(FEE_PAYMENT_STRATEGIES), fallback: 'user' },
  max_allowed_fee_lamports: optional(integer(INT64_MAX)),
  max_signatures: optional(integer(INT32_MAX)),
  max_tx_data_size: optional(integer(INT32_MAX)),
  min_balance: optional(integer(INT64_MAX)),
  swap_config: optional(object(SOLANA_SWAP_CONFIG)),
};

const STELLAR_ALLOWED_TOKEN: Shape = {
  asset: { check: stellarAsset(), required: true },
  max_allowed_fee: optional(integer(INT64_MAX)),
  swap_config: optional(object(tokenSwapConfig)),
};

const STELLAR_SWAP_CONFIG: Shape = {
  strategies: optional(
    list(oneOf(STELLAR_SWAP_STRATEGIES), {
      max: STELLAR_SWAP_STRATEGIES.length,
      unique: { key: itself, what: 'the same strategy' },
    }),
  ),
  min_balance_threshold: optional(integer(INT64_MAX)),
  cron_schedule: optional(text(1, 100)),
};

const STELLAR_POLICY: Shape = {
  allowed_tokens: optional(
    list(object(STELLAR_ALLOWED_TOKEN), {
      max: MAX_TOKENS,
      unique: { key: stellarAssetKey, what: 'the same asset' },
    }),
  ),
  concurrent_transactions: optional(boolean()),
  fee_margin_percentage: optional(decimal()),
  fee_payment_strategy: { check: oneOf(FEE_PAYMENT_STRATEGIES) },
  max_fee: optional(integer(INT32_MAX)),
  min_balance: optional(integer(INT64_MAX)),
  slippage_percentage: optional(decimal(100)),
  swap_config: optional(object(STELLAR_SWAP_CONFIG)),
  timeout_seconds: optional(integer(INT64_MAX)),
};

const POLICY_SHAPES: Readonly<Record<NetworkType, Shape>> = {
  evm: EVM_POLICY,
  solana: SOLANA_POLICY,
  stellar: STELLAR_POLICY,
};

export function policySchema(type: NetworkType): JsonSchema {
  return shapeSchema(POLICY_SHAPES[type]);
}

/**
 * Validates a whole (already merged) policy object. Success: normalised for storage (null fields
 * dropped, keys in the shape's order, defaults filled in). Failure: de-duplicated sorted lines.
 */
export function validatePolicies(
  type: NetworkType,
  raw: unknown,
): { ok: true; policies: Policies } | { ok: false; errors: string[] } {
  if (!isPlainObject(raw)) return { ok: false, errors: [`${ROOT} must be an object`] };
  const errors: string[] = [];
  const policies = walkShape(POLICY_SHAPES[type], raw, ROOT, errors);
  // Checked on the raw object, so that it holds whatever else is wrong.
  if (type === 'solana' && raw.allowed_accounts != null && raw.disallowed_accounts != null) {
    errors.push(`${ROOT}.allowed_accounts and ${ROOT}.disallowed_accounts cannot both be set`);
  }
  if (errors.length === 0) return { ok: true, policies };
  return { ok: false, errors: [...new Set(errors)].sort().slice(0, MAX_ERROR_LINES) };
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
