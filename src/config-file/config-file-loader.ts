import { Injectable, Logger } from '@nestjs/common';
import path from 'node:path';
import { Catalogue, SIGNER_ID_PATTERN } from '../catalogue';
import { DnsResolver } from '../common/security/dns-resolver';
import type { AppConfig } from '../config/app-config';
import { FileHostedSigners, KeyServices } from '../signers';
import { isComment, listOf, parseConfig, parseJson, quoted, readText } from './config-json';
import { sectionsSchema, TOP_LEVEL_KEYS, topLevelSchema, type FileEntry } from './config-schema';
import { readNetworks } from './network-entries';
import { readSigners, type SignerContext } from './signer-entries';

export { CatalogueConfigError } from './config-json';
export type { FileEntry } from './config-schema';

export type LoadCatalogueOptions = SignerContext & {
  /** CONFIG_STRICT=true: a key the reference system ignores stops the start instead of a warning. */
  readonly strict?: boolean;
};

/** The whole configuration file (docs/reference/config-file.md). */
export interface ConfigFile {
  readonly file: string;
  readonly catalogue: Catalogue;
  readonly relayers: readonly FileEntry[];
  readonly notifications: readonly FileEntry[];
  /** Absent (a replacement loader of before alert channels): none. */
  readonly alertChannels?: readonly FileEntry[];
  /** The file's `plugins` as they are (not run by this service, kept for the export); null when absent. */
  readonly plugins: readonly unknown[] | null;
}

/**
 * The top level, the networks, then the signers, notifications, relayers and alert channels: the first
 * problem stops it, named by its path (CatalogueConfigError, which holds every problem of that step).
 */
export async function loadConfigFile(options: LoadCatalogueOptions): Promise<ConfigFile> {
  const file = path.resolve(options.configFile);
  const where = `CONFIG_FILE ${file}`;
  const ignored = { strict: options.strict ?? false, warn: options.onNotice ?? (() => undefined) };
  // A top-level comment (`_comment`) is ignored; any other unknown key stops the start (19.1).
  const root = parseConfig(topLevelSchema, parseJson(await readText(file, where), where), where, {
    ...ignored,
    ignorable: isComment,
    refuse: (key) => `unknown top-level key ${quoted(key)} (expected ${listOf(TOP_LEVEL_KEYS)})`,
  });
  const networks = await readNetworks(root.networks, file, where, ignored, options.env);
  const schema = sectionsSchema(options.env, options.hostedSigners?.types ?? []);
  const sections = parseConfig(schema, root, where, ignored, (section, index) => {
    const id = section === 'signers' ? (root.signers as Array<{ id?: unknown }>)[index]?.id : undefined;
    return typeof id === 'string' && SIGNER_ID_PATTERN.test(id)
      ? `signer '${id}'`
      : `${String(section)}[${index}]`;
  });
  const signers = await readSigners(sections.signers, where, { ...options, configFile: file });
  return {
    file,
    catalogue: new Catalogue({ networks, signers }),
    notifications: sections.notifications.map((body) => ({ id: body.id, body })),
    relayers: sections.relayers.map((body) => ({ id: body.id, body })),
    alertChannels: sections.alert_channels.map((body) => ({ id: body.id, body })),
    plugins: root.plugins ?? null,
  };
}

export async function loadCatalogue(options: LoadCatalogueOptions): Promise<Catalogue> {
  return (await loadConfigFile(options)).catalogue;
}

/** What the file holds, for the start log and `config check`: `4 networks, 1 signers, ...`. */
export function describeContent(file: ConfigFile): string {
  const { catalogue, relayers, notifications, alertChannels, plugins } = file;
  return `${catalogue.networkCount} networks, ${catalogue.signerCount} signers, ${relayers.length} relayers, ${notifications.length} notifications, ${alertChannels?.length ?? 0} alert channels, ${plugins?.length ?? 0} plugins`;
}

/**
 * The file as a start reads it, its hosted signers resolved by the signers feature; `hostedSigners`:
 * `config check` gives its own, and reads without writing.
 */
export function readConfigFile(
  config: AppConfig,
  onNotice?: (message: string) => void,
  hostedSigners = new FileHostedSigners(config, new KeyServices(config, new DnsResolver())),
  readOnly = false,
): Promise<ConfigFile> {
  const { configFile, configStrict: strict, dataDir, production, secretsEnv: env } = config;
  return loadConfigFile({ configFile, strict, dataDir, production, env, onNotice, hostedSigners, readOnly });
}

/**
 * Gives the configuration file the service serves (docs/reference/extension-events.md#3-replaceable-parts):
 * a replacement's `load` resolves to a ConfigFile (its catalogue, relayers, notifications and alert
 * channels) or rejects, which stops the start.
 */
@Injectable()
export class ConfigFileLoader {
  constructor(private readonly keyServices: KeyServices) {}

  load(config: AppConfig): Promise<ConfigFile> {
    const logger = new Logger('Catalogue');
    const hostedSigners = new FileHostedSigners(config, this.keyServices);
    return readConfigFile(config, (message) => logger.warn(message), hostedSigners);
  }
}

/** Its relayers, notifications and alert channels are reconciled by src/config-file. */
export const CONFIG_FILE_CONTENT = Symbol('CONFIG_FILE_CONTENT');
