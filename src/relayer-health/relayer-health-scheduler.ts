import { Inject, Injectable } from '@nestjs/common';
import { OnEvent } from '@nestjs/event-emitter';
import { PollingService } from '../common/scheduling/polling.service';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/app-config.module';
import { DatabaseLifecycle } from '../database/database-lifecycle';
import { OnCommitting } from '../database/on-committing';
import type { CommittingEvent } from '../database/transactions';
import { RELAYER_EVENTS, type RelayerEvent, type RelayerUpdatedEvent } from '../relayers/relayer-events';
import { RelayerChecksRepository } from './relayer-checks.repository';
import { RelayerHealthService } from './relayer-health.service';
import { BalanceHistoryService } from './balance-history.service';

/** Relayers per batch: one claim, one read, and their calls to one endpoint in one JSON-RPC batch. */
const BATCH = 100;
const IDLE_POLL_MS = 1000;

/** docs/reference/relayer-health.md#2-when; each due check is claimed with a lease, so one instance runs it. */
@Injectable()
export class RelayerHealthScheduler extends PollingService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly checks: RelayerChecksRepository,
    private readonly health: RelayerHealthService,
    private readonly history: BalanceHistoryService,
    database: DatabaseLifecycle,
  ) {
    super('RelayerHealth', IDLE_POLL_MS, database);
  }

  @OnCommitting(RELAYER_EVENTS.created)
  async onCreated(committing: CommittingEvent<RelayerEvent>): Promise<void> {
    await this.checks.insertDue(committing.event.relayer.id, new Date(), committing);
  }

  @OnCommitting(RELAYER_EVENTS.updated)
  async onUpdated(committing: CommittingEvent<RelayerUpdatedEvent>): Promise<void> {
    const { event } = committing;
    if (event.changed.includes('custom_rpc_urls') || event.changed.includes('policies')) {
      await this.checks.dueNow(event.relayer.id, new Date(), undefined, committing);
    }
  }

  @OnEvent(RELAYER_EVENTS.created)
  @OnEvent(RELAYER_EVENTS.updated)
  onCommitted(): void {
    this.loop.wake();
  }

  override onApplicationBootstrap(): void {
    if (this.config.healthChecks.enabled) this.loop.start();
  }

  /**
   * docs/reference/relayer-health.md#26-rounds-in-batches. One batch at a time: the bound that keeps
   * the API's latency flat during a round (docs/history/performance-rounds.md#sixth-round-issue-28-health-checks-and-webhooks-in-batches).
   */
  protected async round(): Promise<void> {
    // docs/reference/relayer-health.md#36-what-is-kept: a bounded prune, beside the checks.
    await this.history
      .prune()
      .catch((error: unknown) => this.logger.warn({ err: error }, 'pruning the balance samples failed'));
    return this.loop.drain(
      BATCH,
      () => this.health.findDue(BATCH),
      (ids) =>
        this.health
          .checkDue(ids)
          .catch((error: unknown) =>
            this.logger.warn({ err: error }, `a batch of ${ids.length} checks failed`),
          ),
    );
  }
}
