import { MASK, maskCredentials } from '../../common/security/url-masking';
import { checkUrl } from '../../common/security/url-policy';
import { isPlainObject } from '../../common/validation/field-rules';
import { isOneOf } from '../../catalogue/catalogue.service';

/**
 * The reference system's signer types whose key a key service holds (docs/reference/kms-signers.md),
 * with their config fields as it names them (its SDK's *SignerRequestConfig): `name` required text,
 * `name?` optional (null allowed), `name@` an http(s) URL, `name!` a secret (`name!?` optional),
 * `name#` a whole number; `name=value` an optional one with a default. Google's config has two
 * groups, each a list of its own.
 */
const VAULT = 'address@ namespace? role_id! secret_id! key_name mount_point?';
const SPECS = {
  vault: VAULT,
  vault_transit: `${VAULT} pubkey`,
  aws_kms: 'region? key_id',
  google_cloud_kms: {
    service_account:
      'project_id private_key_id! private_key! client_email! client_id ' +
      'auth_uri=https://accounts.google.com/o/oauth2/auth token_uri=https://oauth2.googleapis.com/token ' +
      'auth_provider_x509_cert_url=https://www.googleapis.com/oauth2/v1/certs client_x509_cert_url= ' +
      'universe_domain=googleapis.com',
    key: 'location=global key_ring_id key_id key_version#',
  },
  azure_key_vault:
    'auth_type=client_secret tenant_id? client_id? client_secret!? federated_token_file!? vault_url@ key_name key_version?',
  turnkey: 'api_public_key api_private_key! organization_id private_key_id public_key',
  cdp: 'api_key_id api_key_secret! wallet_secret! account_address',
} satisfies Readonly<Record<string, string | Readonly<Record<string, string>>>>;

export type HostedSignerType = keyof typeof SPECS;
export const HOSTED_SIGNER_TYPES = Object.keys(SPECS) as HostedSignerType[];
export const isHostedSignerType = isOneOf(HOSTED_SIGNER_TYPES);

const AZURE_AUTH_TYPES = ['client_secret', 'managed_identity', 'workload_identity'];

/** What responses carry (the reference system's SignerConfigResponse). */
export type ShownConfig = Record<string, string | number | null | Record<string, string | number | null>>;

/** Secrets are keyed `group.field`. */
export interface HostedSignerConfig {
  readonly type: HostedSignerType;
  readonly shown: ShownConfig;
  readonly secrets: Readonly<Record<string, string>>;
}

/**
 * The API takes strings; the configuration file also takes its `{"type": "env" | "plain", "value"}`
 * secrets, which the reader resolves. A problem never quotes the value.
 */
export type ValueReader = (value: unknown, path: string, problems: string[]) => string | undefined;

const readApiValue: ValueReader = (value, path, problems) => {
  if (typeof value === 'string' && value.trim() !== '') return value;
  problems.push(`${path} must be a non-empty string`);
  return undefined;
};

export interface HostedSignerRules {
  /** KEY_SERVICE_ALLOWED_HOSTS: Azure vault hosts beyond the Key Vault domains. */
  readonly vaultHosts: readonly string[];
  readonly read?: ValueReader;
}

/** For the API and the configuration file; unknown fields are refused, as the reference system does. */
export function parseHostedSignerConfig(
  type: HostedSignerType,
  raw: unknown,
  path: string,
  problems: string[],
  { vaultHosts, read = readApiValue }: HostedSignerRules,
): HostedSignerConfig | null {
  if (!isPlainObject(raw)) {
    problems.push(`${path} must be an object`);
    return null;
  }
  const before = problems.length;
  const secrets: Record<string, string> = {};
  const readFields = (spec: string, object: Record<string, unknown>, where: string, prefix: string) => {
    const fields = fieldsOf(spec);
    const names = fields.map(({ name }) => name);
    refuseUnknown(object, names, where, problems);
    const shown: Record<string, string | number | null> = {};
    for (const { name, marks, fallback } of fields) {
      const value = object[name];
      const at = `${where}.${name}`;
      const secret = marks.includes('!');
      if (value === undefined || value === null) {
        if (marks.includes('#')) shown[name] = 1;
        else if (fallback === undefined && !marks.includes('?')) problems.push(`${at} is required`);
        else if (!secret) shown[name] = fallback ?? null;
      } else if (marks.includes('#')) {
        if (Number.isSafeInteger(value) && (value as number) >= 0) shown[name] = value as number;
        else problems.push(`${at} must be a whole number`);
      } else {
        const text = read(value, at, problems);
        if (text === undefined) continue;
        if (secret) secrets[`${prefix}${name}`] = text;
        else if (
          marks.includes('@') &&
          checkUrl(text, { allowedHosts: [], blockPrivateIps: false }) !== null
        ) {
          problems.push(`${at} must be an http or https URL`);
        } else if (marks.includes('@') && text.includes(MASK)) {
          problems.push(`${at} is masked (${MASK}): the credentials it hid are not in it`);
        } else if (name === 'vault_url' && vaultUrlProblem(text, vaultHosts) !== null) {
          problems.push(`${at} ${vaultUrlProblem(text, vaultHosts)}`);
        } else if (name === 'auth_type' && !AZURE_AUTH_TYPES.includes(text)) {
          problems.push(`${at} must be one of ${AZURE_AUTH_TYPES.join(', ')}`);
        } else shown[name] = text;
      }
    }
    return shown;
  };
  const spec = SPECS[type];
  let shown: ShownConfig = {};
  if (typeof spec === 'string') shown = readFields(spec, raw, path, '');
  else {
    refuseUnknown(raw, Object.keys(spec), path, problems);
    for (const [group, fields] of Object.entries(spec)) {
      const value = raw[group];
      if (!isPlainObject(value)) problems.push(`${path}.${group} must be an object`);
      else shown[group] = readFields(fields, value, `${path}.${group}`, `${group}.`);
    }
  }
  return problems.length === before ? { type, shown, secrets } : null;
}

