import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { isDatabaseUnavailable } from '../common/errors/database-errors';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/app-config.module';
import { DatabaseDialect } from './dialects/database-dialect';
import { WorkerDatabase } from './worker-database';

const RETRY_DELAY_MS = 2000;

/**
 * Connects and migrates. A MySQL server unreachable at start does not stop the service: it retries in
 * the background, answering 503 and not-ready meanwhile, a live process waiting for its database.
 */
@Injectable()
export class DatabaseLifecycle implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Database');
  private ready = false;
  private retryTimer: NodeJS.Timeout | null = null;
  private stopped = false;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly dialect: DatabaseDialect,
    private readonly worker: WorkerDatabase,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    dialect.boundWaits(config.http.requestTimeoutMs);
  }

  get isReady(): boolean {
    return this.ready;
  }

  async onApplicationBootstrap(): Promise<void> {
    try {
      await this.connectAndMigrate();
    } catch (error) {
      if (!this.dialect.waitsForServer || !isDatabaseUnavailable(error)) throw error;
      this.logger.error(
        `database unreachable at start, retrying every ${RETRY_DELAY_MS} ms: ${describe(error)}`,
      );
      this.scheduleRetry();
    }
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    await this.worker.close();
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
    await this.dialect.migrate(this.logger);
    this.ready = true;
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
