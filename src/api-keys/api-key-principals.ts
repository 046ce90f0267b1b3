import { Inject, Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { hash } from 'node:crypto';
import type Redis from 'ioredis';
import type { ApiKeyStore } from '../common/auth/authenticator';
import type { Principal } from '../common/auth/principal';
import { REDIS_CLIENT } from '../common/redis/redis.module';
import { addressIn, addressList, type AddressList } from '../config/cidr';
import { ApiKeysRepository } from './api-keys.repository';

/** Managed keys: `rk_` and 43 base64url characters (32 random bytes). */
export const API_KEY_PATTERN = /^rk_[A-Za-z0-9_-]{43}$/;

/** How long a key's lookup is trusted without Redis: revocation reaches every instance within it. */
const LOCAL_TTL_MS = 500;
/** With Redis, revocations are pushed to every instance at once; the lookup is trusted longer. */
const SHARED_TTL_MS = 10_000;
const MAX_ENTRIES = 10_000;
/**
 * A flood of the same unknown token must not cost a query per request (docs/reference/hardening.md).
 * Safe for seconds: a key is 32 random bytes, so its digest is never presented before it exists.
 */
const UNKNOWN_TTL_MS = 5000;
/** Kept apart from the found keys, so that a flood of unknown tokens never evicts a real one. */
const MAX_UNKNOWN = 10_000;
const CHANNEL = 'relayer:api-keys:revoked';

interface Entry {
  readonly principal: Principal;
  /** When this secret stops working: the key's expiry, or the end of a rotation's overlap. */
  readonly expiresAt: number | null;
  /** Where the key may be used from; null: anywhere. */
  readonly allowedFrom: AddressList | null;
  readonly fetchedAt: number;
}

export const digestOf = (key: string): string => hash('sha256', key, 'hex');

/** The earlier of two dates, null standing for never. */
export function earliest(a: Date | null, b: Date | null): Date | null {
  if (a === null) return b;
  if (b === null) return a;
  return a.getTime() <= b.getTime() ? a : b;
}

/** Insertion order: the oldest goes first. */
function evictOldest(map: Map<string, unknown>, max: number): void {
  if (map.size < max) return;
  const oldest = map.keys().next();
  if (!oldest.done) map.delete(oldest.value);
}

/** A cache, so that a request needs no query; `last_used_at` is written every few seconds. */
@Injectable()
export class ApiKeyPrincipals implements ApiKeyStore, OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('ApiKeys');
  private readonly entries = new Map<string, Entry>();
  /** Digests (never a token) with when they were found missing. */
  private readonly unknown = new Map<string, number>();
  private readonly lastUsed = new Map<string, Date>();
  private subscriber: Redis | null = null;
  private subscribed = false;
  private flushTimer: NodeJS.Timeout | null = null;

  constructor(
    private readonly keys: ApiKeysRepository,
    @Inject(REDIS_CLIENT) private readonly redis: Redis | null,
  ) {}

  onModuleInit(): void {
    this.flushTimer = setInterval(() => void this.flushLastUsed(), 5000);
    this.flushTimer.unref();
    if (!this.redis) return;
    const subscriber = this.redis.duplicate({ enableOfflineQueue: true });
    this.subscriber = subscriber;
    subscriber.on('message', (_channel: string, id: string) => this.forget(new Set([id])));
    // Entries fetched before a (re)subscription may have missed a revocation: start afresh.
    subscriber.on('ready', () => {
      subscriber.subscribe(CHANNEL).then(
        () => {
          this.entries.clear();
          this.subscribed = true;
        },
        (error: unknown) => this.logger.warn({ err: error }, 'cannot subscribe to key revocations'),
      );
    });
    const unsubscribed = (): void => {
      this.subscribed = false;
    };
    subscriber.on('close', unsubscribed).on('error', unsubscribed);
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.flushTimer) clearInterval(this.flushTimer);
    await this.flushLastUsed();
    this.subscriber?.disconnect();
  }

  async findPrincipal(token: string, beforeLookup?: () => void, address?: string): Promise<Principal | null> {
    if (!API_KEY_PATTERN.test(token)) return null;
    const digest = digestOf(token);
    const now = Date.now();
    const missingSince = this.unknown.get(digest);
    if (missingSince !== undefined) {
      if (now - missingSince < UNKNOWN_TTL_MS) return null;
      this.unknown.delete(digest);
    }
    const cached = this.entries.get(digest);
    // A token no key was found for here: its address's failure budget decides whether it costs a query.
    if (!cached) beforeLookup?.();
    const fresh = cached && now - cached.fetchedAt < (this.subscribed ? SHARED_TTL_MS : LOCAL_TTL_MS);
    const entry = fresh ? cached : await this.fetch(digest, now);
    if (!entry) return null;
    if (entry.expiresAt !== null && entry.expiresAt <= now) return null;
    // From elsewhere: refused as an unknown key is (docs/reference/keys-and-audit.md#41-where-a-key-may-be-used-from).
    if (entry.allowedFrom !== null && !addressIn(entry.allowedFrom, address)) return null;
    this.lastUsed.set(entry.principal.id, new Date(now));
    return entry.principal;
  }

  /** After a key was created: its digest is no longer unknown, should anyone have tried it before. */
  created(digest: string): void {
    this.unknown.delete(digest);
  }

  /** After a revocation committed: this instance at once, the others through Redis (or their TTL). */
  async revoked(ids: readonly string[]): Promise<void> {
    for (const id of ids) this.lastUsed.delete(id);
    await this.changed(ids);
  }

  /**
   * After a rotation committed: the key's new secret is no longer unknown here, and every instance
   * reads the key again, as after a revocation (docs/reference/keys-and-audit.md#42-rotation): the
   * replaced secret then ends with its overlap, itself checked at each request.
   */
  async rotated(id: string, digest: string): Promise<void> {
    this.created(digest);
    await this.changed([id]);
  }

  /** Forgets the keys here at once, and on the other instances through Redis (or within their TTL). */
  private async changed(ids: readonly string[]): Promise<void> {
    this.forget(new Set(ids));
    if (!this.redis) return;
    const redis = this.redis;
    try {
      // One message per key: what every instance subscribes to (and has since the channel exists).
      await Promise.all(ids.map((id) => redis.publish(CHANNEL, id)));
    } catch (error) {
      this.logger.warn(
        { err: error },
        'key revocation or rotation not pushed through Redis; other instances see it within their TTL',
      );
    }
  }

  private async fetch(digest: string, now: number): Promise<Entry | null> {
    const row = await this.keys.findActiveByDigest(digest);
    // The secret a rotation replaced lives until its overlap ends, and never beyond the key.
    const replaced = row !== null && row.keyDigest !== digest;
    if (!row || (replaced && row.previousKeyExpiresAt === null)) {
      this.entries.delete(digest);
      evictOldest(this.unknown, MAX_UNKNOWN);
      this.unknown.set(digest, now);
      return null;
    }
    const ends = replaced ? earliest(row.expiresAt, row.previousKeyExpiresAt) : row.expiresAt;
    const entry: Entry = {
      principal: {
        type: 'api_key',
        id: row.id,
        name: row.name,
        permissions: row.permissions,
        ...(row.relayerIds ? { relayerIds: row.relayerIds } : {}),
        secretExpiresAt: ends,
        ...(replaced && { replacedSecret: true }),
      },
      expiresAt: ends ? ends.getTime() : null,
      allowedFrom: row.allowedCidrs ? addressList(row.allowedCidrs) : null,
      fetchedAt: now,
    };
    evictOldest(this.entries, MAX_ENTRIES);
    this.entries.set(digest, entry);
    return entry;
  }

  private forget(ids: ReadonlySet<string>): void {
    for (const [digest, entry] of this.entries) {
      if (ids.has(entry.principal.id)) this.entries.delete(digest);
    }
  }

  private async flushLastUsed(): Promise<void> {
    const pending = [...this.lastUsed];
    this.lastUsed.clear();
    for (const [id, at] of pending) {
      try {
        await this.keys.touchLastUsed(id, at);
      } catch (error) {
        this.logger.warn({ err: error }, 'last_used_at not written; kept for the next round');
        if (!this.lastUsed.has(id)) this.lastUsed.set(id, at);
      }
    }
  }
}
