import { z } from 'zod';
import type { Checked } from '../common/validation/dto-validation.pipe';
import { MASK } from '../common/security/url-masking';
import { RPC_WEIGHT, RPC_WEIGHT_RULE } from '../common/validation/field-rules';
import { KEY_LENGTH_BYTES } from '../catalogue';
import { NETWORK_TYPES, SIGNER_ID_PATTERN, SIGNER_TYPES } from '../catalogue';
import { describeUnknown, isHttpUrl, isPlainObject, listOf, quoted } from './config-json';

/**
 * The configuration file (docs/reference/config-file.md) as zod schemas. Each message is the text after
 * the entry that `issueText` names: it names its own field (`chain_id must be ...`), and an item of a
 * list by what follows its index (`.weight must be ...`).
 */
type Env = Record<string, string | undefined>;

const problem = (message: string) => ({ error: message });
const unknownType = (expected: readonly string[]) => ({
  error: (issue: { code?: string; input?: unknown }) => {
    if (issue.code === 'invalid_type' && !isPlainObject(issue.input)) return 'must be an object';
    const type = isPlainObject(issue.input) ? issue.input.type : issue.input;
    return `${describeUnknown('type', type)} (expected ${listOf(expected)})`;
  },
});
/** A string of at least `min` characters, `message` otherwise. */
const text = (message: string, min = 1) => z.string(problem(message)).min(min, problem(message));
const nonEmpty = (field: string) => text(`${field} must be a non-empty string`);
/** A whole number of at least `min`, `message` otherwise. */
const whole = (message: string, min: number) => z.int(problem(message)).min(min, problem(message));

const ENV_VARIABLE_PATTERN = /^[A-Za-z_][A-Za-z0-9_]*$/;
const FILE_NAME_PATTERN = /^[A-Za-z0-9_][A-Za-z0-9._-]*$/;
export const HEX_KEY_PATTERN = new RegExp(`^(?:0x)?[0-9a-fA-F]{${KEY_LENGTH_BYTES * 2}}$`);

/**
 * `{"type": "env" | "plain" (| "generated"), "value": ...}`, named `name` in its messages. Nothing inside
 * a secret object is ever quoted: a misplaced key could sit in any field.
 */
export function secretRef(name: string, generated: boolean) {
  const types = generated ? 'env, plain or generated' : 'env or plain';
  const at = (rule: string) => problem(`${name}: ${rule}`);
  // A name that is not a key pasted in its place.
  const named = (pattern: RegExp, rule: string) =>
    z
      .string(at(rule))
      .regex(pattern, at(rule))
      .refine((text) => !HEX_KEY_PATTERN.test(text.trim()), at(rule));
  const env = z.object({
    type: z.literal('env'),
    value: named(ENV_VARIABLE_PATTERN, 'value of an env secret must be the name of an environment variable'),
  });
  const plain = z.object({
    type: z.literal('plain'),
    value: text(`${name}: value of a plain secret must be a non-empty string`),
  });
  const made = z.object({
    type: z.literal('generated'),
    value: named(FILE_NAME_PATTERN, 'value of a generated secret must be a file name in the data folder'),
  });
  return z.discriminatedUnion('type', generated ? [env, plain, made] : [env, plain], {
    error: (issue) =>
      `${name}: ${!isPlainObject(issue.input) ? `must be a secret object {"type": ${types}, "value": ...}` : `secret type must be ${types}`}`,
  });
}
export type SecretRef = z.output<ReturnType<typeof secretRef>>;

/** The value an env or plain secret stands for, or the problem (`environment variable X is not set`). */
export function secretValue(ref: SecretRef, env: Env): Checked<string> {
  if (ref.type === 'plain') return { value: ref.value, problems: [] };
  if (ref.type === 'generated') {
    return { value: '', problems: ['a generated secret can only be the key of a plain signer'] };
  }
  const value = env[ref.value] ?? '';
  return { value, problems: value ? [] : [`environment variable ${ref.value} is not set`] };
}

/** An env or plain secret, resolved. */
export function resolvedSecret(name: string, env: Env) {
  return secretRef(name, false).transform((ref, ctx) => {
    const { value, problems } = secretValue(ref, env);
    if (problems.length === 0) return value;
    ctx.addIssue(`${name}: ${problems[0]}`);
    return z.NEVER;
  });
}

