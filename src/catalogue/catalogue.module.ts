import { Injectable, Logger, Module } from '@nestjs/common';
import path from 'node:path';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/app-config.module';
import { Catalogue } from './catalogue';
import { describeContent, loadConfigFile, type ConfigFile } from './catalogue.loader';
import { DnsResolver } from '../common/security/policy-agent';
import { OutboundHttpModule } from '../common/security/outbound-http.module';
import { FileHostedSigners, KeyServices } from '../signers';

export { CatalogueConfigError, describeContent, type ConfigFile } from './catalogue.loader';
export type { FileEntry } from './catalogue.loader';

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

/** CONFIG_FILE, else CONFIG_DIR/CONFIG_FILE_NAME: loaded and validated once at start. */
@Module({
  imports: [OutboundHttpModule],
  providers: [
    KeyServices,
    ConfigFileLoader,
    {
      provide: CONFIG_FILE_CONTENT,
      inject: [APP_CONFIG, ConfigFileLoader],
      useFactory: async (config: AppConfig, loader: ConfigFileLoader): Promise<ConfigFile> => {
        const logger = new Logger('Catalogue');
        const content = await loader.load(config);
        logger.log(`${path.basename(content.file)}: ${describeContent(content)}`);
        const plugins = content.plugins?.length ?? 0;
        if (plugins > 0) logger.warn(`the file names ${plugins} plugins: this service does not run plugins`);
        return content;
      },
    },
    {
      provide: Catalogue,
      inject: [CONFIG_FILE_CONTENT],
      useFactory: (content: ConfigFile) => content.catalogue,
    },
  ],
  exports: [Catalogue, CONFIG_FILE_CONTENT, KeyServices],
})
export class CatalogueModule {}
