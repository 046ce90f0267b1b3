import { checkUrl } from '../../common/security/url-policy';
import { isPlainObject } from '../../common/validation/field-rules';

/** The reference system's signer types whose key a key service holds (docs/reference/kms-signers.md). */
export const HOSTED_SIGNER_TYPES = [
  'vault',
  'vault_transit',
  'aws_kms',
  'google_cloud_kms',
  'azure_key_vault',
  'turnkey',
  'cdp',
] as const;
export type HostedSignerType = (typeof HOSTED_SIGNER_TYPES)[number];

export function isHostedSignerType(value: unknown): value is HostedSignerType {
  return typeof value === 'string' && (HOSTED_SIGNER_TYPES as readonly string[]).includes(value);
}

/**
 * How a field is read: `text` required, `text?` optional (null allowed), `url` required http(s),
 * `secret`/`secret?` never shown, `number?` a whole number, `auth?` Azure's auth type. A string
 * default fills an absent optional field.
 */
type FieldKind = 'text' | 'text?' | 'url' | 'secret' | 'secret?' | 'number?' | 'auth?';
type FieldSpec = readonly [name: string, kind: FieldKind, fallback?: string | number];
type Spec = readonly FieldSpec[] | { readonly [group: string]: readonly FieldSpec[] };

const VAULT: readonly FieldSpec[] = [
  ['address', 'url'],
  ['namespace', 'text?'],
  ['role_id', 'secret'],
  ['secret_id', 'secret'],
  ['key_name', 'text'],
  ['mount_point', 'text?'],
];

const GOOGLE_DEFAULTS = {
  auth_uri: 'https://accounts.google.com/o/oauth2/auth',
  token_uri: 'https://oauth2.googleapis.com/token',
  auth_provider_x509_cert_url: 'https://www.googleapis.com/oauth2/v1/certs',
  universe_domain: 'googleapis.com',
};

/** Each type's config fields, as the reference system names them (its SDK's *SignerRequestConfig). */
const SPECS: Readonly<Record<HostedSignerType, Spec>> = {
  vault: VAULT,
  vault_transit: [...VAULT, ['pubkey', 'text']],
  aws_kms: [
    ['region', 'text?'],
    ['key_id', 'text'],
  ],
  google_cloud_kms: {
    service_account: [
      ['project_id', 'text'],
      ['private_key_id', 'secret'],
      ['private_key', 'secret'],
      ['client_email', 'secret'],
      ['client_id', 'text'],
      ['auth_uri', 'text?', GOOGLE_DEFAULTS.auth_uri],
      ['token_uri', 'text?', GOOGLE_DEFAULTS.token_uri],
      ['auth_provider_x509_cert_url', 'text?', GOOGLE_DEFAULTS.auth_provider_x509_cert_url],
      ['client_x509_cert_url', 'text?', ''],
      ['universe_domain', 'text?', GOOGLE_DEFAULTS.universe_domain],
    ],
    key: [
      ['location', 'text?', 'global'],
      ['key_ring_id', 'text'],
      ['key_id', 'text'],
      ['key_version', 'number?', 1],
    ],
  },
  azure_key_vault: [
    ['auth_type', 'auth?', 'client_secret'],
    ['tenant_id', 'text?'],
    ['client_id', 'text?'],
    ['client_secret', 'secret?'],
    ['federated_token_file', 'secret?'],
    ['vault_url', 'url'],
    ['key_name', 'text'],
    ['key_version', 'text?'],
  ],
  turnkey: [
    ['api_public_key', 'text'],
    ['api_private_key', 'secret'],
    ['organization_id', 'text'],
    ['private_key_id', 'text'],
    ['public_key', 'text'],
  ],
  cdp: [
    ['api_key_id', 'text'],
    ['api_key_secret', 'secret'],
    ['wallet_secret', 'secret'],
    ['account_address', 'text'],
  ],
};

const AZURE_AUTH_TYPES = ['client_secret', 'managed_identity', 'workload_identity'];

/** The shown part of a config: what responses carry (the reference system's SignerConfigResponse). */
export type ShownConfig = Record<string, string | number | null | Record<string, string | number | null>>;

