import { Inject, Injectable } from '@nestjs/common';
import {
  InjectThrottlerStorage,
  normalizeIp,
  ThrottlerException,
  type ThrottlerStorage,
} from '@nestjs/throttler';
import type { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/app-config.module';
import { rateLimitWindow } from './rate-limit-window';

/** Addresses this instance remembers as refused: bounded memory whatever the number of addresses. */
const MAX_REFUSED = 10_000;

/** A 429 of the failed-authentication budget: the filter answers it as every 429, with its Retry-After. */
export class FailedAuthenticationsThrottled extends ThrottlerException {
  constructor(readonly retryAfterSeconds: number) {
    super();
  }
}

/**
 * docs/reference/rate-limits.md#17-failed-authentications: the failed authentications of one client
 * address count against a budget of their own, the size of a key's, in the rate limit's storage (shared
 * through Redis, fail open as it is). Past it the address is answered 429, and a token no key has
 * been found for is refused before it costs a database lookup.
 */
@Injectable()
export class FailedAuthentications {
  private readonly ttl: number;
  private readonly limit: number;
  private readonly keyPrefix: string;
  /** Until when (ms) each address's budget is spent, from the storage's answers: checked without a round trip. */
  private readonly refusedUntil = new Map<string, number>();

  constructor(
    @InjectThrottlerStorage() private readonly storage: ThrottlerStorage,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    ({ ttl: this.ttl, limit: this.limit } = rateLimitWindow(config.rateLimit));
    this.keyPrefix = `${config.rateLimit.keyPrefix}:auth-failures`;
  }

  /** Before a token is looked up: refuses an address whose budget is spent (as this instance knows). */
  assertWithinBudget(address: string): void {
    const until = this.refusedUntil.get(address);
    if (until === undefined) return;
    const left = until - Date.now();
    if (left > 0) throw new FailedAuthenticationsThrottled(Math.ceil(left / 1000));
    this.refusedUntil.delete(address);
  }

  /** After an authentication failed: counts it, and refuses it (429 instead of 401) past the budget. */
  async record(address: string): Promise<void> {
    this.assertWithinBudget(address);
    const { totalHits, timeToExpire, isBlocked, timeToBlockExpire } = await this.storage.increment(
      `${this.keyPrefix}:${address}`,
      this.ttl,
      this.limit,
      this.ttl,
      'auth-failures',
    );
    if (isBlocked) throw new FailedAuthenticationsThrottled(this.refuse(address, timeToBlockExpire));
    // The budget is spent: the next failure in this window is refused before its token is looked up.
    if (totalHits >= this.limit) this.refuse(address, timeToExpire);
  }

  /** Remembers the address as refused for `seconds` (at least one), and answers them. */
  private refuse(address: string, seconds: number): number {
    const whole = Math.max(1, seconds);
    if (this.refusedUntil.size >= MAX_REFUSED) this.forgetOldest();
    this.refusedUntil.set(address, Date.now() + whole * 1000);
    return whole;
  }

  /** Insertion order: the oldest goes first (forgotten while refused, it costs one more lookup). */
  private forgetOldest(): void {
    const oldest = this.refusedUntil.keys().next();
    if (!oldest.done) this.refusedUntil.delete(oldest.value);
  }
}

/** The address a budget is kept for: the socket's as Express reports it, IPv6 by its /64 (one host's). */
export function clientAddress(ip: string | undefined): string {
  return ip === undefined ? 'unknown' : normalizeIp(ip, 64);
}
