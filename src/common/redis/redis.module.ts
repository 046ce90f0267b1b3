import { Inject, Logger, Module, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { once } from 'node:events';
import type Redis from 'ioredis';
import type { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/app-config.module';
import { lazyRequire } from '../modules/lazy-require';

const loadIoredis = lazyRequire<typeof import('ioredis')>('ioredis');

export const REDIS_CLIENT = Symbol('REDIS_CLIENT');

const STARTUP_WAIT_MS = 2000;

/** Commands fail at once while Redis is away, so that callers fail open instead of queueing. */
export async function createRedisClient(url: string): Promise<Redis> {
  const { Redis: RedisClient } = await loadIoredis();
  const logger = new Logger('Redis');
  const client = new RedisClient(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 2000,
    commandTimeout: 1000,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
  });
  let down = false;
  client.on('error', (error: Error) => {
    if (!down) logger.warn(`Redis unavailable: ${error.message}`);
    down = true;
  });
  client.on('ready', () => {
    if (down) logger.log('Redis connection restored');
    down = false;
  });
  return client;
}

@Module({
  providers: [
    {
      provide: REDIS_CLIENT,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig): Promise<Redis | null> =>
        config.redisUrl ? createRedisClient(config.redisUrl) : Promise.resolve(null),
    },
  ],
  exports: [REDIS_CLIENT],
})
export class RedisModule implements OnModuleInit, OnApplicationShutdown {
  constructor(@Inject(REDIS_CLIENT) private readonly redis: Redis | null) {}

  async onModuleInit(): Promise<void> {
    if (!this.redis || this.redis.status === 'ready') return;
    try {
      await once(this.redis, 'ready', { signal: AbortSignal.timeout(STARTUP_WAIT_MS) });
    } catch {
      // Not fatal: requests are served without shared limits until it is ready.
    }
  }

  onApplicationShutdown(): void {
    this.redis?.disconnect();
  }
}