/** A hosted signer's config split in what may be shown and its secrets (`group.field` keys). */
export interface HostedSignerConfig {
  readonly type: HostedSignerType;
  readonly shown: ShownConfig;
  readonly secrets: Readonly<Record<string, string>>;
}

/**
 * Reads a string field. The API takes strings; the configuration file also takes the
 * `{"type": "env" | "plain", "value"}` objects of its secrets, which the reader resolves. Undefined
 * (with a problem pushed) when it cannot; a message never quotes the value.
 */
export type ValueReader = (value: unknown, path: string, problems: string[]) => string | undefined;

export const readApiValue: ValueReader = (value, path, problems) => {
  if (typeof value === 'string' && value.trim() !== '') return value;
  problems.push(`${path} must be a non-empty string`);
  return undefined;
};

/**
 * The one parser of a hosted signer's `config`, for the API and the configuration file: every
 * problem named with `path` (`config` or `signers[2].config`), or the config. Unknown fields are
 * refused, as the reference system does.
 */
export function parseHostedSignerConfig(
  type: HostedSignerType,
  raw: unknown,
  path: string,
  problems: string[],
  read: ValueReader = readApiValue,
): HostedSignerConfig | null {
  const before = problems.length;
  const spec = SPECS[type];
  const secrets: Record<string, string> = {};
  let shown: ShownConfig = {};
  if (!isPlainObject(raw)) {
    problems.push(`${path} must be an object`);
    return null;
  }
  if (Array.isArray(spec)) {
    shown = readFields(spec as readonly FieldSpec[], raw, path, '', secrets, problems, read);
  } else {
    const groups = spec as { readonly [group: string]: readonly FieldSpec[] };
    refuseUnknown(raw, Object.keys(groups), path, problems);
    for (const [group, fields] of Object.entries(groups)) {
      const value = raw[group];
      if (!isPlainObject(value)) problems.push(`${path}.${group} must be an object`);
      else shown[group] = readFields(fields, value, `${path}.${group}`, `${group}.`, secrets, problems, read);
    }
  }
  return problems.length === before ? { type, shown, secrets } : null;
}

function readFields(
  fields: readonly FieldSpec[],
  raw: Record<string, unknown>,
  path: string,
  prefix: string,
  secrets: Record<string, string>,
  problems: string[],
  read: ValueReader,
): Record<string, string | number | null> {
  refuseUnknown(
    raw,
    fields.map(([name]) => name),
    path,
    problems,
  );
  const shown: Record<string, string | number | null> = {};
  for (const [name, kind, fallback] of fields) {
    const value = raw[name];
    const at = `${path}.${name}`;
    const optional = kind.endsWith('?');
    if (value === undefined || value === null) {
      if (!optional) problems.push(`${at} is required`);
      else if (kind !== 'secret?') shown[name] = fallback ?? null;
      continue;
    }
    if (kind === 'number?') {
      if (Number.isSafeInteger(value) && (value as number) >= 0) shown[name] = value as number;
      else problems.push(`${at} must be a whole number`);
      continue;
    }
    const text = read(value, at, problems);
    if (text === undefined) continue;
    if (kind === 'secret' || kind === 'secret?') secrets[`${prefix}${name}`] = text;
    else if (kind === 'url' && checkUrl(text, { allowedHosts: [], blockPrivateIps: false }) !== null) {
      problems.push(`${at} must be an http or https URL`);
    } else if (kind === 'auth?' && !AZURE_AUTH_TYPES.includes(text)) {
      problems.push(`${at} must be one of ${AZURE_AUTH_TYPES.join(', ')}`);
    } else shown[name] = text;
  }
  return shown;
}

function refuseUnknown(
  raw: Record<string, unknown>,
  known: string[],
  path: string,
  problems: string[],
): void {
  for (const field of Object.keys(raw)) {
    if (!known.includes(field)) problems.push(`${path}.${field} is not an allowed field`);
  }
}

/** A shown string field (for the key service calls). */
export function shownText(config: HostedSignerConfig, name: string, group?: string): string | undefined {
  const holder = group === undefined ? config.shown : config.shown[group];
  const value = typeof holder === 'object' && holder !== null ? holder[name] : undefined;
  return typeof value === 'string' && value !== '' ? value : undefined;
}
