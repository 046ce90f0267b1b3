import { type ExecutionContext, Module } from '@nestjs/common';
import type { Request } from 'express';
import { ThrottlerModule } from '@nestjs/throttler';
import { createHash } from 'node:crypto';
import type Redis from 'ioredis';
import type { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/app-config.module';
import { RequestContext } from '../http/request-context';
import { lazyRequire } from '../modules/lazy-require';
import { REDIS_CLIENT, RedisModule } from '../redis/redis.module';
import { FailOpenThrottlerStorage } from './fail-open-throttler-storage';
import { clientAddress, FailedAuthentications } from './failed-authentications';
import { FixedWindowThrottlerStorage } from './fixed-window-throttler-storage';
import { rateLimitWindow } from './rate-limit-window';

const digest = (text: string): string => createHash('sha256').update(text).digest('hex').slice(0, 32);

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
          // Counters are named by a digest of API_KEY, a managed key's id, a digest of a person's id, or
          // (the public routes that count: sign-in) the client address: no key reaches Redis, and no
          // stranger's requests spend an operator's budget.
          getTracker: () => tracker,
          generateKey: (context: ExecutionContext) => {
            const principal = RequestContext.current()?.principal;
            if (principal?.type === 'api_key') return `${keyPrefix}:key-${principal.id}`;
            if (principal?.type === 'user') return `${keyPrefix}:user-${digest(principal.id)}`;
            if (principal) return key;
            return `${keyPrefix}:ip-${clientAddress(context.switchToHttp().getRequest<Request>().ip)}`;
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
