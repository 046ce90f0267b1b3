import { Logger, Module } from '@nestjs/common';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { Catalogue } from './catalogue';
import { CatalogueController } from './catalogue.controller';
import { loadCatalogue } from './catalogue.loader';

/** The networks and signers of CONFIG_FILE, loaded and validated once at start. */
@Module({
  controllers: [CatalogueController],
  providers: [
    {
      provide: Catalogue,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig): Promise<Catalogue> => {
        const logger = new Logger('Catalogue');
        return loadCatalogue({
          configFile: config.configFile,
          dataDir: config.dataDir,
          production: config.production,
          env: config.secretsEnv,
          onNotice: (message) => logger.warn(message),
        });
      },
    },
  ],
  exports: [Catalogue],
})
export class CatalogueModule {}
