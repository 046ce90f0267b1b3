import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { isRpcWeight, RPC_WEIGHT, RPC_WEIGHT_RULE } from '../common/validation/field-rules';
import type { RpcUrl } from '../common/validation/rpc-url-list';
import {
  NETWORK_TYPES,
  isNetworkType,
  networkId,
  type CatalogueNetwork,
  type NetworkType,
} from './catalogue.types';
import {
  Scope,
  describeUnknown,
  errorCode,
  findPath,
  isComment,
  isHttpUrl,
  isNonEmptyString,
  isPlainObject,
  listOf,
  parseJson,
  readText,
  withoutIgnoredKeys,
  type IgnoredKeys,
} from './config-json';
import { parseSecretRef, resolveSecret } from './signer-entries';

/** The network keys of the reference system (19.1): any other but a comment (`_...`) stops the start naming it. */
const NETWORK_KEYS: ReadonlySet<string> = new Set([
  ...['type', 'network', 'from', 'rpc_urls', 'explorer_urls', 'symbol', 'features', 'tags', 'is_testnet'],
  ...['average_blocktime_ms', 'required_confirmations', 'chain_id', 'gas_price_cache'],
  ...['passphrase', 'horizon_url'],
]);
const DEFAULT_FOLDER = './config/networks';

interface NetworkEntry {
  readonly value: Record<string, unknown>;
  readonly name: string;
  readonly type: NetworkType;
  /** Where the entry is, for duplicate messages: `networks[2]` or a network file. */
  readonly origin: string;
  /** Names the network and its type. */
  readonly scope: Scope;
}

/** The catalogue's networks: inline or from a folder, with `from` inheritance resolved. */
export async function readNetworks(
  value: unknown,
  configFile: string,
  scope: Scope,
  ignored: IgnoredKeys,
  env: Record<string, string | undefined>,
): Promise<CatalogueNetwork[]> {
  const entries = await collectEntries(value, configFile, scope, ignored);
  const byName = Map.groupBy(entries, (entry) => entry.name);
  const origins = new Map<string, string>();
  return entries.map((entry) => {
    // Names differing only in case would share an API id (`evm:sepolia`).
    const key = networkId(entry.type, entry.name);
    const firstOrigin = origins.get(key);
    if (firstOrigin !== undefined) entry.scope.fail(`defined more than once (first in ${firstOrigin})`);
    origins.set(key, entry.origin);
    return parseNetwork(entry.type, entry.name, inherit(entry, byName, []), entry.scope, env);
  });
}

async function collectEntries(
  value: unknown,
  configFile: string,
  scope: Scope,
  ignored: IgnoredKeys,
): Promise<NetworkEntry[]> {
  if (Array.isArray(value)) {
    return value.map((item: unknown, i) =>
      identify(item, `networks[${i}]`, scope, `networks[${i}]`, ignored),
    );
  }
  if (value === undefined) {
    const folder = await findFolder(DEFAULT_FOLDER, configFile);
    if (folder === undefined) {
      scope.fail(
        'networks must be an array of networks or the path of a folder of network files ' +
          `(it is absent and the default folder ${path.resolve(DEFAULT_FOLDER)} does not exist)`,
      );
    }
    return readNetworkFolder(folder, scope, ignored);
  }
  if (typeof value === 'string' && value.length > 0) {
    const folder = await findFolder(value, configFile);
    return readNetworkFolder(folder ?? path.resolve(path.dirname(configFile), value), scope, ignored);
  }
  return scope.fail('networks must be an array of networks or the path of a folder of network files');
}

function findFolder(folder: string, configFile: string): Promise<string | undefined> {
  return findPath(folder, configFile, (stats) => stats.isDirectory());
}

/** Each `.json` file holds one network, an array of them, or `{"networks": [...]}` as in the reference system. */
async function readNetworkFolder(
  folder: string,
  scope: Scope,
  ignored: IgnoredKeys,
): Promise<NetworkEntry[]> {
  const entries: NetworkEntry[] = [];
  for (const file of await listJsonFiles(folder, scope)) {
    const fileScope = scope.child(`network file ${file}`);
    const items = networksOfFile(parseJson(await readText(file, fileScope), fileScope), fileScope);
    items.forEach((item, i) =>
      entries.push(
        identify(item, file, fileScope, items.length === 1 ? 'network' : `networks[${i}]`, ignored),
      ),
    );
  }
  return entries;
}

