import { Module, type OnModuleInit } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuthModule } from '../common/auth/auth.module';
import { Authenticator } from '../common/auth/authenticator';
import { RedisModule } from '../common/redis/redis.module';
import { ApiKeyPrincipals } from './api-key-principals';
import { ApiKeyEntity } from './api-key.entity';
import { ApiKeysController } from './api-keys.controller';
import { ApiKeysRepository } from './api-keys.repository';
import { ApiKeysService } from './api-keys.service';
import { declareResource } from '../common/auth/resources';
import { MetricsModule } from '../metrics/metrics.module';
import { ApiKeyMetrics } from './api-key-metrics';
import { ApiKeyCreateRules } from './api-keys.validation';

// Its resource, permissions and audited type (docs/reference/extension-events.md).
declareResource({ name: 'api_key', permissions: ['api_keys:manage'], audited: true });

/** Managed API keys: the routes, and the store the global auth guard looks keys up in. */
@Module({
  imports: [TypeOrmModule.forFeature([ApiKeyEntity]), AuthModule, RedisModule, MetricsModule],
  controllers: [ApiKeysController],
  providers: [ApiKeysService, ApiKeysRepository, ApiKeyPrincipals, ApiKeyCreateRules, ApiKeyMetrics],
})
export class ApiKeysModule implements OnModuleInit {
  constructor(
    private readonly authenticator: Authenticator,
    private readonly principals: ApiKeyPrincipals,
  ) {}

  onModuleInit(): void {
    this.authenticator.useStore(this.principals);
  }
}
