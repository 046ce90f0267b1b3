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
  exports: [ThrottlerModule],
})
export class RateLimitModule {}
