import { randomBytes } from 'node:crypto';
import { mkdir, readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { isPlainObject, isRpcWeight, RPC_WEIGHT, RPC_WEIGHT_RULE } from '../common/validation/field-rules';
import type { RpcUrl } from '../common/validation/rpc-url-list';
import { KEY_LENGTH_BYTES, isValidSecp256k1PrivateKey } from './address-derivation';
import { Catalogue, SecretKey, type CatalogueSigner } from './catalogue.service';
import { createKeyFileOnce } from '../common/security/key-file';
import {
  NETWORK_TYPES,
  SIGNER_ID_PATTERN,
  SIGNER_TYPES,
  isNetworkType,
  isSignerType,
  networkId,
  type CatalogueNetwork,
  type HostedSignerResolver,
  type NetworkDetails,
  type NetworkType,
} from './catalogue.types';

/** A bad catalogue: the message names the file and the entry, never a secret value. */
export class CatalogueConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CatalogueConfigError';
  }
}

export interface LoadCatalogueOptions {
  configFile: string;
  /** Where a generated development key is kept (see `resolveGeneratedKey`). */
  dataDir: string;
  production: boolean;
  env: Record<string, string | undefined>;
  /** Told about events worth a log line, such as a newly generated development key. Never given a secret. */
  onNotice?: (message: string) => void;
  /** Signers whose key a key service holds (docs/reference/kms-signers.md); without it, their types are unknown. */
  hostedSigners?: HostedSignerResolver;
}

export async function loadCatalogue(options: LoadCatalogueOptions): Promise<Catalogue> {
  const configFile = path.resolve(options.configFile);
  const scope: Scope = Scope.root(configFile);
  const root = parseJson(await readConfigFile(configFile, scope), scope);
  if (!isPlainObject(root)) scope.fail('must hold a JSON object with "networks" and "signers"');

  const networks = parseNetworks(await collectNetworkEntries(root.networks, configFile, scope));
  const signerSpecs = parseSignerSpecs(root.signers, scope, options.hostedSigners);
  const context: ResolveContext = { ...options, configDir: path.dirname(configFile) };
  const signers: CatalogueSigner[] = [];
  for (const spec of signerSpecs) {
    const signer = resolveSigner(spec, context);
    signers.push(signer instanceof Promise ? await signer : signer);
  }
  return new Catalogue({ networks, signers });
}

/**
 * Where a problem is, for its message: each scope points at its parent, so that naming the entry of
 * each of 20,000 signers costs one small object, and the path is joined only when it fails.
 */
class Scope {
  private constructor(
    private readonly parent: Scope | null,
    private readonly part: string,
  ) {}

  static root(configFile: string): Scope {
    return new Scope(null, `CONFIG_FILE ${configFile}`);
  }

  child(part: string): Scope {
    return new Scope(this, part);
  }

  fail(problem: string): never {
    throw new CatalogueConfigError([...this.path(), problem].join(': '));
  }

  private path(): string[] {
    return this.parent === null ? [this.part] : [...this.parent.path(), this.part];
  }
}

// ---------------------------------------------------------------------------------------------------------
// Files and JSON

async function readConfigFile(file: string, scope: Scope): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    if (errorCode(error) === 'ENOENT') scope.fail('file not found');
    return scope.fail(`cannot read the file (${errorCode(error) ?? 'unknown error'})`);
  }
}

/** JSON.parse's own message quotes the text around the error, which may be a key: keep only its position. */
function parseJson(text: string, scope: Scope): unknown {
  try {
    return JSON.parse(text.replace(/^\uFEFF/, '')) as unknown;
  } catch (error) {
    const position =
      error instanceof Error ? /at position \d+( \(line \d+ column \d+\))?/.exec(error.message) : null;
    return scope.fail(`not valid JSON${position ? ` (${position[0]})` : ''}`);
  }
}

// ---------------------------------------------------------------------------------------------------------
// Networks

interface NetworkEntry {
  readonly value: unknown;
  /** Where the entry is, for duplicate messages: `networks[2]` or a network file. */
  readonly origin: string;
  readonly scope: Scope;
  readonly fallbackLabel: string;
}

