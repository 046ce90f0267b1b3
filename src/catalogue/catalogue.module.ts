import { Logger, Module } from '@nestjs/common';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { Catalogue } from './catalogue.service';
import { loadCatalogue } from './catalogue.loader';
import { DnsResolver } from '../common/security/policy-agent';
import { FileHostedSigners, KeyServices } from '../signers/signers.service';

/**
 * The configuration file (CONFIG_FILE): its networks and signers, loaded and validated once at
 * start; the seed of the networks and signers features (src/networks, src/signers).
 */
@Module({
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
          hostedSigners: new FileHostedSigners(config, new KeyServices(config, new DnsResolver())),
        });
      },
    },
  ],
  exports: [Catalogue],
})
export class CatalogueModule {}
