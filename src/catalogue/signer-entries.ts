import { randomBytes } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { createKeyFileOnce } from '../common/security/key-file';
import { KEY_LENGTH_BYTES, isValidSecp256k1PrivateKey } from './address-derivation';
import { SecretKey, type CatalogueSigner } from './catalogue.service';
import {
  SIGNER_ID_PATTERN,
  SIGNER_TYPES,
  isSignerType,
  type HostedSignerResolver,
  type SignerType,
} from './catalogue.types';
import {
  CatalogueConfigError,
  Scope,
  describeUnknown,
  findPath,
  pathCandidates,
  readIfExists,
  isNonEmptyString,
  isPlainObject,
  listOf,
  withoutIgnoredKeys,
  type IgnoredKeys,
} from './config-json';

export interface SignerContext {
  /** A keystore's path is found from the working directory, then from this file's folder (19.4). */
  readonly configFile: string;
  readonly ignored: IgnoredKeys;
  /** Where a generated development key is kept. */
  readonly dataDir: string;
  readonly production: boolean;
  readonly env: Record<string, string | undefined>;
  /** Told about events worth a log line, such as a newly generated development key. Never given a secret. */
  readonly onNotice?: (message: string) => void;
  /** `config check`: nothing is written; a development key not generated yet stands as a placeholder. */
  readonly readOnly?: boolean;
  /** Without it, the types of signers whose key a key service holds are unknown. */
  readonly hostedSigners?: HostedSignerResolver;
}

type SecretRef = { readonly type: 'env' | 'plain' | 'generated'; readonly value: string };

/** `secret`: the key of a plain signer, the passphrase of a local one; `hosted`: the entry of a hosted one. */
type SignerSpec = { readonly id: string; readonly scope: Scope } & (
  | { readonly type: SignerType; readonly secret: SecretRef; readonly keystorePath?: string }
  | { readonly hosted: Record<string, unknown> }
);

/**
 * First the shape of every entry, then the keys: synchronous per signer when the key is in the file or
 * the environment, so that 20,000 such signers load without an await each (about 10 ms).
 */
export async function readSigners(
  value: unknown,
  scope: Scope,
  context: SignerContext,
): Promise<CatalogueSigner[]> {
  if (!Array.isArray(value)) return scope.fail('signers must be an array');
  const origins = new Map<string, string>();
  const specs = value.map((item: unknown, index) => {
    const spec = parseSignerSpec(item, scope, `signers[${index}]`, context);
    const firstOrigin = origins.get(spec.id);
    if (firstOrigin !== undefined) spec.scope.fail(`defined more than once (first at ${firstOrigin})`);
    origins.set(spec.id, `signers[${index}]`);
    return spec;
  });
  const signers: CatalogueSigner[] = [];
  for (const spec of specs) {
    if ('hosted' in spec) {
      const { id, scope, hosted } = spec;
      const view = await context.hostedSigners
        ?.resolve(id, String(hosted.type), hosted.config)
        .catch((error: Error) => scope.fail(error.message));
      signers.push({ id, type: 'plain', key: new SecretKey(new Uint8Array()), hosted: view });
      continue;
    }
    const { id, type, scope, secret, keystorePath } = spec;
    let key: Uint8Array;
    if (keystorePath !== undefined) {
      const passphrase = resolveSecret(secret, scope.child('passphrase'), context.env);
      key = await decryptKeystore(
        await findKeystore(keystorePath, context.configFile, scope),
        passphrase,
        scope,
      );
    } else if (secret.type === 'generated') key = await generatedKey(id, secret.value, scope, context);
    else key = parseKey(resolveSecret(secret, scope.child('key'), context.env), scope);
    signers.push({ id, type, key: new SecretKey(key) });
  }
  return signers;
}

function parseSignerSpec(
  value: unknown,
  parent: Scope,
  fallbackLabel: string,
  { hostedSigners: hosted, ignored }: SignerContext,
): SignerSpec {
  if (!isPlainObject(value)) return parent.child(fallbackLabel).fail('must be an object');
  const { id, type, config } = value;
  if (typeof id !== 'string' || !SIGNER_ID_PATTERN.test(id)) {
    return parent.child(fallbackLabel).fail('id must be 1 to 36 letters, digits, "-" or "_"');
  }
  const scope: Scope = parent.child(`signer '${id}'`);
  const known = withoutIgnoredKeys(value, SIGNER_KEYS, scope, ignored);
  if (hosted?.accepts(type)) return { id, scope, hosted: known };
  if (!isSignerType(type))
    return scope.fail(`${describeUnknown('type', type)} (expected ${listOf(SIGNER_TYPES)})`);
  if (!isPlainObject(config)) return scope.fail('config must be an object');
  if (type === 'plain') {
    return { id, type, scope, secret: parseSecretRef(config.key, scope.child('key'), { generated: true }) };
  }
  if (!isNonEmptyString(config.path)) scope.fail('config.path must name an Ethereum v3 keystore file');
  const secret = parseSecretRef(config.passphrase, scope.child('passphrase'), { generated: false });
  return { id, type, scope, secret, keystorePath: config.path };
}

/** 1: the smallest valid secp256k1 key, never used to sign (only in `config check`). */
const PLACEHOLDER_KEY = Uint8Array.from({ length: KEY_LENGTH_BYTES }, (_, i) =>
  i === KEY_LENGTH_BYTES - 1 ? 1 : 0,
);
const SIGNER_KEYS: ReadonlySet<string> = new Set(['id', 'type', 'config']);
const ENV_VARIABLE_PATTERN = /^[A-Za-z_][A-Za-z0-9_]*$/;
const FILE_NAME_PATTERN = /^[A-Za-z0-9_][A-Za-z0-9._-]*$/;
const HEX_KEY_PATTERN = new RegExp(`^(?:0x)?[0-9a-fA-F]{${KEY_LENGTH_BYTES * 2}}$`);