async function listJsonFiles(folder: string, scope: Scope): Promise<string[]> {
  const entries = await readdir(folder, { withFileTypes: true }).catch((error: unknown) => {
    const code = errorCode(error);
    if (code === 'ENOENT' || code === 'ENOTDIR') scope.fail(`networks folder ${folder} not found`);
    return scope.fail(`cannot read the networks folder ${folder} (${code ?? 'unknown error'})`);
  });
  const names = entries.filter((entry) => entry.isFile() && entry.name.endsWith('.json')).map((e) => e.name);
  if (names.length === 0) scope.fail(`networks folder ${folder} holds no .json file`);
  return names.sort().map((name) => path.join(folder, name));
}

function networksOfFile(content: unknown, scope: Scope): unknown[] {
  if (Array.isArray(content)) return content;
  if (isPlainObject(content) && Array.isArray(content.networks)) return content.networks;
  if (isPlainObject(content)) return [content];
  return scope.fail('must hold a network object, an array of them, or {"networks": [...]}');
}

/** The name and type every entry needs before inheritance, and no key the reference system does not know. */
function identify(
  item: unknown,
  origin: string,
  scope: Scope,
  label: string,
  ignored: IgnoredKeys,
): NetworkEntry {
  if (!isPlainObject(item)) return scope.child(label).fail('must be an object');
  const name = item.network;
  const hasName = typeof name === 'string' && name.trim().length > 0;
  const named = scope.child(hasName ? `network '${name}'` : label);
  if (!hasName) return named.fail('network must be a non-empty string');
  if (name !== name.trim()) named.fail('network must not start or end with whitespace');
  if (!isNetworkType(item.type)) {
    return named.fail(`${describeUnknown('type', item.type)} (expected ${listOf(NETWORK_TYPES)})`);
  }
  const typed = scope.child(`network '${name}' (${item.type})`);
  const value = withoutIgnoredKeys(item, NETWORK_KEYS, typed, ignored, isComment);
  return { value, name, type: item.type, origin, scope: typed };
}

/**
 * The entry with its parents' fields (19.1): each field the child leaves unset comes from the parent,
 * `features` and `tags` are joined, the parent's first. `chain` holds the names being resolved (a cycle).
 */
function inherit(
  entry: NetworkEntry,
  byName: Map<string, NetworkEntry[]>,
  chain: string[],
): Record<string, unknown> {
  const { from, ...own } = entry.value;
  if (from === undefined) return own;
  const { scope } = entry;
  if (!isNonEmptyString(from)) return scope.fail('from must be the name of another network');
  const candidates = byName.get(from) ?? [];
  const parent = candidates.find((candidate) => candidate.type === entry.type);
  if (parent === undefined) {
    if (candidates.length > 0)
      scope.fail(`from '${from}' names a network of another type (${candidates[0].type})`);
    return scope.fail(`from '${from}' names no network of the catalogue`);
  }
  if (parent === entry || chain.includes(parent.name)) {
    return scope.fail(`from '${from}' makes a cycle (${[...chain, entry.name, from].join(' -> ')})`);
  }
  const inherited = inherit(parent, byName, [...chain, entry.name]);
  const merged: Record<string, unknown> = { ...inherited, ...own };
  for (const field of ['features', 'tags'] as const) {
    const lists = [inherited[field], own[field]].filter((list) => list !== undefined);
    if (lists.length === 2 && lists.every(Array.isArray)) merged[field] = [...new Set(lists.flat())];
  }
  return merged;
}

