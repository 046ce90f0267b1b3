import type { ThrottlerStorage } from '@nestjs/throttler';

interface Window {
  hits: number;
  expiresAt: number;
  blockedUntil: number;
}

/** The Redis storage's fixed window in memory: O(1) per request, where throttler's own keeps every hit. */
export class FixedWindowThrottlerStorage implements ThrottlerStorage {
  private readonly windows = new Map<string, Window>();
  private readonly sweep: NodeJS.Timeout;

  constructor(sweepIntervalMs = 60_000) {
    this.sweep = setInterval(() => this.evictExpired(Date.now()), sweepIntervalMs);
    this.sweep.unref();
  }

  increment(key: string, ttl: number, limit: number, blockDuration: number, _throttlerName: string) {
    const now = Date.now();
    let window = this.windows.get(key);
    if (!window || (window.expiresAt <= now && window.blockedUntil <= now)) {
      window = { hits: 0, expiresAt: now + ttl, blockedUntil: 0 };
      this.windows.set(key, window);
    }
    window.hits += 1;
    if (window.blockedUntil <= now && window.hits > limit) window.blockedUntil = now + blockDuration;
    const isBlocked = window.blockedUntil > now;
    return Promise.resolve({
      totalHits: window.hits,
      timeToExpire: Math.ceil((window.expiresAt - now) / 1000),
      isBlocked,
      timeToBlockExpire: isBlocked ? Math.ceil((window.blockedUntil - now) / 1000) : 0,
    });
  }

  private evictExpired(now: number): void {
    for (const [key, window] of this.windows) {
      if (window.expiresAt <= now && window.blockedUntil <= now) this.windows.delete(key);
    }
  }
}
