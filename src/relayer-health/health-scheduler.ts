import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { OnEvent } from '@nestjs/event-emitter';
import { PollingLoop } from '../common/scheduling/polling-loop';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { DatabaseLifecycle } from '../database/database-lifecycle.service';
import type { CommittingEvent } from '../database/transactions';
import { RELAYER_EVENTS, type RelayerEvent, type RelayerUpdatedEvent } from '../relayers/relayer-events';
import { RelayerChecksRepository } from './relayer-checks.repository';
import { RelayerHealthService } from './relayer-health.service';

const BATCH = 50;
const CONCURRENCY = 16;
const IDLE_POLL_MS = 1000;

/**
 * When relayers are checked (docs/reference/relayer-health.md#2-when): right after a create and after a PATCH of
 * custom_rpc_urls or policies (the check row is written in the change's transaction), then every
 * interval, sooner for disabled ones. Every instance polls for due checks and claims each with a
 * lease, so one instance checks a relayer per round. Checks never run on a request's path.
 */
@Injectable()
export class RelayerHealthScheduler implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('RelayerHealth');
  private readonly loop = new PollingLoop('RelayerHealth', () => this.round(), IDLE_POLL_MS);

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly checks: RelayerChecksRepository,
    private readonly health: RelayerHealthService,
    private readonly database: DatabaseLifecycle,
  ) {}

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
    this.wake();
  }

  onApplicationBootstrap(): void {
    if (this.config.healthChecks.enabled) this.loop.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.loop.stop();
  }

  private wake(): void {
    this.loop.wake();
  }

  private async round(): Promise<void> {
    if (!this.database.isReady) return;
    for (;;) {
      const ids = await this.checks.findDueIds(new Date(), BATCH);
      if (ids.length === 0 || this.loop.isStopped) return;
      const queue = [...ids];
      await Promise.all(
        Array.from({ length: Math.min(CONCURRENCY, queue.length) }, async () => {
          for (let id = queue.shift(); id !== undefined && !this.loop.isStopped; id = queue.shift()) {
            const lease = await this.health.claim(id, true).catch(() => null);
            if (lease !== null) {
              await this.health
                .run(id, lease)
                .catch((error: unknown) => this.logger.warn({ err: error }, `check of ${id} failed`));
            }
          }
        }),
      );
      if (ids.length < BATCH) return;
    }
  }
}
