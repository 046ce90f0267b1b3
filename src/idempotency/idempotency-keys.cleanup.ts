import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { PollingLoop } from '../common/scheduling/polling-loop';
import { DatabaseLifecycle } from '../database/database-lifecycle.service';
import { Transactions } from '../database/transactions';
import { IdempotencyKeysRepository } from './idempotency-keys.repository';
import { IDEMPOTENCY_KEY_RETENTION_MS } from './idempotency-keys.service';

const SWEEP_EVERY_MS = 10 * 60 * 1000;
const BATCH = 1000;

/** Only keeps the table small: an expired key is treated as unused already. */
@Injectable()
export class IdempotencyKeysCleanup implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('IdempotencyKeys');
  private readonly loop = new PollingLoop('IdempotencyKeys', () => this.sweep(), SWEEP_EVERY_MS);

  constructor(
    private readonly keys: IdempotencyKeysRepository,
    private readonly transactions: Transactions,
    private readonly database: DatabaseLifecycle,
  ) {}

  onApplicationBootstrap(): void {
    this.loop.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.loop.stop();
  }

  private async sweep(): Promise<void> {
    if (!this.database.isReady) return;
    const before = new Date(Date.now() - IDEMPOTENCY_KEY_RETENTION_MS);
    let removed = 0;
    for (;;) {
      const batch = await this.transactions.run((tx) =>
        this.keys.deleteCreatedBefore(tx.manager, before, BATCH),
      );
      removed += batch;
      if (batch < BATCH || this.loop.isStopped) break;
    }
    if (removed > 0) this.logger.log(`removed ${removed} idempotency keys older than 24 hours`);
  }
}
