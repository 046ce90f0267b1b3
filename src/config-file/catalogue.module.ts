import { Global, Logger, Module } from '@nestjs/common';
import path from 'node:path';
import { Catalogue } from '../catalogue';
import { OutboundHttpModule } from '../common/security/outbound-http.module';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/app-config.module';
import { KeyServices } from '../signers';
import {
  CONFIG_FILE_CONTENT,
  ConfigFileLoader,
  describeContent,
  type ConfigFile,
} from './config-file-loader';

/**
 * CONFIG_FILE, else CONFIG_DIR/CONFIG_FILE_NAME: loaded and validated once at start, its catalogue
 * provided to the whole application (global: the features inject Catalogue without importing this module,
 * so no feature depends on the configuration file's folder).
 */
@Global()
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
