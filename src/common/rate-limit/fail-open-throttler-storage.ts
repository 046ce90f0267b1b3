import { Logger } from '@nestjs/common';
import type { ThrottlerStorage } from '@nestjs/throttler';

/** A Redis outage lets requests through rather than take the API down (docs/reference/rate-limits.md). */
export class FailOpenThrottlerStorage implements ThrottlerStorage {
  private readonly logger = new Logger('RateLimit');
  private failing = false;

  constructor(private readonly inner: ThrottlerStorage) {}

  async increment(key: string, ttl: number, limit: number, blockDuration: number, throttlerName: string) {
    try {
      const record = await this.inner.increment(key, ttl, limit, blockDuration, throttlerName);
      if (this.failing) this.logger.log('rate-limit storage is back: limits are enforced again');
      this.failing = false;
      return record;
    } catch (error) {
      if (!this.failing) {
        const reason = String(error instanceof Error ? error.message : error);
        this.logger.warn(
          `rate-limit storage unavailable, requests are served without limits until it returns: ${reason}`,
        );
      }
      this.failing = true;
      return { totalHits: 0, timeToExpire: Math.ceil(ttl / 1000), isBlocked: false, timeToBlockExpire: 0 };
    }
  }
}