function fieldsOf(spec: string): { name: string; marks: string; fallback?: string }[] {
  return spec.split(' ').map((field) => {
    const [, name, marks, fallback] = /^(\w+)([!?@#]*)(?:=(.*))?$/.exec(field) ?? [];
    return { name, marks, fallback };
  });
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

/**
 * For the export's `env` references: the required secrets, an optional one its auth type needs, and
 * a URL that a response masks (its credentials are not in the response).
 */
export function secretFields(type: HostedSignerType, shown: ShownConfig): string[] {
  const spec = SPECS[type];
  const groups: Record<string, string> = typeof spec === 'string' ? { '': spec } : spec;
  const needed: Record<string, string> = {
    client_secret: 'client_secret',
    federated_token_file: 'workload_identity',
  };
  return Object.entries(groups).flatMap(([group, fields]) =>
    fieldsOf(fields)
      .filter(({ name, marks }) =>
        marks.includes('@')
          ? typeof shown[name] === 'string' && shown[name].includes(MASK)
          : marks.includes('!') && (!marks.includes('?') || shown.auth_type === needed[name]),
      )
      .map(({ name }) => (group === '' ? name : `${group}.${name}`)),
  );
}

/** What a response, an audit record and the export show: a URL with credentials masked. */
export function maskShownConfig(type: HostedSignerType, shown: ShownConfig): ShownConfig {
  const spec = SPECS[type];
  if (typeof spec !== 'string') return shown;
  const masked = { ...shown };
  for (const { name, marks } of fieldsOf(spec)) {
    const value = masked[name];
    if (marks.includes('@') && typeof value === 'string') masked[name] = maskCredentials(value);
  }
  return masked;
}

const KEY_VAULT_SUFFIXES = [
  '.vault.azure.net',
  '.vault.azure.cn',
  '.vault.usgovcloudapi.net',
  '.vault.microsoftazure.de',
];

/**
 * An Azure vault is `https://<name>.<Key Vault domain>`, or a host the operator lists in
 * KEY_SERVICE_ALLOWED_HOSTS (http allowed there); never a path, query or credentials
 * (docs/reference/hardening.md#2-key-services).
 */
export function vaultUrlProblem(text: string, vaultHosts: readonly string[]): string | null {
  const url = URL.parse(text);
  if (url === null) return 'must be an http or https URL';
  if (url.username !== '' || url.password !== '') return 'must not contain credentials';
  if (url.pathname !== '/' || url.search !== '' || url.hash !== '')
    return 'must have no path, query or fragment';
  const listed =
    vaultHosts.length > 0 &&
    checkUrl(text, { allowedHosts: [...vaultHosts], blockPrivateIps: false }) === null;
  if (listed) return null;
  if (url.protocol === 'https:' && KEY_VAULT_SUFFIXES.some((suffix) => url.hostname.endsWith(suffix))) {
    return null;
  }
  return `must be https://<vault>${KEY_VAULT_SUFFIXES[0]} (or ${KEY_VAULT_SUFFIXES.slice(1).join(', ')}) or a host listed in KEY_SERVICE_ALLOWED_HOSTS`;
}

/**
 * The fields by which a signer would authenticate with the service's own identity (AWS's default
 * credential chain, Azure's managed or workload identity, a token file of the server): refused
 * through the API unless KEY_SERVICE_AMBIENT_CREDENTIALS_IN_API=true.
 */
export function ambientCredentialProblems(config: HostedSignerConfig): string[] {
  const rule =
    'is accepted only from the configuration file (KEY_SERVICE_AMBIENT_CREDENTIALS_IN_API is not true)';
  const problems: string[] = [];
  if (config.type === 'aws_kms') {
    problems.push(`type aws_kms signs in with the service's own AWS credentials: it ${rule}`);
  }
  const auth = config.shown.auth_type;
  if (config.type === 'azure_key_vault' && (auth === 'managed_identity' || auth === 'workload_identity')) {
    problems.push(`config.auth_type ${auth} uses the service's own Azure identity: it ${rule}`);
  }
  if (config.secrets.federated_token_file !== undefined) {
    problems.push(`config.federated_token_file names a file of the server: it ${rule}`);
  }
  return problems;
}

export function shownText(config: HostedSignerConfig, name: string, group?: string): string | undefined {
  const holder = group === undefined ? config.shown : config.shown[group];
  const value = typeof holder === 'object' && holder !== null ? holder[name] : undefined;
  return typeof value === 'string' && value !== '' ? value : undefined;
}
