import { Injectable } from '@nestjs/common';
import { PollingService } from '../common/scheduling/polling-loop';
import { DatabaseLifecycle } from '../database/database-lifecycle.service';
import { Transactions } from '../database/transactions';
import { IdempotencyKeysRepository } from './idempotency-keys.repository';
import { IDEMPOTENCY_KEY_RETENTION_MS } from './idempotency-keys.service';

const SWEEP_EVERY_MS = 10 * 60 * 1000;
const BATCH = 1000;

/** Only keeps the table small: an expired key is treated as unused already. */
@Injectable()
export class IdempotencyKeysCleanup extends PollingService {
  constructor(
    private readonly keys: IdempotencyKeysRepository,
    private readonly transactions: Transactions,
    database: DatabaseLifecycle,
  ) {
    super('IdempotencyKeys', SWEEP_EVERY_MS, database);
  }

  protected async round(): Promise<void> {
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
