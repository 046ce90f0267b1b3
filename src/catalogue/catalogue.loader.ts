import path from 'node:path';
import { Catalogue } from './catalogue.service';
import {
  Scope,
  isComment,
  isPlainObject,
  listOf,
  parseJson,
  readText,
  withoutIgnoredKeys,
} from './config-json';
import { readNetworks } from './network-entries';
import { readNotifications, readRelayers, type FileEntry } from './resource-entries';
import { readSigners, type SignerContext } from './signer-entries';

export { CatalogueConfigError } from './config-json';

export type LoadCatalogueOptions = Omit<SignerContext, 'ignored'> & {
  /** CONFIG_STRICT=true: a key the reference system ignores stops the start instead of a warning. */
  readonly strict?: boolean;
};

/** The whole configuration file (docs/reference/config-file.md). */
export interface ConfigFile {
  readonly file: string;
  readonly catalogue: Catalogue;
  readonly relayers: readonly FileEntry[];
  readonly notifications: readonly FileEntry[];
  /** The file's `plugins` as they are (not run by this service, kept for the export); null when absent. */
  readonly plugins: readonly unknown[] | null;
}

const TOP_LEVEL_KEYS = ['networks', 'signers', 'relayers', 'notifications', 'plugins'];
const TOP_LEVEL: ReadonlySet<string> = new Set(TOP_LEVEL_KEYS);

/** The first problem stops it, named by its path (CatalogueConfigError). */
export async function loadConfigFile(options: LoadCatalogueOptions): Promise<ConfigFile> {
  const file = path.resolve(options.configFile);
  const scope = Scope.root(file);
  const parsed = parseJson(await readText(file, scope), scope);
  if (!isPlainObject(parsed)) return scope.fail('must hold a JSON object with "networks" and "signers"');
  const ignored = { strict: options.strict ?? false, warn: options.onNotice ?? (() => undefined) };
  // A top-level comment (`_comment`) is ignored; any other unknown key stops the start (19.1).
  const root = withoutIgnoredKeys(
    parsed,
    TOP_LEVEL,
    scope,
    ignored,
    isComment,
    (key) => `unknown top-level key ${JSON.stringify(key.slice(0, 60))} (expected ${listOf(TOP_LEVEL_KEYS)})`,
  );
  if (root.plugins !== undefined && !Array.isArray(root.plugins)) scope.fail('plugins must be an array');

  const networks = await readNetworks(root.networks, file, scope, ignored, options.env);
  const signers = await readSigners(root.signers, scope, { ...options, configFile: file, ignored });
  return {
    file,
    catalogue: new Catalogue({ networks, signers }),
    notifications: readNotifications(root.notifications, scope, options.env, ignored),
    relayers: readRelayers(root.relayers, scope, ignored, options.env),
    plugins: Array.isArray(root.plugins) ? (root.plugins as unknown[]) : null,
  };
}

export async function loadCatalogue(options: LoadCatalogueOptions): Promise<Catalogue> {
  return (await loadConfigFile(options)).catalogue;
}

/** What the file holds, for the start log and `config check`: `4 networks, 1 signers, ...`. */
export function describeContent({ catalogue, relayers, notifications, plugins }: ConfigFile): string {
  return `${catalogue.networkCount} networks, ${catalogue.signerCount} signers, ${relayers.length} relayers, ${notifications.length} notifications, ${plugins?.length ?? 0} plugins`;
}
