import { Module } from '@nestjs/common';
import { ThrottlerModule } from '@nestjs/throttler';
import { createHash } from 'node:crypto';
import type { Request } from 'express';
import { ThrottlerStorageRedisService } from '@nest-lab/throttler-storage-redis';
import type Redis from 'ioredis';
import type { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { REDIS_CLIENT } from '../redis/redis.module';
import { FailOpenThrottlerStorage } from './fail-open-storage';

/**
 * At most RATE_LIMIT_BURST_SIZE requests per key in a window of BURST / RPS seconds; counters
 * in Redis when REDIS_URL is set (shared by every instance), in memory otherwise.
 */
@Module({
  imports: [
    ThrottlerModule.forRootAsync({
      inject: [APP_CONFIG, REDIS_CLIENT],
      useFactory: (config: AppConfig, redis: Redis | null) => {
        const { burstSize, requestsPerSecond, keyPrefix } = config.rateLimit;
        const windowMs = Math.max(1, Math.round((burstSize / requestsPerSecond) * 1000));
        return {
          throttlers: [{ name: 'default', ttl: windowMs, limit: burstSize }],
          // One budget per API key across every route; a digest, so the key never reaches Redis.
          getTracker: (request: Record<string, unknown>) =>
            createHash('sha256')
              .update(((request as unknown as Request).headers.authorization ?? '').replace(/^\S+\s+/, ''))
              .digest('hex')
              .slice(0, 32),
          generateKey: (_context: unknown, tracker: string) => `${keyPrefix}:${tracker}`,
          storage: redis ? new FailOpenThrottlerStorage(new ThrottlerStorageRedisService(redis)) : undefined,
        };
      },
    }),
  ],
  exports: [ThrottlerModule],
})
export class RateLimitModule {}
