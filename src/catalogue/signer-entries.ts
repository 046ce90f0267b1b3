import { randomBytes } from 'node:crypto';
import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { createKeyFileOnce } from '../common/security/key-file';
import { KEY_LENGTH_BYTES, isValidSecp256k1PrivateKey } from './address-derivation';
import { SecretKey, type CatalogueSigner } from './catalogue.service';
import { SIGNER_ID_PATTERN, SIGNER_TYPES, isSignerType } from './catalogue.types';
import {
  CatalogueConfigError,
  Scope,
  describeUnknown,
  errorCode,
  isNonEmptyString,
  isPlainObject,
  listOf,
} from './config-json';

export interface SignerContext {
  readonly configDir: string;
  readonly dataDir: string;
  readonly production: boolean;
  readonly env: Record<string, string | undefined>;
  readonly onNotice?: (message: string) => void;
}

export type SecretRef =
  | { readonly type: 'env'; readonly variable: string }
  | { readonly type: 'plain'; readonly value: string }
  | { readonly type: 'generated'; readonly fileName: string };

type SignerSpec =
  | { readonly id: string; readonly type: 'plain'; readonly scope: Scope; readonly key: SecretRef }
  | {
      readonly id: string;
      readonly type: 'local';
      readonly scope: Scope;
      readonly keystorePath: string;
      readonly passphrase: SecretRef;
    };

/** The signers with their keys: first the shape of every entry, then the key material. */
export async function readSigners(
  value: unknown,
  scope: Scope,
  context: SignerContext,
): Promise<CatalogueSigner[]> {
  const specs = parseSignerSpecs(value, scope);
  const signers: CatalogueSigner[] = [];
  for (const spec of specs) {
    const signer = resolveSigner(spec, context);
    signers.push(signer instanceof Promise ? await signer : signer);
  }
  return signers;
}

function parseSignerSpecs(value: unknown, scope: Scope): SignerSpec[] {
  if (!Array.isArray(value)) return scope.fail('signers must be an array');
  const origins = new Map<string, string>();
  return value.map((item: unknown, index) => {
    const spec = parseSignerSpec(item, scope, `signers[${index}]`);
    const firstOrigin = origins.get(spec.id);
    if (firstOrigin !== undefined) spec.scope.fail(`defined more than once (first at ${firstOrigin})`);
    origins.set(spec.id, `signers[${index}]`);
    return spec;
  });
}

function parseSignerSpec(value: unknown, parent: Scope, fallbackLabel: string): SignerSpec {
  if (!isPlainObject(value)) return parent.child(fallbackLabel).fail('must be an object');
  const { id } = value;
  if (typeof id !== 'string' || !SIGNER_ID_PATTERN.test(id)) {
    return parent.child(fallbackLabel).fail('id must be 1 to 36 letters, digits, "-" or "_"');
  }
  const scope: Scope = parent.child(`signer '${id}'`);
  if (!isSignerType(value.type)) {
    return scope.fail(`${describeUnknown('type', value.type)} (expected ${listOf(SIGNER_TYPES)})`);
  }
  const config = value.config;
  if (!isPlainObject(config)) return scope.fail('config must be an object');
  switch (value.type) {
    case 'plain':
      return {
        id,
        type: 'plain',
        scope,
        key: parseSecretRef(config.key, scope.child('key'), { generated: true }),
      };
    case 'local':
      if (!isNonEmptyString(config.path)) scope.fail('config.path must name an Ethereum v3 keystore file');
      return {
        id,
        type: 'local',
        scope,
        keystorePath: config.path,
        passphrase: parseSecretRef(config.passphrase, scope.child('passphrase'), { generated: false }),
      };
  }
}

const ENV_VARIABLE_PATTERN = /^[A-Za-z_][A-Za-z0-9_]*$/;
const FILE_NAME_PATTERN = /^[A-Za-z0-9_][A-Za-z0-9._-]*$/;

/** Nothing inside a secret object is ever quoted in a message: a misplaced key could sit in any field. */
export function parseSecretRef(value: unknown, scope: Scope, allow: { generated: boolean }): SecretRef {
  const types = allow.generated ? 'env, plain or generated' : 'env or plain';
  if (!isPlainObject(value)) return scope.fail(`must be a secret object {"type": ${types}, "value": ...}`);
  const secretValue = value.value;
  switch (value.type) {
    case 'env':
      if (
        typeof secretValue !== 'string' ||
        !ENV_VARIABLE_PATTERN.test(secretValue) ||
        looksLikeKey(secretValue)
      ) {
        scope.fail('value of an env secret must be the name of an environment variable');
      }
      return { type: 'env', variable: secretValue };
    case 'plain':
      if (!isNonEmptyString(secretValue)) scope.fail('value of a plain secret must be a non-empty string');
      return { type: 'plain', value: secretValue };
    case 'generated':
      if (!allow.generated) break;
      if (
        typeof secretValue !== 'string' ||
        !FILE_NAME_PATTERN.test(secretValue) ||
        looksLikeKey(secretValue)
      ) {
        scope.fail('value of a generated secret must be a file name in the data folder');
      }
      return { type: 'generated', fileName: secretValue };
  }
  return scope.fail(`secret type must be ${types}`);
}