/** `schema`'s output for `value`, its issues added to `ctx`'s. */
function within<T>(schema: z.ZodType<T>, value: unknown, ctx: z.RefinementCtx): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  for (const { message, path } of result.error.issues) ctx.addIssue({ code: 'custom', message, path });
  return z.NEVER;
}

/** An http(s) URL (trimmed first when `trim`), `message` otherwise. */
const httpUrl = (message: string, trim = false) =>
  (trim ? z.string(problem(message)).trim() : z.string(problem(message))).refine(isHttpUrl, problem(message));

/** `{"type": ..., "value": ...}` in place of a URL: a secret reference (an object without `url`). */
const isUrlReference = (value: unknown): value is Record<string, unknown> =>
  isPlainObject(value) && !('url' in value) && 'type' in value;

/**
 * Items are URLs or `{url, weight}` as in the reference system; a bare URL weighs 100. A URL may be given
 * as an environment reference `{"type": "env", "value": "<NAME>"}` (alone or as `url`), as the export
 * writes the URLs an answer masks (docs/reference/config-file.md#32-no-secret-is-exported), and as the
 * reference system's pending network files do (docs/reference/config-file.md#19-pending-shapes-of-the-reference-system).
 * With `keepVariable`, an item read from a variable keeps its name as `variable`, for the export.
 */
export function rpcUrls(field: string, env: Env, keepVariable = false) {
  // Never quoted: RPC URLs often carry an API key; one as every answer shows it lacks the secret `***` hides.
  const masked = problem(' is a masked URL (*** hides a secret that is not in the file)');
  const url = httpUrl(' must be an http(s) URL', true).refine((given) => !given.includes('***'), masked);
  const item = z.preprocess(
    (given, ctx) => {
      const object = isPlainObject(given) && !isUrlReference(given);
      // `variable` is the reader's, never the file's (dropped as any key of an item it does not read).
      const { variable: _written, ...entry }: Record<string, unknown> = object ? given : { url: given };
      if (!isUrlReference(entry.url)) return entry;
      const variable = keepVariable && entry.url.type === 'env' ? { variable: entry.url.value } : {};
      const resolved = within(resolvedSecret(object ? '.url' : '', env), entry.url, ctx);
      return { ...entry, url: resolved, ...variable };
    },
    z.object({
      url,
      weight: whole(`.weight ${RPC_WEIGHT_RULE}`, RPC_WEIGHT.min)
        .max(RPC_WEIGHT.max, problem(`.weight ${RPC_WEIGHT_RULE}`))
        .default(RPC_WEIGHT.default),
      ...(keepVariable ? { variable: z.string().optional() } : {}),
    }),
  );
  const list = problem(`${field} must be a non-empty array of http(s) URLs`);
  return z.array(item, list).min(1, list);
}

/**
 * An EVM network's `status_check` (the reference system's pending PR #847, whose fields are still
 * changing): an object of scalar values, kept as written and exported back
 * (docs/reference/config-file.md#19-pending-shapes-of-the-reference-system).
 */
const statusCheck = () => {
  const rule = 'status_check must be an object of scalar values (strings, numbers, booleans)';
  const isScalar = (value: unknown) => ['string', 'number', 'bigint', 'boolean'].includes(typeof value);
  return z.record(z.string(), z.unknown(), problem(rule)).superRefine((block, ctx) => {
    for (const [key, value] of Object.entries(block)) {
      if (!isScalar(value)) {
        ctx.addIssue({
          code: 'custom',
          message: `status_check.${key.slice(0, 60)} must be a string, a number or a boolean`,
        });
      }
    }
  });
};

const ID_RULE = problem('id must be 1 to 36 letters, digits, "-" or "_"');
const entryId = () => z.string(ID_RULE).regex(SIGNER_ID_PATTERN, ID_RULE);

/** An array of entries with distinct ids; `again` names a repeated one after the first. */
function section<T extends z.ZodType<{ id: string }>>(
  name: string,
  entry: T,
  again: (id: string, first: number) => string,
) {
  return z.array(entry, problem(`${name} must be an array`)).superRefine((entries, ctx) => {
    const seen = new Map<string, number>();
    entries.forEach(({ id }, index) => {
      const first = seen.get(id);
      if (first !== undefined) ctx.addIssue({ code: 'custom', message: again(id, first), path: [index] });
      seen.set(id, first ?? index);
    });
  });
}