/** Nothing inside a secret object is ever quoted in a message: a misplaced key could sit in any field. */
export function parseSecretRef(value: unknown, scope: Scope, allow: { generated: boolean }): SecretRef {
  const types = allow.generated ? 'env, plain or generated' : 'env or plain';
  if (!isPlainObject(value)) return scope.fail(`must be a secret object {"type": ${types}, "value": ...}`);
  const text = value.value;
  const named = (pattern: RegExp) =>
    typeof text === 'string' && pattern.test(text) && !HEX_KEY_PATTERN.test(text.trim());
  switch (value.type) {
    case 'env':
      if (!named(ENV_VARIABLE_PATTERN))
        scope.fail('value of an env secret must be the name of an environment variable');
      return { type: 'env', value: text as string };
    case 'plain':
      if (!isNonEmptyString(text)) scope.fail('value of a plain secret must be a non-empty string');
      return { type: 'plain', value: text };
    case 'generated':
      if (!allow.generated) break;
      if (!named(FILE_NAME_PATTERN))
        scope.fail('value of a generated secret must be a file name in the data folder');
      return { type: 'generated', value: text as string };
  }
  return scope.fail(`secret type must be ${types}`);
}

export function resolveSecret(ref: SecretRef, scope: Scope, env: Record<string, string | undefined>): string {
  if (ref.type === 'plain') return ref.value;
  if (ref.type === 'generated') return scope.fail('a generated secret can only be the key of a plain signer');
  const value = env[ref.value];
  if (value === undefined || value === '') scope.fail(`environment variable ${ref.value} is not set`);
  return value;
}

function parseKey(text: string, scope: Scope): Uint8Array {
  const trimmed = text.trim();
  if (!HEX_KEY_PATTERN.test(trimmed)) scope.fail('key must be 32 bytes as 64 hex characters');
  // SecretKey keeps its own copy of these bytes.
  const key = Buffer.from(trimmed.startsWith('0x') ? trimmed.slice(2) : trimmed, 'hex');
  if (!isValidSecp256k1PrivateKey(key)) {
    scope.fail('key is not a valid secp256k1 private key (it must be non-zero and below the curve order)');
  }
  return key;
}

/**
 * The shipped config's development signer, so that `npm start` can create a relayer at once with no key
 * committed. Refused in production even when the file exists: a key made on a developer's machine must
 * never sign for real.
 */
async function generatedKey(
  signerId: string,
  fileName: string,
  scope: Scope,
  context: SignerContext,
): Promise<Uint8Array> {
  if (context.production) {
    scope.fail(
      'a generated development key is refused in production; configure a real key ' +
        '({"type": "env", "value": "<VARIABLE>"} for a plain signer, or a local keystore signer)',
    );
  }
  const dataDir = path.resolve(context.dataDir);
  const file = path.join(dataDir, fileName);
  let text = await readIfExists(file, scope, `the key file ${file}`);
  // A start would generate it: the check only needs a valid key in its place.
  if (text === undefined && context.readOnly) return PLACEHOLDER_KEY;
  if (text === undefined) {
    await mkdir(dataDir, { recursive: true });
    let key = randomBytes(KEY_LENGTH_BYTES);
    while (!isValidSecp256k1PrivateKey(key)) key = randomBytes(KEY_LENGTH_BYTES);
    text = await createKeyFileOnce(file, key.toString('hex'));
    if (text === undefined) text = (await readIfExists(file, scope, `the key file ${file}`)) ?? '';
    else context.onNotice?.(`Generated the development key of signer '${signerId}' in ${file}`);
  }
  return parseKey(text, scope.child(`key file ${file}`));
}

async function findKeystore(written: string, configFile: string, scope: Scope): Promise<string> {
  const found = await findPath(written, configFile, (stats) => stats.isFile());
  if (found !== undefined) return found;
  const [first, ...others] = pathCandidates(written, configFile);
  return scope.fail(`keystore file ${first} not found${others.length > 0 ? ` (nor ${listOf(others)})` : ''}`);
}

/** ethers is loaded only when a keystore is configured: it is large and the default config has none. */
async function decryptKeystore(file: string, passphrase: string, scope: Scope): Promise<Uint8Array> {
  const { decryptKeystoreJson, isError, isKeystoreJson } = await import('ethers');
  const json = await readIfExists(file, scope, `keystore file ${file}`);
  if (json === undefined) return scope.fail(`keystore file ${file} not found`);
  if (!isKeystoreJson(json)) scope.fail(`${file} is not an Ethereum v3 keystore`);
  try {
    const account = await decryptKeystoreJson(json, passphrase);
    return parseKey(account.privateKey, scope.child(`keystore ${file}`));
  } catch (error) {
    if (error instanceof CatalogueConfigError) throw error;
    if (isError(error, 'INVALID_ARGUMENT') && error.argument === 'password') {
      scope.fail(`wrong passphrase for keystore ${file}`);
    }
    // ethers messages name the failing field (unsupported cipher, kdf...) and redact values.
    const reason = isError(error, 'INVALID_ARGUMENT') ? `: ${error.shortMessage}` : '';
    return scope.fail(`cannot decrypt keystore ${file}${reason}`);
  }
}