async function collectNetworkEntries(
  value: unknown,
  configFile: string,
  scope: Scope,
): Promise<NetworkEntry[]> {
  if (Array.isArray(value)) {
    return value.map((item: unknown, index) => ({
      value: item,
      origin: `networks[${index}]`,
      scope,
      fallbackLabel: `networks[${index}]`,
    }));
  }
  if (typeof value === 'string' && value.length > 0) {
    return readNetworkFolder(path.resolve(path.dirname(configFile), value), scope);
  }
  return scope.fail('networks must be an array of networks or the path of a folder of network files');
}

/** Each `.json` file holds one network, an array of them, or `{"networks": [...]}` as in OpenZeppelin Relayer. */
async function readNetworkFolder(folder: string, scope: Scope): Promise<NetworkEntry[]> {
  const files = await listJsonFiles(folder, scope);
  const entries: NetworkEntry[] = [];
  for (const file of files) {
    const fileScope = scope.child(`network file ${file}`);
    const content = parseJson(await readNetworkFile(file, fileScope), fileScope);
    const items = networksOfFile(content, fileScope);
    items.forEach((item, index) => {
      entries.push({
        value: item,
        origin: file,
        scope: fileScope,
        fallbackLabel: items.length === 1 ? 'network' : `networks[${index}]`,
      });
    });
  }
  return entries;
}

async function listJsonFiles(folder: string, scope: Scope): Promise<string[]> {
  let names: string[];
  try {
    const entries = await readdir(folder, { withFileTypes: true });
    names = entries
      .filter((entry) => entry.isFile() && entry.name.endsWith('.json'))
      .map((entry) => entry.name);
  } catch (error) {
    const code = errorCode(error);
    if (code === 'ENOENT' || code === 'ENOTDIR') scope.fail(`networks folder ${folder} not found`);
    return scope.fail(`cannot read the networks folder ${folder} (${code ?? 'unknown error'})`);
  }
  if (names.length === 0) scope.fail(`networks folder ${folder} holds no .json file`);
  return names.sort().map((name) => path.join(folder, name));
}

async function readNetworkFile(file: string, scope: Scope): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    return scope.fail(`cannot read the file (${errorCode(error) ?? 'unknown error'})`);
  }
}

function networksOfFile(content: unknown, scope: Scope): unknown[] {
  if (Array.isArray(content)) return content;
  if (isPlainObject(content) && Array.isArray(content.networks)) return content.networks;
  if (isPlainObject(content)) return [content];
  return scope.fail('must hold a network object, an array of them, or {"networks": [...]}');
}

function parseNetworks(entries: readonly NetworkEntry[]): CatalogueNetwork[] {
  const origins = new Map<string, string>();
  return entries.map((entry) => {
    const network = parseNetwork(entry);
    // Names differing only in case would share an API id (`evm:sepolia`).
    const key = networkId(network.type, network.network);
    const firstOrigin = origins.get(key);
    if (firstOrigin !== undefined) {
      entry.scope
        .child(`network '${network.network}' (${network.type})`)
        .fail(`defined more than once (first in ${firstOrigin})`);
    }
    origins.set(key, entry.origin);
    return network;
  });
}

function parseNetwork(entry: NetworkEntry): CatalogueNetwork {
  const { value } = entry;
  if (!isPlainObject(value)) return entry.scope.child(entry.fallbackLabel).fail('must be an object');
  const name = value.network;
  const hasName = typeof name === 'string' && name.trim().length > 0;
  const named: Scope = entry.scope.child(hasName ? `network '${name}'` : entry.fallbackLabel);
  if (!hasName) named.fail('network must be a non-empty string');
  if (name !== name.trim()) named.fail('network must not start or end with whitespace');
  if (!isNetworkType(value.type)) {
    return named.fail(`${describeUnknown('type', value.type)} (expected ${listOf(NETWORK_TYPES)})`);
  }

  const scope = entry.scope.child(`network '${name}' (${value.type})`);
  return {
    type: value.type,
    network: name,
    rpc_urls: parseRpcUrls(value.rpc_urls, scope),
    ...typeSpecificFields(value.type, value, scope),
    is_testnet: parseIsTestnet(value.is_testnet, scope),
    ...parseDetails(value, scope),
  };
}