/** Before `from` is resolved: the name, the type and the keys of the reference system (19.1). */
const NETWORK_KEYS = [
  ...['rpc_urls', 'explorer_urls', 'symbol', 'features', 'tags', 'is_testnet', 'average_blocktime_ms'],
  ...['required_confirmations', 'chain_id', 'gas_price_cache', 'passphrase', 'horizon_url', 'status_check'],
] as const;
/** Any value for each of `keys`, checked later. */
const anyOf = <K extends string>(keys: readonly K[]) =>
  Object.fromEntries(keys.map((key) => [key, z.unknown().optional()])) as Record<
    K,
    z.ZodOptional<z.ZodUnknown>
  >;
export const networkEntry = z.strictObject(
  {
    ...anyOf(NETWORK_KEYS),
    network: nonEmpty('network')
      .refine((name) => name.trim().length > 0, problem('network must be a non-empty string'))
      .refine((name) => name === name.trim(), problem('network must not start or end with whitespace')),
    type: z.enum(NETWORK_TYPES, unknownType(NETWORK_TYPES)),
    from: text('from must be the name of another network').optional(),
  },
  problem('must be an object'),
);

/** A network's fields once `from` is resolved; the fields not given are not in the answer. */
export function networkSchema(env: Env) {
  const list = (field: string) => {
    const rule = problem(`${field} must be an array of non-empty strings`);
    return z
      .array(z.unknown(), rule)
      .refine((items) => items.every((item) => item && typeof item === 'string'), rule);
  };
  const count = (field: string) => whole(`${field} must be a whole number of at least 0`, 0).optional();
  const common = {
    network: z.string(),
    rpc_urls: rpcUrls('rpc_urls', env, true),
    is_testnet: z.boolean(problem('is_testnet must be a boolean')).default(false),
  };
  const optional = {
    symbol: nonEmpty('symbol').optional(),
    explorer_urls: list('explorer_urls').optional(),
    features: list('features').optional(),
    tags: list('tags').optional(),
    average_blocktime_ms: count('average_blocktime_ms'),
    required_confirmations: count('required_confirmations'),
    horizon_url: httpUrl('horizon_url must be an http(s) URL').optional(),
    gas_price_cache: z
      .record(z.string(), z.unknown(), problem('gas_price_cache must be an object'))
      .optional(),
  };
  // PR #847 adds it to EVM networks only.
  const notEvm = { status_check: z.never(problem('status_check is read for EVM networks only')).optional() };
  return z.discriminatedUnion('type', [
    z.object({
      type: z.literal('evm'),
      ...common,
      chain_id: whole('chain_id must be a positive integer', 1),
      ...optional,
      status_check: statusCheck().optional(),
    }),
    z.object({ type: z.literal('solana'), ...common, ...optional, ...notEvm }),
    z.object({
      type: z.literal('stellar'),
      ...common,
      passphrase: nonEmpty('passphrase'),
      ...optional,
      ...notEvm,
    }),
  ]);
}

/**
 * A signer of the file: `plain` (its key a secret), `local` (an Ethereum v3 keystore), or one whose key a
 * key service holds (`hostedTypes`, its config checked by the signers feature).
 */
function signerEntry(hostedTypes: readonly string[]) {
  const config = <S extends z.ZodRawShape>(shape: S) => z.object(shape, problem('config must be an object'));
  const [first, ...others] = hostedTypes;
  const types = [
    z.strictObject({
      id: entryId(),
      type: z.literal('plain'),
      config: config({ key: secretRef('key', true) }),
    }),
    z.strictObject({
      id: entryId(),
      type: z.literal('local'),
      config: config({
        path: text('config.path must name an Ethereum v3 keystore file'),
        passphrase: secretRef('passphrase', false),
      }),
    }),
  ] as const;
  const hosted = z.strictObject({
    id: entryId(),
    type: z.enum([first, ...others]),
    config: z.unknown().transform((given) => ({ hosted: given })),
  });
  return z.discriminatedUnion(
    'type',
    first === undefined ? types : [...types, hosted],
    unknownType(SIGNER_TYPES),
  );
}
export type SignerEntry = z.output<ReturnType<typeof signerEntry>>;

