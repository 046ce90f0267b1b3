import type { AppConfig } from '../../config/app-config';

/** RATE_LIMIT_BURST_SIZE requests per BURST / REQUESTS_PER_SECOND seconds (docs/reference/rate-limits.md). */
export function rateLimitWindow({ burstSize, requestsPerSecond }: AppConfig['rateLimit']): {
  ttl: number;
  limit: number;
} {
  return { ttl: Math.max(1, Math.round((burstSize / requestsPerSecond) * 1000)), limit: burstSize };
}