/** Each optional field's rule, checked in this order after `rpc_urls`, `chain_id` and `passphrase`. */
const OPTIONAL_FIELDS: readonly (readonly [string, (value: unknown) => boolean, string])[] = [
  ['is_testnet', (value) => typeof value === 'boolean', 'must be a boolean'],
  ['symbol', isNonEmptyString, 'must be a non-empty string'],
  ...(['explorer_urls', 'features', 'tags'] as const).map(
    (field) => [field, isStringList, 'must be an array of non-empty strings'] as const,
  ),
  ...(['average_blocktime_ms', 'required_confirmations'] as const).map(
    (field) => [field, isCount, 'must be a whole number of at least 0'] as const,
  ),
  ['horizon_url', (value) => typeof value === 'string' && isHttpUrl(value), 'must be an http(s) URL'],
  ['gas_price_cache', isPlainObject, 'must be an object'],
];

function parseNetwork(
  type: NetworkType,
  name: string,
  value: Record<string, unknown>,
  scope: Scope,
  env: Record<string, string | undefined>,
): CatalogueNetwork {
  const rpcUrls = parseRpcUrls(value.rpc_urls, scope, env);
  if (type === 'evm' && !(Number.isSafeInteger(value.chain_id) && (value.chain_id as number) > 0))
    scope.fail('chain_id must be a positive integer');
  if (type === 'stellar' && !isNonEmptyString(value.passphrase))
    scope.fail('passphrase must be a non-empty string');
  const network: Record<string, unknown> = { type, network: name, rpc_urls: rpcUrls, is_testnet: false };
  if (type === 'evm') network.chain_id = value.chain_id;
  if (type === 'stellar') network.passphrase = value.passphrase;
  for (const [field, valid, rule] of OPTIONAL_FIELDS) {
    const given = value[field];
    if (given === undefined) continue;
    if (!valid(given)) scope.fail(`${field} ${rule}`);
    // A copy, frozen: the catalogue is immutable once loaded.
    network[field] =
      typeof given === 'object' && given !== null ? Object.freeze(structuredClone(given)) : given;
  }
  return network as unknown as CatalogueNetwork;
}

function isStringList(value: unknown): boolean {
  return Array.isArray(value) && value.every(isNonEmptyString);
}

function isCount(value: unknown): boolean {
  return Number.isSafeInteger(value) && (value as number) >= 0;
}

/**
 * Items are URLs or `{url, weight}` as in the reference system; a bare URL weighs 100. A URL may be given
 * as an environment reference `{"type": "env", "value": "<NAME>"}` (alone or as `url`), as the export
 * writes the URLs an answer masks (docs/reference/config-file.md#32-no-secret-is-exported).
 */
export function parseRpcUrls(
  value: unknown,
  scope: Scope,
  env: Record<string, string | undefined>,
  field = 'rpc_urls',
): RpcUrl[] {
  if (!Array.isArray(value) || value.length === 0) {
    scope.fail(`${field} must be a non-empty array of http(s) URLs`);
  }
  return value.map((item: unknown, index) => {
    const at = `${field}[${index}]`;
    const entry: Record<string, unknown> =
      isPlainObject(item) && !isUrlReference(item) ? item : { url: item };
    const refScope = scope.child(entry === item ? `${at}.url` : at);
    const raw = isUrlReference(entry.url)
      ? resolveSecret(parseSecretRef(entry.url, refScope, { generated: false }), refScope, env)
      : entry.url;
    const url = typeof raw === 'string' ? raw.trim() : undefined;
    // The URL itself is not quoted: RPC URLs often carry an API key.
    if (url === undefined || !isHttpUrl(url)) scope.fail(`${at} must be an http(s) URL`);
    // A URL as every answer shows it: the secret `***` stands for is not in the file.
    if (url.includes('***')) scope.fail(`${at} is a masked URL (*** hides a secret that is not in the file)`);
    const weight = entry.weight !== undefined ? entry.weight : RPC_WEIGHT.default;
    if (!isRpcWeight(weight)) scope.fail(`${at}.weight ${RPC_WEIGHT_RULE}`);
    return { url, weight };
  });
}

/** `{"type": ..., "value": ...}` in place of a URL: a secret reference (an object without `url`). */
function isUrlReference(value: unknown): value is Record<string, unknown> {
  return isPlainObject(value) && !('url' in value) && 'type' in value;
}