const notificationEntry = (env: Env) =>
  z.strictObject({
    id: entryId(),
    type: z.literal('webhook', problem('type must be "webhook"')),
    // A string as the API takes it, or an env reference, as the export writes one that may hold a
    // secret (docs/reference/config-file.md#32-no-secret-is-exported).
    url: z.preprocess(
      (url, ctx) => (isUrlReference(url) ? within(resolvedSecret('url', env), url, ctx) : url),
      nonEmpty('url'),
    ),
    // A string as the API takes it, or a secret.
    signing_key: z.preprocess(
      (key, ctx) =>
        key === null || typeof key === 'string'
          ? (key ?? undefined)
          : within(resolvedSecret('signing_key', env), key, ctx),
      z.string().optional(),
    ),
  });

/** The secrets of an alert channel's `config`: a Slack webhook's URL, a PagerDuty routing key. */
const CHANNEL_SECRETS = ['webhook_url', 'routing_key'] as const;

const CHANNEL_KEYS = ['id', 'type', 'config', 'events', 'relayer_ids'];

/**
 * An alert channel (docs/reference/config-file.md#110-alert-channels-in-the-file): its rules are the
 * API's; each secret of its `config` is a string or a secret reference, as the export writes it. A
 * masked one (`***`, copied from an answer) is refused: the secret it hid is not in the file. The
 * reference system has no such section, so a key beyond its fields is refused, not ignored.
 */
const alertChannelEntry = (env: Env) =>
  z
    .looseObject({
      ...anyOf(['type', 'events', 'relayer_ids'] as const),
      id: entryId(),
      config: z.preprocess((config, ctx) => {
        if (!isPlainObject(config)) return config;
        const resolved: Record<string, unknown> = { ...config };
        for (const field of CHANNEL_SECRETS.filter((name) => config[name] != null)) {
          const name = `config.${field}`;
          const given = config[field];
          // Anything other than a string or an object is the API's to refuse, by its own rule.
          const value = isPlainObject(given) ? within(resolvedSecret(name, env), given, ctx) : given;
          if (typeof value === 'string' && value.includes(MASK)) {
            ctx.addIssue(`${name} is masked (*** hides a secret that is not in the file)`);
          }
          resolved[field] = value;
        }
        return resolved;
      }, z.unknown()),
    })
    .superRefine((entry, ctx) => {
      for (const key of Object.keys(entry).filter((name) => !CHANNEL_KEYS.includes(name))) {
        ctx.addIssue(`unknown key ${quoted(key)} (expected ${listOf(CHANNEL_KEYS)})`);
      }
    });

// The relayer rules themselves are the API's; `custom_rpc_urls` items may be plain strings (weight 100).
const RELAYER_KEYS = [
  ...['name', 'network', 'network_type', 'paused', 'signer_id', 'notification_id', 'policies'],
] as const;
const relayerEntry = (env: Env) =>
  z.strictObject({
    ...anyOf(RELAYER_KEYS),
    id: entryId(),
    custom_rpc_urls: z.preprocess(
      (urls, ctx) =>
        Array.isArray(urls) && urls.length > 0 ? within(rpcUrls('custom_rpc_urls', env), urls, ctx) : urls,
      z.unknown(),
    ),
  });

/** The top level: its sections are read by `sectionsSchema` and the networks' reader. */
export const TOP_LEVEL_KEYS = [
  'networks',
  'signers',
  'relayers',
  'notifications',
  'alert_channels',
  'plugins',
] as const;
export const topLevelSchema = z.strictObject(
  {
    ...anyOf(TOP_LEVEL_KEYS),
    plugins: z.array(z.unknown(), problem('plugins must be an array')).optional(),
  },
  problem('must hold a JSON object with "networks" and "signers"'),
);

export function sectionsSchema(env: Env, hostedTypes: readonly string[]) {
  const again = (kind: string) => (id: string, first: number) =>
    `id '${id}' is defined more than once (first at ${kind}[${first}])`;
  return z.object({
    signers: section(
      'signers',
      signerEntry(hostedTypes),
      (_, first) => `defined more than once (first at signers[${first}])`,
    ),
    notifications: section('notifications', notificationEntry(env), again('notifications')).default([]),
    relayers: section('relayers', relayerEntry(env), again('relayers')).default([]),
    alert_channels: section('alert_channels', alertChannelEntry(env), again('alert_channels')).default([]),
  });
}

/** A relayer, notification or alert channel of the file (19.1): the body of a create, secrets resolved. */
export type FileEntry = { readonly id: string; readonly body: Readonly<Record<string, unknown>> };
