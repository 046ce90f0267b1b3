import { Logger, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/app-config.module';
import { createSignerKeyCipher, SIGNER_KEY_CIPHER } from './signer-key-cipher';
import { SignerEntity } from './signer.entity';
import { SignersController } from './signers.controller';
import { SignersRepository } from './signers.repository';
import { SignersService } from './signers.service';
import { SignerCreateRules } from './signers.validation';
import { declareResource } from '../common/auth/resources';

// Its resource, permissions and audited type (docs/reference/extension-events.md).
declareResource({ name: 'signer', permissions: ['signers:read', 'signers:write'], audited: true });

@Module({
  imports: [TypeOrmModule.forFeature([SignerEntity])],
  controllers: [SignersController],
  providers: [
    {
      provide: SIGNER_KEY_CIPHER,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) =>
        createSignerKeyCipher(config, (message) => new Logger('Signers').warn(message)),
    },
    SignersRepository,
    SignersService,
    SignerCreateRules,
  ],
  exports: [SignersService],
})
export class SignersModule {}
