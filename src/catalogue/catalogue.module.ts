import { Global, Logger, Module, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { Catalogue } from './catalogue';
import { CatalogueController } from './catalogue.controller';
import { loadCatalogue } from './catalogue.loader';

/** The networks and signers of CONFIG_FILE, loaded and validated once at start. */
@Global()
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
          env: process.env,
          onNotice: (message) => logger.warn(message),
        });
      },
    },
  ],
  exports: [Catalogue],
})
export class CatalogueModule implements OnApplicationBootstrap, OnApplicationShutdown {
  private stopped = false;

  constructor(private readonly catalogue: Catalogue) {}

  onApplicationBootstrap(): void {
    const logger = new Logger('Catalogue');
    const started = Date.now();
    this.catalogue
      .warmAddresses(() => this.stopped)
      .then(
        () =>
          logger.log(
            `addresses of ${this.catalogue.signerCount} signers derived in ${Date.now() - started} ms`,
          ),
        (error: unknown) => logger.warn(`deriving addresses ahead of use failed: ${String(error)}`),
      );
  }

  onApplicationShutdown(): void {
    this.stopped = true;
  }
}
