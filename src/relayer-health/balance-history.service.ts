import { Injectable, Logger } from '@nestjs/common';
import type { ReadTx } from '../database/transactions';
import { WorkerDatabase } from '../database/worker-database';
import { RelayersService, relayerNotFound } from '../relayers';
import type { BalanceHistoryResponse, BalanceHistoryWindow } from './dto/balance-history.dto';
import { RelayerBalanceSamplesRepository } from './relayer-balance-samples.repository';

const HOUR_MS = 3600_000;
const DAY_MS = 24 * HOUR_MS;
const WINDOW_MS: Record<BalanceHistoryWindow, number> = {
  '24h': DAY_MS,
  '7d': 7 * DAY_MS,
  '30d': 30 * DAY_MS,
};
/** docs/reference/relayer-health.md#36-what-is-kept */
export const SAMPLES_KEPT_MS = 30 * DAY_MS;
/** Samples deleted by one prune: a round's bounded work. */
const PRUNED_PER_ROUND = 1000;
/** A prune that found less than a full batch waits this long before the next. */
const PRUNE_EVERY_MS = HOUR_MS;

/**
 * docs/reference/relayer-health.md#35-balance-history: the balances the health checks found, a sample
 * each time a relayer's changed (and at its first read), kept 30 days and at most
 * MAX_SAMPLES_PER_RELAYER per relayer.
 */
@Injectable()
export class BalanceHistoryService {
  private readonly logger = new Logger('BalanceHistory');
  /** When this instance prunes next (Date.now()); 0: at its first round. */
  private nextPruneAt = 0;

  constructor(
    private readonly samples: RelayerBalanceSamplesRepository,
    private readonly relayers: RelayersService,
    private readonly worker: WorkerDatabase,
  ) {}

  /** A relayer outside the key's scope is missing, as on every relayer route. */
  async history(relayerId: string, window: BalanceHistoryWindow): Promise<BalanceHistoryResponse> {
    if (!(await this.relayers.exists(relayerId))) throw relayerNotFound(relayerId);
    const found = await this.samples.findFrom(relayerId, new Date(Date.now() - WINDOW_MS[window]));
    return {
      window,
      samples: found.map((sample) => ({ at: sample.at.toISOString(), balance: sample.balance })),
    };
  }

  /**
   * In the transaction that wrote the checks of `relayerIds` at `checkedAt`, each having read a
   * balance other than the one stored before it (or the first): their samples.
   */
  recordChanged(relayerIds: readonly string[], checkedAt: Date, tx: ReadTx): Promise<void> {
    return this.samples.recordChecked(relayerIds, checkedAt, tx);
  }

  /**
   * From the checks' rounds: at most PRUNED_PER_ROUND samples older than 30 days (never a relayer's
   * newest), again at the next round while a full batch was found, else an hour later.
   */
  async prune(): Promise<void> {
    const now = Date.now();
    if (now < this.nextPruneAt) return;
    const { found, deleted } = await this.samples.deleteTakenBefore(
      new Date(now - SAMPLES_KEPT_MS),
      PRUNED_PER_ROUND,
      await this.worker.connection(),
    );
    this.nextPruneAt = found < PRUNED_PER_ROUND ? now + PRUNE_EVERY_MS : now;
    if (deleted > 0) this.logger.log(`removed ${deleted} balance samples taken more than 30 days ago`);
  }
}
