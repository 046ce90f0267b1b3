import { Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { PollingLoop } from './polling-loop';

export abstract class PollingService implements OnApplicationBootstrap, OnApplicationShutdown {
  protected readonly logger: Logger;
  protected readonly loop: PollingLoop;

  constructor(name: string, idleMs: number, database: { readonly isReady: boolean }) {
    this.logger = new Logger(name);
    this.loop = new PollingLoop(name, () => (database.isReady ? this.round() : Promise.resolve()), idleMs);
  }

  protected abstract round(): Promise<void>;

  onApplicationBootstrap(): void {
    this.loop.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.loop.stop();
  }
}
