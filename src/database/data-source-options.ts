import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import type { Type } from '@nestjs/common';
import type { DataSourceOptions, EntitySchema, MigrationInterface } from 'typeorm';
import type { DatabaseConfig } from '../config/database-url';
import { SqliteReadGateSubscriber } from './sqlite-read-gate-subscriber';

/** An entity class (decorated with `@Entity`). */
export type EntityClass = Type<object>;
/** A migration class: its name ends with the 13-digit timestamp that orders it among the others. */
export type MigrationClass = Type<MigrationInterface>;

/**
 * The service's entities, for the TypeORM CLI (ormconfig.ts). The application finds them where each
 * feature registers its own, TypeOrmModule.forFeature in its module (autoLoadEntities), as an
 * extension does.
 */
export const ENTITY_FILES = path.join(__dirname, '..', '**', '*.entity.{ts,js}');
const MIGRATIONS = path.join(__dirname, 'migrations', '*.{ts,js}');
export const MIGRATIONS_TABLE = 'migrations';

/** Entities and migrations added to the service's (docs/reference/extension-events.md). */
export interface DataSourceAdditions {
  readonly entities?: ReadonlyArray<string | EntityClass | EntitySchema>;
  readonly migrations?: ReadonlyArray<string | MigrationClass>;
}

/**
 * For the application and ormconfig.ts (the CLI). Never `synchronize`: the schema comes from migrations,
 * the service's and those added, run together and recorded in one table.
 */
export function buildDataSourceOptions(
  database: DatabaseConfig,
  additions: DataSourceAdditions = {},
): DataSourceOptions {
  const entities: Array<string | EntityClass | EntitySchema> = [...(additions.entities ?? [])];
  const migrations: Array<string | MigrationClass> = [MIGRATIONS, ...(additions.migrations ?? [])];
  const common = {
    entities,
    migrations,
    migrationsTableName: MIGRATIONS_TABLE,
    synchronize: false,
    migrationsRun: false,
    logging: false,
  } as const;
  switch (database.kind) {
    case 'sqlite':
      return {
        ...common,
        type: 'better-sqlite3',
        // The service's own driver: TypeORM's optional peer range (^12) would otherwise load the copy a
        // consumer's npm install puts beside it, not the 13 the service depends on (docs/extending.md).
        driver: BetterSqlite3,
        database: database.path,
        timeout: 5000,
        enableWAL: true,
        subscribers: [SqliteReadGateSubscriber],
        prepareDatabase: (db: { pragma(sql: string): unknown }) => {
          // WAL with FULL sync: a committed transaction survives a crash of the process and of the machine.
          db.pragma('synchronous = FULL');
        },
      };
    case 'mysql':
      return {
        ...common,
        type: 'mysql',
        url: database.url,
        charset: 'utf8mb4_unicode_ci',
        timezone: 'Z',
        supportBigNumbers: true,
        bigNumberStrings: true,
        connectTimeout: 3000,
        poolSize: 10,
        // trace: false: mysql2 would capture the caller's stack for every statement, in case it
        // fails (3 % of the dispatcher's CPU, docs/performance.md); a failed statement's log names
        // the statement and its values instead (src/common/logging/error-serializer.ts).
        extra: { enableKeepAlive: true, idleTimeout: 60_000, maxIdle: 10, trace: false },
      };
  }
}
