import { Injectable, Logger } from '@nestjs/common';
import type { AppConfig } from '../config/app-config';
import { loadConfigFile, type ConfigFile } from './load-config-file';
import { DnsResolver } from '../common/security/policy-agent';
import { FileHostedSigners, KeyServices } from '../signers';

export { CatalogueConfigError, describeContent, type ConfigFile } from './load-config-file';
export type { FileEntry } from './load-config-file';

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
 * a replacement's `load` resolves to a ConfigFile (its catalogue, relayers and notifications) or rejects,
 * which stops the start.
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

/** Its relayers and notifications are reconciled by src/config-file. */
export const CONFIG_FILE_CONTENT = Symbol('CONFIG_FILE_CONTENT');