export function resolveSecret(ref: SecretRef, scope: Scope, env: Record<string, string | undefined>): string {
  switch (ref.type) {
    case 'plain':
      return ref.value;
    case 'env': {
      const value = env[ref.variable];
      if (value === undefined || value === '') scope.fail(`environment variable ${ref.variable} is not set`);
      return value;
    }
    case 'generated':
      return scope.fail('a generated secret can only be the key of a plain signer');
  }
}

/**
 * The signer with its key. Synchronous when the key is in the file or the environment, so that
 * 20,000 such signers load without an await each (about 10 ms); a promise when a file must be
 * read (a generated development key, a keystore).
 */
function resolveSigner(spec: SignerSpec, context: SignerContext): CatalogueSigner | Promise<CatalogueSigner> {
  switch (spec.type) {
    case 'plain': {
      const ref = spec.key;
      if (ref.type !== 'generated') {
        return signerWith(
          spec,
          parseKey(resolveSecret(ref, spec.scope.child('key'), context.env), spec.scope),
        );
      }
      return resolveGeneratedKey(spec.id, ref.fileName, spec.scope, context).then((generated) =>
        signerWith(spec, parseKey(generated.text, spec.scope.child(`key file ${generated.file}`))),
      );
    }
    case 'local': {
      const passphrase = resolveSecret(spec.passphrase, spec.scope.child('passphrase'), context.env);
      const keystoreFile = path.resolve(context.configDir, spec.keystorePath);
      return decryptKeystore(keystoreFile, passphrase, spec.scope).then((key) => signerWith(spec, key));
    }
  }
}

function signerWith(spec: SignerSpec, key: Uint8Array): CatalogueSigner {
  return { id: spec.id, type: spec.type, key: new SecretKey(key) };
}

const HEX_KEY_PATTERN = new RegExp(`^(?:0x)?[0-9a-fA-F]{${KEY_LENGTH_BYTES * 2}}$`);

function looksLikeKey(text: string): boolean {
  return HEX_KEY_PATTERN.test(text.trim());
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
 * Development signer: the shipped config names a `generated` key so that a new user can create a relayer
 * right after `npm start`, with no key to configure and none committed to the repository. Outside
 * production the key is created once in the data folder (mode 0600) and reused on every start after.
 * In production it is refused outright, even when the file exists: a key that was generated on a
 * developer's machine must never sign for real.
 */
async function resolveGeneratedKey(
  signerId: string,
  fileName: string,
  scope: Scope,
  context: SignerContext,
): Promise<{ file: string; text: string }> {
  if (context.production) {
    scope.fail(
      'a generated development key is refused in production; configure a real key ' +
        '({"type": "env", "value": "<VARIABLE>"} for a plain signer, or a local keystore signer)',
    );
  }
  const dataDir = path.resolve(context.dataDir);
  const file = path.join(dataDir, fileName);
  const existing = await readExistingKeyFile(file, scope);
  if (existing !== undefined) return { file, text: existing };

  await mkdir(dataDir, { recursive: true });
  const text = await createKeyFileOnce(file, Buffer.from(generateSecp256k1Key()).toString('hex'));
  if (text === undefined) return { file, text: (await readExistingKeyFile(file, scope)) ?? '' };
  context.onNotice?.(`Generated the development key of signer '${signerId}' in ${file}`);
  return { file, text };
}

async function readExistingKeyFile(file: string, scope: Scope): Promise<string | undefined> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return undefined;
    return scope.fail(`cannot read the key file ${file} (${errorCode(error) ?? 'unknown error'})`);
  }
}

function generateSecp256k1Key(): Uint8Array {
  for (;;) {
    const candidate = randomBytes(KEY_LENGTH_BYTES);
    if (isValidSecp256k1PrivateKey(candidate)) return candidate;
  }
}

/** ethers is loaded only when a keystore is configured: it is large and the default config has none. */
async function decryptKeystore(file: string, passphrase: string, scope: Scope): Promise<Uint8Array> {
  const { decryptKeystoreJson, isError, isKeystoreJson } = await import('ethers');
  const json = await readKeystoreFile(file, scope);
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

async function readKeystoreFile(file: string, scope: Scope): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    if (errorCode(error) === 'ENOENT') scope.fail(`keystore file ${file} not found`);
    return scope.fail(`cannot read keystore file ${file} (${errorCode(error) ?? 'unknown error'})`);
  }
}
