import { Module } from '@nestjs/common';
import { ThrottlerModule } from '@nestjs/throttler';
import { createHash } from 'node:crypto';
import type Redis from 'ioredis';
import type { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/app-config.module';
import { RequestContext } from '../http/request-context';
import { lazyRequire } from '../modules/lazy-require';
import { REDIS_CLIENT, RedisModule } from '../redis/redis.module';
import { FailOpenThrottlerStorage } from './fail-open-throttler-storage';
import { FailedAuthentications } from './failed-authentications';
import { FixedWindowThrottlerStorage } from './fixed-window-throttler-storage';
import { rateLimitWindow } from './rate-limit-window';

const loadRedisStorage = lazyRequire<typeof import('@nest-lab/throttler-storage-redis')>(
  '@nest-lab/throttler-storage-redis',
);

@Module({
  imports: [
    ThrottlerModule.forRootAsync({
      imports: [RedisModule],
      inject: [APP_CONFIG, REDIS_CLIENT],
      useFactory: async (config: AppConfig, redis: Redis | null) => {
        const { keyPrefix } = config.rateLimit;
        const { ttl, limit } = rateLimitWindow(config.rateLimit);
        const tracker = createHash('sha256').update(config.auth.apiKey).digest('hex').slice(0, 32);
        const key = `${keyPrefix}:${tracker}`;
        return {
          throttlers: [{ name: 'default', ttl, limit }],
          // Counters are named by a digest of API_KEY or a managed key's id: no key reaches Redis.
          getTracker: () => tracker,
          generateKey: () => {
            const principal = RequestContext.current()?.principal;
            return principal?.type === 'api_key' ? `${keyPrefix}:key-${principal.id}` : key;
          },
          storage: redis
            ? new FailOpenThrottlerStorage(new (await loadRedisStorage()).ThrottlerStorageRedisService(redis))
            : new FixedWindowThrottlerStorage(),
        };
      },
    }),
  ],
  providers: [FailedAuthentications],
  exports: [ThrottlerModule, FailedAuthentications],
})
export class RateLimitModule {}
