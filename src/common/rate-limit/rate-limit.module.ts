import { Module } from '@nestjs/common';
import { ThrottlerModule } from '@nestjs/throttler';
import { createHash } from 'node:crypto';
import type Redis from 'ioredis';
import type { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { RequestContext } from '../http/request-context';
import { lazyRequire } from '../modules/lazy-require';
import { REDIS_CLIENT, RedisModule } from '../redis/redis.module';
import { FailOpenThrottlerStorage } from './fail-open-storage';
import { FixedWindowThrottlerStorage } from './fixed-window-storage';

const loadRedisStorage = lazyRequire<typeof import('@nest-lab/throttler-storage-redis')>(
  '@nest-lab/throttler-storage-redis',
);

/**
 * At most RATE_LIMIT_BURST_SIZE requests per key in a window of BURST / RPS seconds; counters
 * in Redis when REDIS_URL is set (shared by every instance), in memory otherwise.
 */
@Module({
  imports: [
    ThrottlerModule.forRootAsync({
      imports: [RedisModule],
      inject: [APP_CONFIG, REDIS_CLIENT],
      useFactory: async (config: AppConfig, redis: Redis | null) => {
        const { burstSize, requestsPerSecond, keyPrefix } = config.rateLimit;
        const windowMs = Math.max(1, Math.round((burstSize / requestsPerSecond) * 1000));
        const tracker = createHash('sha256').update(config.auth.apiKey).digest('hex').slice(0, 32);
        const key = `${keyPrefix}:${tracker}`;
        return {
          throttlers: [{ name: 'default', ttl: windowMs, limit: burstSize }],
          // The guard runs after authentication, so every request it sees has a principal: one
          // budget per key across every route. The administrator's counter is named by a digest
          // of API_KEY, a managed key's by its id: no key reaches Redis.
          getTracker: () => tracker,
          generateKey: () => {
            const principal = RequestContext.current()?.principal;
            return principal?.type === 'api_key' ? `${keyPrefix}:key-${principal.id}` : key;
          },
          // The Redis storage (and ioredis under it) is loaded only when REDIS_URL is set.
          storage: redis
            ? new FailOpenThrottlerStorage(new (await loadRedisStorage()).ThrottlerStorageRedisService(redis))
            : new FixedWindowThrottlerStorage(),
        };
      },
    }),
  ],
  exports: [ThrottlerModule],
})
export class RateLimitModule {}
