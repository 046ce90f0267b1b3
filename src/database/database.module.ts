import { Global, Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { getDataSourceToken, TypeOrmModule } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/app-config.module';
import { DATA_SOURCE_ADDITIONS } from './data-source-additions.module';
import { buildDataSourceOptions, type DataSourceAdditions } from './data-source-options';
import { DatabaseLifecycle } from './database-lifecycle';
import { DatabaseDialect } from './dialects/database-dialect';
import { dialectOf, ServiceDataSource } from './service-data-source';
import { SafeSubscribers } from './safe-subscribers';
import { Transactions } from './transactions';
import { WorkerDatabase } from './worker-database';

@Global()
@Module({
  imports: [
    DiscoveryModule,
    TypeOrmModule.forRootAsync({
      inject: [APP_CONFIG, { token: DATA_SOURCE_ADDITIONS, optional: true }],
      // Connected by DatabaseLifecycle, which also runs the migrations (under a lock on MySQL), the
      // service's and createApp's together. The entities: those of every module's forFeature, as
      // an extension's are (docs/reference/extension-events.md), and createApp's `entities`.
      useFactory: (config: AppConfig, additions: DataSourceAdditions | undefined) => ({
        ...buildDataSourceOptions(config.database, additions),
        autoLoadEntities: true,
        manualInitialization: true,
      }),
      dataSourceFactory: (options) => Promise.resolve(new ServiceDataSource(options!)),
    }),
  ],
  providers: [
    {
      provide: DatabaseDialect,
      inject: [getDataSourceToken()],
      useFactory: (ds: DataSource) => dialectOf(ds),
    },
    DatabaseLifecycle,
    SafeSubscribers,
    Transactions,
    WorkerDatabase,
  ],
  exports: [DatabaseDialect, DatabaseLifecycle, Transactions, WorkerDatabase],
})
export class DatabaseModule {}
