import { Logger, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { Catalogue } from './catalogue';
import { loadCatalogue } from './catalogue.loader';
import { NetworkRpcUrlsEntity } from './network-rpc-urls.entity';
import { NetworksController } from './networks.controller';
import { NetworksService } from './networks.service';
import { createSignerKeyCipher, SIGNER_KEY_CIPHER } from './signer-key-cipher';
import { SignerUsersRegistry } from './signer-users';
import { SignerEntity } from './signer.entity';
import { SignersController } from './signers.controller';
import { SignersRepository } from './signers.repository';
import { SignersService } from './signers.service';

/**
 * The networks and signers: CONFIG_FILE, loaded and validated once at start, is the seed; signers
 * created and RPC lists changed through the API are rows, seen by every instance at once.
 */
@Module({
  imports: [TypeOrmModule.forFeature([SignerEntity, NetworkRpcUrlsEntity])],
  controllers: [SignersController, NetworksController],
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
    {
      provide: SIGNER_KEY_CIPHER,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) =>
        createSignerKeyCipher(config, (message) => new Logger('Signers').warn(message)),
    },
    SignersRepository,
    SignersService,
    SignerUsersRegistry,
    NetworksService,
  ],
  exports: [Catalogue, SignersService, SignerUsersRegistry, NetworksService],
})
export class CatalogueModule {}
