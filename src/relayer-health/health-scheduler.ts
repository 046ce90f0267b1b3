import { Inject, Injectable } from '@nestjs/common';
import { OnEvent } from '@nestjs/event-emitter';
import { PollingService } from '../common/scheduling/polling-loop';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { DatabaseLifecycle } from '../database/database-lifecycle.service';
import type { CommittingEvent } from '../database/transactions';
import { RELAYER_EVENTS, type RelayerEvent, type RelayerUpdatedEvent } from '../relayers/relayer-events';
import { RelayerChecksRepository } from './relayer-checks.repository';
import { RelayerHealthService } from './relayer-health.service';

/** Relayers per batch: one claim, one read, and their calls to one endpoint in one JSON-RPC batch. */
const BATCH = 100;
/**
 * Batches under way at once: the bound that keeps the API's latency flat during a round (one batch
 * takes a fraction of the service's CPU at a time; docs/performance.md, sixth round).
 */
const BATCHES_AT_ONCE = 1;
const IDLE_POLL_MS = 1000;

/** docs/reference/relayer-health.md#2-when; each due check is claimed with a lease, so one instance runs it. */
@Injectable()
export class RelayerHealthScheduler extends PollingService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly checks: RelayerChecksRepository,
    private readonly health: RelayerHealthService,
    database: DatabaseLifecycle,
  ) {
    super('RelayerHealth', IDLE_POLL_MS, database);
  }

  @OnEvent(`${RELAYER_EVENTS.created}.committing`, { async: true, promisify: true, suppressErrors: false })
  async onCreated({ manager, event }: CommittingEvent<RelayerEvent>): Promise<void> {
    await this.checks.insertDue(manager, event.relayer.id, new Date());
  }

  @OnEvent(`${RELAYER_EVENTS.updated}.committing`, { async: true, promisify: true, suppressErrors: false })
  async onUpdated({ manager, event }: CommittingEvent<RelayerUpdatedEvent>): Promise<void> {
    if (event.changed.includes('custom_rpc_urls') || event.changed.includes('policies')) {
      await this.checks.dueNow(manager, event.relayer.id, new Date());
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

  /** docs/reference/relayer-health.md#26-rounds-in-batches; a batch claimed is off the next search for due rows. */
  protected async round(): Promise<void> {
    const running = new Set<Promise<void>>();
    for (;;) {
      const ids = await this.health.findDue(BATCH);
      if (ids.length === 0 || this.loop.isStopped) break;
      const batch = this.health
        .checkDue(ids)
        .catch((error: unknown) => this.logger.warn({ err: error }, `a batch of ${ids.length} checks failed`))
        .finally(() => running.delete(batch));
      running.add(batch);
      if (running.size >= BATCHES_AT_ONCE) await Promise.race(running);
      if (ids.length < BATCH) break;
    }
    await Promise.all(running);
  }
}
