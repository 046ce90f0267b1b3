import { Module } from '@nestjs/common';
import type { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/app-config.module';
import { RateLimitModule } from '../rate-limit/rate-limit.module';
import { ApiKeyVerifier } from './api-key-verifier';
import { Authenticator } from './authenticator';

@Module({
  imports: [RateLimitModule],
  providers: [
    {
      provide: ApiKeyVerifier,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => new ApiKeyVerifier(config.auth.apiKey),
    },
    Authenticator,
  ],
  exports: [ApiKeyVerifier, Authenticator],
})
export class AuthModule {}
