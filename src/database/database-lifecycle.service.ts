import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { isDatabaseUnavailable } from '../common/errors/database-errors';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';

const MIGRATION_LOCK = 'relayer_service_migrations';
const MIGRATION_LOCK_WAIT_S = 120;
const RETRY_DELAY_MS = 2000;

/**
 * Connects the data source and applies pending migrations under a lock (on MySQL a named lock,
 * so that instances starting together apply them once). A MySQL server that cannot be reached
 * at start does not stop the service: it keeps trying in the background, answers 503 meanwhile
 * and reports not-ready, so orchestrators see a live process that is waiting for its database.
 */
@Injectable()
export class DatabaseLifecycle implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Database');
  private ready = false;
  private retryTimer: NodeJS.Timeout | null = null;
  private stopped = false;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  get isReady(): boolean {
    return this.ready;
  }

  async onApplicationBootstrap(): Promise<void> {
    try {
      await this.connectAndMigrate();
    } catch (error) {
      if (this.config.database.kind !== 'mysql' || !isDatabaseUnavailable(error)) throw error;
      this.logger.error(
        `database unreachable at start, retrying every ${RETRY_DELAY_MS} ms: ${describe(error)}`,
      );
      this.scheduleRetry();
    }
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    if (this.dataSource.isInitialized) await this.dataSource.destroy();
  }

  private scheduleRetry(): void {
    if (this.stopped) return;
    this.retryTimer = setTimeout(() => {
      this.connectAndMigrate().then(
        () => this.logger.log('database reachable: migrations applied, ready'),
        (error: unknown) => {
          this.logger.warn(`database still unreachable: ${describe(error)}`);
          this.scheduleRetry();
        },
      );
    }, RETRY_DELAY_MS);
    this.retryTimer.unref();
  }

  private async connectAndMigrate(): Promise<void> {
    if (!this.dataSource.isInitialized) {
      try {
        await this.dataSource.initialize();
      } catch (error) {
        // A failed initialize leaves the driver's pool behind; close it before the next attempt.
        await this.dataSource.driver.disconnect().catch(() => undefined);
        throw error;
      }
    }
    await this.runMigrationsUnderLock();
    this.ready = true;
  }

  private async runMigrationsUnderLock(): Promise<void> {
    if (this.dataSource.options.type !== 'mysql') {
      // SQLite: one writer at a time; the migrations run in one transaction.
      await this.dataSource.runMigrations({ transaction: 'all' });
      return;
    }
    const runner = this.dataSource.createQueryRunner();
    try {
      const rows = (await runner.query('SELECT GET_LOCK(?, ?) AS acquired', [
        MIGRATION_LOCK,
        MIGRATION_LOCK_WAIT_S,
      ])) as Array<{ acquired: number | string | null }>;
      if (Number(rows[0]?.acquired) !== 1) {
        throw new Error(`could not take the migration lock within ${MIGRATION_LOCK_WAIT_S} s`);
      }
      try {
        const applied = await this.dataSource.runMigrations({ transaction: 'each' });
        if (applied.length > 0)
          this.logger.log(`applied migrations: ${applied.map((m) => m.name).join(', ')}`);
      } finally {
        await runner.query('SELECT RELEASE_LOCK(?)', [MIGRATION_LOCK]);
      }
    } finally {
      await runner.release();
    }
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
