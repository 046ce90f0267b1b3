import { DynamicModule, MiddlewareConsumer, Module, NestModule, RequestMethod } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_INTERCEPTOR, APP_PIPE } from '@nestjs/core';
import { CatalogueModule } from './catalogue/catalogue.module';
import { AuthModule } from './common/auth/auth.module';
import { BearerAuthGuard } from './common/auth/bearer-auth.guard';
import { ApiExceptionFilter } from './common/http/api-exception.filter';
import { DatabaseReadyGuard } from './database/database-ready.guard';
import { EnvelopeInterceptor } from './common/http/envelope.interceptor';
import { JsonBodyInterceptor } from './common/http/json-body.interceptor';
import { RequestTimeoutMiddleware } from './common/http/request-timeout.middleware';
import { LoggingModule } from './common/logging/logging.module';
import { ApiKeyThrottlerGuard } from './common/rate-limit/api-key-throttler.guard';
import { RateLimitModule } from './common/rate-limit/rate-limit.module';
import { RedisModule } from './common/redis/redis.module';
import { DtoValidationPipe } from './common/validation/validation.pipe';
import type { AppConfig } from './config/app-config';
import { AppConfigModule } from './config/config.module';
import { DatabaseModule } from './database/database.module';
import { HealthModule } from './health/health.module';
import { MetricsModule } from './metrics/metrics.module';
import { NotificationsModule } from './notifications/notifications.module';
import { RelayersModule } from './relayers/relayers.module';

/**
 * The whole service. The global pipeline, in the order a request meets it:
 * request id and log (pino-http) → metrics → timeout → auth guard → rate-limit guard →
 * database-ready guard → envelope → JSON body → validation pipe → handler; errors of any stage go
 * to the one exception filter.
 */
@Module({})
export class AppModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(RequestTimeoutMiddleware).forRoutes({ path: '{*path}', method: RequestMethod.ALL });
  }

  static register(config: AppConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [
        AppConfigModule.forRoot(config),
        LoggingModule,
        AuthModule,
        RedisModule,
        RateLimitModule,
        DatabaseModule,
        CatalogueModule,
        MetricsModule,
        HealthModule,
        NotificationsModule,
        RelayersModule,
      ],
      providers: [
        { provide: APP_GUARD, useClass: BearerAuthGuard },
        { provide: APP_GUARD, useClass: ApiKeyThrottlerGuard },
        { provide: APP_GUARD, useClass: DatabaseReadyGuard },
        { provide: APP_INTERCEPTOR, useClass: EnvelopeInterceptor },
        { provide: APP_INTERCEPTOR, useClass: JsonBodyInterceptor },
        { provide: APP_PIPE, useClass: DtoValidationPipe },
        { provide: APP_FILTER, useClass: ApiExceptionFilter },
      ],
    };
  }
}
