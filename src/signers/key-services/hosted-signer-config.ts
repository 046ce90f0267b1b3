import { z } from 'zod';
import { MASK, maskCredentials } from '../../common/security/url-masking';
import { checkUrl } from '../../common/security/url-policy';
import { isOneOf } from '../../catalogue';
import { issueLines } from '../../config/zod-issues';

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
 * A field's text: the API takes strings; the configuration file also takes its `{"type": "env" | "plain",
 * "value"}` secrets (FileHostedSigners). A problem never quotes the value.
 */
export type TextValue = z.ZodType<string, unknown>;

const NON_EMPTY = 'must be a non-empty string';
const API_TEXT: TextValue = z.string(NON_EMPTY).refine((text) => text.trim() !== '', NON_EMPTY);

export interface HostedSignerRules {
  /** KEY_SERVICE_ALLOWED_HOSTS: Azure vault hosts beyond the Key Vault domains. */
  readonly vaultHosts: readonly string[];
  readonly text?: TextValue;
}

/** A field by its marks (see SPECS): its output is what is shown, or the secret (undefined when absent). */
function fieldSchema({ name, marks, fallback }: Field, text: TextValue, vaultHosts: readonly string[]) {
  const problemOf = (given: string): string | null => {
    if (marks.includes('@') && checkUrl(given, { allowedHosts: [], blockPrivateIps: false }) !== null)
      return 'must be an http or https URL';
    if (marks.includes('@') && given.includes(MASK))
      return `is masked (${MASK}): the credentials it hid are not in it`;
    if (name === 'vault_url') return vaultUrlProblem(given, vaultHosts);
    if (name === 'auth_type' && !AZURE_AUTH_TYPES.includes(given))
      return `must be one of ${AZURE_AUTH_TYPES.join(', ')}`;
    return null;
  };
  const value = marks.includes('#')
    ? z.int('must be a whole number').min(0, 'must be a whole number')
    : text.superRefine((given, ctx) => {
        const problem = problemOf(given);
        if (problem !== null) ctx.addIssue(problem);
      });
  const absent = marks.includes('#') ? 1 : marks.includes('!') ? undefined : (fallback ?? null);
  const required = fallback === undefined && !marks.includes('?') && !marks.includes('#');
  return z.preprocess(
    (given) => given ?? undefined,
    required
      ? z.custom((given) => given !== undefined, 'is required').pipe(value)
      : value.optional().transform((given) => given ?? absent),
  );
}

/** For the API and the configuration file; unknown fields are refused, as the reference system does. */
export function parseHostedSignerConfig(
  type: HostedSignerType,
  raw: unknown,
  { vaultHosts, text = API_TEXT }: HostedSignerRules,
): { readonly config: HostedSignerConfig | null; readonly problems: string[] } {
  const group = (spec: string) =>
    z.strictObject(
      Object.fromEntries(fieldsOf(spec).map((field) => [field.name, fieldSchema(field, text, vaultHosts)])),
      'must be an object',
    );
  const spec = SPECS[type];
  const groups: Record<string, string> = typeof spec === 'string' ? { '': spec } : spec;
  const schema =
    typeof spec === 'string'
      ? group(spec)
      : z.strictObject(
          Object.fromEntries(Object.entries(spec).map(([g, f]) => [g, group(f)])),
          'must be an object',
        );
  const result = schema.safeParse(raw);
  if (!result.success) {
    // Unknown fields first, then the fields in their order.
    const issues = result.error.issues.toSorted(
      (a, b) => Number(b.code === 'unrecognized_keys') - Number(a.code === 'unrecognized_keys'),
    );
    const problems = issues.flatMap((issue) => issueLines(issue, { root: 'config' }));
    return { config: null, problems };
  }
  const shown: ShownConfig = {};
  const secrets: Record<string, string> = {};
  for (const [groupName, fields] of Object.entries(groups)) {
    const values = (groupName === '' ? result.data : result.data[groupName]) as Record<
      string,
      string | number | null
    >;
    const holder: Record<string, string | number | null> = {};
    for (const { name, marks } of fieldsOf(fields)) {
      const value = values[name];
      if (!marks.includes('!')) holder[name] = value;
      else if (typeof value === 'string')
        secrets[`${groupName === '' ? '' : `${groupName}.`}${name}`] = value;
    }
    if (groupName === '') Object.assign(shown, holder);
    else shown[groupName] = holder;
  }
  return { config: { type, shown, secrets }, problems: [] };
}

interface Field {
  readonly name: string;
  readonly marks: string;
  readonly fallback?: string;
}

function fieldsOf(spec: string): Field[] {
  return spec.split(' ').map((field) => {
    const [, name, marks, fallback] = /^(\w+)([!?@#]*)(?:=(.*))?$/.exec(field) ?? [];
    return { name, marks, fallback };
  });
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
