import { type DynamicModule, Module } from '@nestjs/common';
import type { DataSourceAdditions } from './data-source-options';

/** The entities and migrations createApp was given (docs/reference/extension-events.md). */
export const DATA_SOURCE_ADDITIONS = Symbol('DATA_SOURCE_ADDITIONS');

/** Global, so the data source's factory (DatabaseModule) reads them wherever it is built. */
@Module({})
export class DataSourceAdditionsModule {
  static register(additions: DataSourceAdditions): DynamicModule {
    return {
      module: DataSourceAdditionsModule,
      global: true,
      providers: [{ provide: DATA_SOURCE_ADDITIONS, useValue: additions }],
      exports: [DATA_SOURCE_ADDITIONS],
    };
  }
}
