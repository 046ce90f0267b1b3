import path from 'node:path';
import type { DataSourceOptions } from 'typeorm';
import { ApiKeyEntity } from '../api-keys/api-key.entity';
import { AuditEventEntity } from '../audit/audit-event.entity';
import { ConfigEntryEntity } from '../config-file/config-entry.entity';
import { NetworkRpcUrlsEntity } from '../networks/network-rpc-urls.entity';
import { SignerEntity } from '../signers/signer.entity';
import type { DatabaseConfig } from '../config/app-config';
import { IdempotencyKeyEntity } from '../idempotency/idempotency-key.entity';
import { NotificationEntity } from '../notifications/notification.entity';
import { RelayerCheckEntity } from '../relayer-health/relayer-check.entity';
import { RelayerEntity } from '../relayers/relayer.entity';
import { DeliveryEntity } from '../webhooks/delivery.entity';
import { TargetLeaseEntity } from '../webhooks/target-lease.entity';
import { SqliteReadGateSubscriber } from './sqlite-read-gate';

const ENTITIES = [
  NotificationEntity,
  RelayerEntity,
  DeliveryEntity,
  TargetLeaseEntity,
  RelayerCheckEntity,
  SignerEntity,
  NetworkRpcUrlsEntity,
  IdempotencyKeyEntity,
  ApiKeyEntity,
  AuditEventEntity,
  ConfigEntryEntity,
];

const MIGRATIONS = [path.join(__dirname, 'migrations', '*.{ts,js}')];
export const MIGRATIONS_TABLE = 'migrations';

/** For the application and ormconfig.ts (the CLI). Never `synchronize`: the schema comes from migrations. */
export function buildDataSourceOptions(database: DatabaseConfig): DataSourceOptions {
  const common = {
    entities: ENTITIES,
    migrations: MIGRATIONS,
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
        extra: { enableKeepAlive: true, idleTimeout: 60_000, maxIdle: 10 },
      };
  }
}