/** The optional descriptive fields, kept when given (answered by GET /networks). */
function parseDetails(value: Record<string, unknown>, scope: Scope): NetworkDetails {
  const details: { -readonly [K in keyof NetworkDetails]: NetworkDetails[K] } = {};
  if (value.symbol !== undefined) {
    if (!isNonEmptyString(value.symbol)) scope.fail('symbol must be a non-empty string');
    details.symbol = value.symbol;
  }
  for (const field of ['explorer_urls', 'features', 'tags'] as const) {
    const list = value[field];
    if (list === undefined) continue;
    if (!Array.isArray(list) || !list.every(isNonEmptyString)) {
      scope.fail(`${field} must be an array of non-empty strings`);
    }
    details[field] = Object.freeze([...list]);
  }
  for (const field of ['average_blocktime_ms', 'required_confirmations'] as const) {
    const number = value[field];
    if (number === undefined) continue;
    if (!Number.isSafeInteger(number) || (number as number) < 0) {
      scope.fail(`${field} must be a whole number of at least 0`);
    }
    details[field] = number as number;
  }
  return details;
}

function typeSpecificFields(
  type: NetworkType,
  value: Record<string, unknown>,
  scope: Scope,
): Pick<CatalogueNetwork, 'chain_id' | 'passphrase'> {
  switch (type) {
    case 'evm':
      if (!isPositiveSafeInteger(value.chain_id)) scope.fail('chain_id must be a positive integer');
      return { chain_id: value.chain_id };
    case 'stellar':
      if (!isNonEmptyString(value.passphrase)) scope.fail('passphrase must be a non-empty string');
      return { passphrase: value.passphrase };
    case 'solana':
      return {};
  }
}

/** Items are URLs or `{url, weight}` as in OpenZeppelin Relayer; a bare URL weighs 100. */
function parseRpcUrls(value: unknown, scope: Scope): RpcUrl[] {
  if (!Array.isArray(value) || value.length === 0) {
    scope.fail('rpc_urls must be a non-empty array of http(s) URLs');
  }
  return value.map((item: unknown, index) => {
    const raw = isPlainObject(item) ? item.url : item;
    const url = typeof raw === 'string' ? raw.trim() : undefined;
    // The URL itself is not quoted: RPC URLs often carry an API key.
    if (url === undefined || !isHttpUrl(url)) scope.fail(`rpc_urls[${index}] must be an http(s) URL`);
    if (isPlainObject(item) && item.weight !== undefined && !isRpcWeight(item.weight)) {
      scope.fail(`rpc_urls[${index}].weight ${RPC_WEIGHT_RULE}`);
    }
    const weight = isPlainObject(item) && isRpcWeight(item.weight) ? item.weight : RPC_WEIGHT.default;
    return { url, weight };
  });
}

function parseIsTestnet(value: unknown, scope: Scope): boolean {
  if (value === undefined) return false;
  if (typeof value !== 'boolean') scope.fail('is_testnet must be a boolean');
  return value;
}

// ---------------------------------------------------------------------------------------------------------
// Signers: first the shape of every entry, then the key material

type SecretRef =
  | { readonly type: 'env'; readonly variable: string }
  | { readonly type: 'plain'; readonly value: string }
  | { readonly type: 'generated'; readonly fileName: string };

type SignerSpec =
  | { readonly id: string; readonly type: 'plain'; readonly scope: Scope; readonly key: SecretRef }
  | {
      readonly id: string;
      readonly type: 'hosted';
      readonly scope: Scope;
      readonly entry: Record<string, unknown>;
    }
  | {
      readonly id: string;
      readonly type: 'local';
      readonly scope: Scope;
      readonly keystorePath: string;
      readonly passphrase: SecretRef;
    };

function parseSignerSpecs(value: unknown, scope: Scope, hosted?: HostedSignerResolver): SignerSpec[] {
  if (!Array.isArray(value)) return scope.fail('signers must be an array');
  const origins = new Map<string, string>();
  return value.map((item: unknown, index) => {
    const spec = parseSignerSpec(item, scope, `signers[${index}]`, hosted);
    const firstOrigin = origins.get(spec.id);
    if (firstOrigin !== undefined) spec.scope.fail(`defined more than once (first at ${firstOrigin})`);
    origins.set(spec.id, `signers[${index}]`);
    return spec;
  });
}

