import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { isNetworkType, networkId, type CatalogueNetwork } from '../catalogue';
import {
  errorCode,
  fail,
  findPath,
  isComment,
  isPlainObject,
  parseConfig,
  parseJson,
  readText,
  type IgnoredKeys,
} from './config-json';
import { networkEntry, networkSchema } from './config-schema';

const DEFAULT_FOLDER = './config/networks';
const ENTRIES = z.object({ networks: z.array(networkEntry) });

type NetworkEntry = z.output<typeof networkEntry>;

interface Located {
  readonly entry: NetworkEntry;
  /** Where the entry is, for duplicate messages: `networks[2]` or a network file. */
  readonly origin: string;
  /** Names the network and its type: `CONFIG_FILE <file>: network 'a' (evm)`. */
  readonly where: string;
}

/** The catalogue's networks: inline or from a folder, with `from` inheritance resolved. */
export async function readNetworks(
  value: unknown,
  configFile: string,
  where: string,
  ignored: IgnoredKeys,
  env: Record<string, string | undefined>,
): Promise<CatalogueNetwork[]> {
  const read = (
    items: unknown[],
    within: string,
    origin: (i: number) => string,
    label: (i: number) => string,
  ) =>
    parseConfig(ENTRIES, { networks: items }, within, { ...ignored, ignorable: isComment }, (_, i) =>
      networkLabel(items[i], label(i)),
    ).networks.map((entry, i) => ({
      entry,
      origin: origin(i),
      where: `${within}: ${networkLabel(entry, '')}`,
    }));
  let located: Located[];
  if (Array.isArray(value)) {
    located = read(
      value,
      where,
      (i) => `networks[${i}]`,
      (i) => `networks[${i}]`,
    );
  } else {
    const folder = await findFolder(value, configFile, where);
    located = [];
    for (const file of await listJsonFiles(folder, where)) {
      const inFile = `${where}: network file ${file}`;
      const items = networksOfFile(parseJson(await readText(file, inFile), inFile), inFile);
      located.push(
        ...read(
          items,
          inFile,
          () => file,
          (i) => (items.length === 1 ? 'network' : `networks[${i}]`),
        ),
      );
    }
  }
  const byName = Map.groupBy(located, ({ entry }) => entry.network);
  const origins = new Map<string, string>();
  const schema = networkSchema(env);
  return located.map((one) => {
    // Names differing only in case would share an API id (`evm:sepolia`).
    const key = networkId(one.entry.type, one.entry.network);
    const firstOrigin = origins.get(key);
    if (firstOrigin !== undefined) fail(one.where, `defined more than once (first in ${firstOrigin})`);
    origins.set(key, one.origin);
    const network: Record<string, unknown> = parseConfig(
      schema,
      inherit(one, byName, []),
      one.where,
      ignored,
    );
    // Frozen: the catalogue is immutable once loaded.
    for (const field of Object.values(network)) if (typeof field === 'object') Object.freeze(field);
    return network as unknown as CatalogueNetwork;
  });
}

/** `network 'a' (evm)`, `network 'a'` while its type is unknown, else `fallback`. */
function networkLabel(item: unknown, fallback: string): string {
  const name = isPlainObject(item) ? item.network : undefined;
  if (typeof name !== 'string' || name.trim().length === 0) return fallback;
  const typed = name === name.trim() && isPlainObject(item) && isNetworkType(item.type);
  return typed ? `network '${name}' (${String(item.type)})` : `network '${name}'`;
}

/** The folder named (or the default one, which must exist); not found, it is named as written. */
async function findFolder(value: unknown, configFile: string, where: string): Promise<string> {
  const message = 'networks must be an array of networks or the path of a folder of network files';
  if (value !== undefined && (typeof value !== 'string' || value.length === 0)) fail(where, message);
  const written = value ?? DEFAULT_FOLDER;
  const folder = await findPath(written, configFile, (stats) => stats.isDirectory());
  if (folder !== undefined) return folder;
  if (value === undefined) {
    fail(
      where,
      `${message} (it is absent and the default folder ${path.resolve(DEFAULT_FOLDER)} does not exist)`,
    );
  }
  return path.resolve(path.dirname(configFile), written);
}

async function listJsonFiles(folder: string, where: string): Promise<string[]> {
  const entries = await readdir(folder, { withFileTypes: true }).catch((error: unknown) => {
    const code = errorCode(error);
    if (code === 'ENOENT' || code === 'ENOTDIR') fail(where, `networks folder ${folder} not found`);
    return fail(where, `cannot read the networks folder ${folder} (${code ?? 'unknown error'})`);
  });
  const names = entries.filter((entry) => entry.isFile() && entry.name.endsWith('.json')).map((e) => e.name);
  if (names.length === 0) fail(where, `networks folder ${folder} holds no .json file`);
  return names.sort().map((name) => path.join(folder, name));
}

/** Each `.json` file holds one network, an array of them, or `{"networks": [...]}` as in the reference system. */
function networksOfFile(content: unknown, where: string): unknown[] {
  if (Array.isArray(content)) return content;
  if (isPlainObject(content) && Array.isArray(content.networks)) return content.networks;
  if (isPlainObject(content)) return [content];
  return fail(where, 'must hold a network object, an array of them, or {"networks": [...]}');
}

/**
 * The entry with its parents' fields (19.1): each field the child leaves unset comes from the parent,
 * `features` and `tags` are joined, the parent's first. `chain` holds the names being resolved (a cycle).
 */
function inherit(one: Located, byName: Map<string, Located[]>, chain: string[]): Record<string, unknown> {
  const { from, ...own } = one.entry;
  if (from === undefined) return own;
  const candidates = byName.get(from) ?? [];
  const parent = candidates.find((candidate) => candidate.entry.type === one.entry.type);
  if (parent === undefined) {
    if (candidates.length > 0)
      fail(one.where, `from '${from}' names a network of another type (${candidates[0].entry.type})`);
    return fail(one.where, `from '${from}' names no network of the catalogue`);
  }
  if (parent === one || chain.includes(parent.entry.network)) {
    return fail(
      one.where,
      `from '${from}' makes a cycle (${[...chain, one.entry.network, from].join(' -> ')})`,
    );
  }
  const inherited = inherit(parent, byName, [...chain, one.entry.network]);
  const merged: Record<string, unknown> = { ...inherited, ...own };
  for (const field of ['features', 'tags'] as const) {
    const lists = [inherited[field], (own as Record<string, unknown>)[field]].filter(
      (list) => list !== undefined,
    );
    if (lists.length === 2 && lists.every(Array.isArray)) merged[field] = [...new Set(lists.flat())];
  }
  return merged;
}
