import { Logger } from '@nestjs/common';
import type { ThrottlerStorage } from '@nestjs/throttler';

type ThrottlerStorageRecord = Awaited<ReturnType<ThrottlerStorage['increment']>>;

/**
 * Wraps a shared (Redis) throttler storage so that an outage does not take the API down with it:
 * when the storage fails, the request is let through and the outage is logged once (docs/reference/rate-limits.md).
 */
export class FailOpenThrottlerStorage implements ThrottlerStorage {
  private readonly logger = new Logger('RateLimit');
  private failing = false;

  constructor(private readonly inner: ThrottlerStorage) {}

  async increment(
    key: string,
    ttl: number,
    limit: number,
    blockDuration: number,
    throttlerName: string,
  ): Promise<ThrottlerStorageRecord> {
    try {
      const record = await this.inner.increment(key, ttl, limit, blockDuration, throttlerName);
      if (this.failing) this.logger.log('rate-limit storage is back: limits are enforced again');
      this.failing = false;
      return record;
    } catch (error) {
      if (!this.failing) {
        this.logger.warn(
          `rate-limit storage unavailable, requests are served without limits until it returns: ${String(
            error instanceof Error ? error.message : error,
          )}`,
        );
      }
      this.failing = true;
      return { totalHits: 0, timeToExpire: Math.ceil(ttl / 1000), isBlocked: false, timeToBlockExpire: 0 };
    }
  }
}