function parseSignerSpec(
  value: unknown,
  parent: Scope,
  fallbackLabel: string,
  hosted?: HostedSignerResolver,
): SignerSpec {
  if (!isPlainObject(value)) return parent.child(fallbackLabel).fail('must be an object');
  const { id } = value;
  if (typeof id !== 'string' || !SIGNER_ID_PATTERN.test(id)) {
    return parent.child(fallbackLabel).fail('id must be 1 to 36 letters, digits, "-" or "_"');
  }
  const scope: Scope = parent.child(`signer '${id}'`);
  if (hosted?.accepts(value.type)) return { id, type: 'hosted', scope, entry: value };
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
function parseSecretRef(value: unknown, scope: Scope, allow: { generated: boolean }): SecretRef {
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

interface ResolveContext extends LoadCatalogueOptions {
  readonly configDir: string;
}

/**
 * The signer with its key. Synchronous when the key is in the file or the environment, so that
 * 20,000 such signers load without an await each (about 10 ms); a promise when a file must be
 * read (a generated development key, a keystore).
 */
function resolveSigner(
  spec: SignerSpec,
  context: ResolveContext,
): CatalogueSigner | Promise<CatalogueSigner> {
  switch (spec.type) {
    case 'plain': {
      const ref = spec.key;
      if (ref.type !== 'generated') {
        return signerWith(spec, parseKey(resolveSecret(ref, spec.scope.child('key'), context), spec.scope));
      }
      return resolveGeneratedKey(spec.id, ref.fileName, spec.scope, context).then((generated) =>
        signerWith(spec, parseKey(generated.text, spec.scope.child(`key file ${generated.file}`))),
      );
    }
    case 'local': {
      const passphrase = resolveSecret(spec.passphrase, spec.scope.child('passphrase'), context);
      const keystoreFile = path.resolve(context.configDir, spec.keystorePath);
      return decryptKeystore(keystoreFile, passphrase, spec.scope).then((key) => signerWith(spec, key));
    }
    case 'hosted': {
      const { entry, scope } = spec;
      const resolver = context.hostedSigners as HostedSignerResolver;
      return resolver.resolve(spec.id, String(entry.type), entry.config).then(
        (view) => ({ id: spec.id, type: 'plain', key: new SecretKey(new Uint8Array()), hosted: view }),
        (error: Error) => scope.fail(error.message),
      );
    }
  }
}

function signerWith(spec: SignerSpec & { type: 'plain' | 'local' }, key: Uint8Array): CatalogueSigner {
  return { id: spec.id, type: spec.type, key: new SecretKey(key) };
}

function resolveSecret(ref: SecretRef, scope: Scope, context: ResolveContext): string {
  switch (ref.type) {
    case 'plain':
      return ref.value;
    case 'env': {
      const value = context.env[ref.variable];
      if (value === undefined || value === '') scope.fail(`environment variable ${ref.variable} is not set`);
      return value;
    }
    case 'generated':
      return scope.fail('a generated secret can only be the key of a plain signer');
  }
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
  context: ResolveContext,
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

// ---------------------------------------------------------------------------------------------------------
// Small checks

function isNonEmptyString(value: unknown): value is string {
  return typeof value === 'string' && value.length > 0;
}

function isPositiveSafeInteger(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value > 0;
}

function isHttpUrl(value: string): boolean {
  if (!URL.canParse(value)) return false;
  const url = new URL(value);
  return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname.length > 0;
}

function errorCode(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string'
    ? error.code
    : undefined;
}

function describeUnknown(field: string, value: unknown): string {
  const shown = typeof value === 'string' && value.length <= 40 ? ` ${JSON.stringify(value)}` : '';
  return value === undefined ? `${field} is missing` : `unknown ${field}${shown}`;
}

function listOf(values: readonly string[]): string {
  return `${values.slice(0, -1).join(', ')} or ${values[values.length - 1]}`;
}
