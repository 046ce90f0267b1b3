import {
  DynamicModule,
  MiddlewareConsumer,
  Module,
  NestModule,
  RequestMethod,
  type Type,
} from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_INTERCEPTOR, APP_PIPE } from '@nestjs/core';
import { EventEmitterModule } from '@nestjs/event-emitter';
import { ApiKeysModule } from './api-keys/api-keys.module';
import { AuditModule } from './audit/audit.module';
import { RolesModule } from './roles/roles.module';
import { SessionsModule } from './sessions/sessions.module';
import { CatalogueModule } from './config-file/catalogue.module';
import { ConfigFileModule } from './config-file/config-file.module';
import { NetworksModule } from './networks/networks.module';
import { SignersModule } from './signers/signers.module';
import { AuthModule } from './common/auth/auth.module';
import { BearerAuthGuard } from './common/auth/bearer-auth.guard';
import { declarePermissions, type ExtensionPermission } from './common/auth/principal';
import { ApiExceptionFilter } from './common/http/api-exception.filter';
import { DatabaseReadyGuard } from './database/database-ready.guard';
import { EnvelopeInterceptor } from './common/http/envelope.interceptor';
import { JsonBodyInterceptor } from './common/http/json-body.interceptor';
import { ParseJsonBodyInterceptor } from './common/http/parse-json-body.interceptor';
import type { ProviderOverride } from './common/modules/provider-overrides';
import { RequestContext } from './common/http/request-context';
import { RequestTimeoutMiddleware } from './common/http/request-timeout.middleware';
import { LoggingModule } from './common/logging/logging.module';
import { ApiKeyThrottlerGuard } from './common/rate-limit/api-key-throttler.guard';
import { RateLimitModule } from './common/rate-limit/rate-limit.module';
import { RedisModule } from './common/redis/redis.module';
import { DtoValidationPipe } from './common/validation/dto-validation.pipe';
import type { AppConfig } from './config/app-config';
import { AppConfigModule } from './config/app-config.module';
import { DataSourceAdditionsModule } from './database/data-source-additions.module';
import type { EntityClass, MigrationClass } from './database/data-source-options';
import { DatabaseModule } from './database/database.module';
import { ProbesModule } from './probes/probes.module';
import { IdempotencyInterceptor } from './idempotency/idempotency.interceptor';
import { IdempotencyModule } from './idempotency/idempotency.module';
import { MetricsModule } from './metrics/metrics.module';
import { NotificationsModule } from './notifications/notifications.module';
import { RelayerHealthModule } from './relayer-health/relayer-health.module';
import { RelayersModule } from './relayers/relayers.module';
import { WebhooksModule } from './webhooks/webhooks.module';
import { AlertChannelsModule } from './alert-channels/alert-channels.module';

/** Modules added by the service's users (docs/reference/extension-events.md). */
export interface AppExtensions {
  readonly imports?: ReadonlyArray<Type<unknown> | DynamicModule>;
  /** Permissions of the added modules' routes, `resource:action`: API keys may be given them. */
  readonly permissions?: readonly ExtensionPermission[];
  /**
   * Entities of the added modules not registered with `TypeOrmModule.forFeature` (those are found
   * there): they join the service's data source (docs/reference/extension-events.md).
   */
  readonly entities?: readonly EntityClass[];
  /** Migration classes of the added modules: run with the service's, under its lock, in its table. */
  readonly migrations?: readonly MigrationClass[];
  /** Providers of the service replaced before it starts (docs/reference/extension-events.md#3-replaceable-parts). */
  readonly overrides?: readonly ProviderOverride[];
}

/** The order of the global enhancers is the request pipeline of docs/architecture.md: keep the two in step. */
@Module({})
export class AppModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    consumer
      .apply(RequestContext.middleware, RequestTimeoutMiddleware)
      .forRoutes({ path: '{*path}', method: RequestMethod.ALL });
  }

  static register(config: AppConfig, extensions: AppExtensions = {}): DynamicModule {
    declarePermissions(extensions.permissions ?? []);
    return {
      module: AppModule,
      imports: [
        AppConfigModule.forRoot(config),
        DataSourceAdditionsModule.register({
          entities: extensions.entities ?? [],
          migrations: extensions.migrations ?? [],
        }),
        // Changes are published as relayer.created, ...; `relayer.*` subscribes to all of one kind.
        EventEmitterModule.forRoot({ wildcard: true, delimiter: '.' }),
        LoggingModule,
        AuthModule,
        RedisModule,
        RateLimitModule,
        DatabaseModule,
        IdempotencyModule,
        CatalogueModule,
        SignersModule,
        NetworksModule,
        MetricsModule,
        ProbesModule,
        NotificationsModule,
        RelayersModule,
        WebhooksModule,
        AlertChannelsModule,
        ConfigFileModule,
        RelayerHealthModule,
        ApiKeysModule,
        RolesModule,
        SessionsModule,
        AuditModule,
        ...(extensions.imports ?? []),
      ],
      providers: [
        { provide: APP_GUARD, useClass: BearerAuthGuard },
        { provide: APP_GUARD, useClass: ApiKeyThrottlerGuard },
        { provide: APP_GUARD, useClass: DatabaseReadyGuard },
        { provide: APP_INTERCEPTOR, useClass: JsonBodyInterceptor },
        { provide: APP_INTERCEPTOR, useClass: IdempotencyInterceptor },
        { provide: APP_INTERCEPTOR, useClass: ParseJsonBodyInterceptor },
        { provide: APP_INTERCEPTOR, useClass: EnvelopeInterceptor },
        { provide: APP_PIPE, useClass: DtoValidationPipe },
        { provide: APP_FILTER, useClass: ApiExceptionFilter },
      ],
    };
  }
}
