import { Inject, Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { hash } from 'node:crypto';
import type Redis from 'ioredis';
import { IsNull, type Repository } from 'typeorm';
import type { ApiKeyStore } from '../common/auth/authenticator';
import type { Principal } from '../common/auth/principal';
import { REDIS_CLIENT } from '../common/redis/redis.module';
import { ApiKeyEntity } from './api-key.entity';

/** Managed keys: `rk_` and 43 base64url characters (32 random bytes). */
export const API_KEY_PATTERN = /^rk_[A-Za-z0-9_-]{43}$/;

/** How long a key's lookup is trusted without Redis: revocation reaches every instance within it. */
const LOCAL_TTL_MS = 500;
/** With Redis, revocations are pushed to every instance at once; the lookup is trusted longer. */
const SHARED_TTL_MS = 10_000;
const MAX_ENTRIES = 10_000;
const CHANNEL = 'relayer:api-keys:revoked';

interface Entry {
  readonly principal: Principal | null;
  readonly expiresAt: number | null;
  readonly fetchedAt: number;
}

export const digestOf = (key: string): string => hash('sha256', key, 'hex');

/**
 * Turns a presented managed key into its principal, through a short cache so that a request
 * needs no query: entries live LOCAL_TTL_MS (500 ms), or SHARED_TTL_MS while a Redis subscription
 * delivers revocations from every instance. Expiry is checked on every use. Also keeps
 * `last_used_at`: noted in memory per request, written at most once every few seconds per key.
 */
@Injectable()
export class ApiKeyPrincipals implements ApiKeyStore, OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('ApiKeys');
  private readonly entries = new Map<string, Entry>();
  private readonly lastUsed = new Map<string, Date>();
  private subscriber: Redis | null = null;
  private subscribed = false;
  private flushTimer: NodeJS.Timeout | null = null;

  constructor(
    @InjectRepository(ApiKeyEntity) private readonly keys: Repository<ApiKeyEntity>,
    @Inject(REDIS_CLIENT) private readonly redis: Redis | null,
  ) {}

  async onModuleInit(): Promise<void> {
    this.flushTimer = setInterval(() => void this.flushLastUsed(), 5000);
    this.flushTimer.unref();
    if (!this.redis) return;
    const subscriber = this.redis.duplicate({ enableOfflineQueue: true });
    this.subscriber = subscriber;
    subscriber.on('message', (_channel: string, id: string) => this.forget(id));
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
    subscriber.on('close', () => {
      this.subscribed = false;
    });
    subscriber.on('error', () => {
      this.subscribed = false;
    });
    await Promise.resolve();
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.flushTimer) clearInterval(this.flushTimer);
    await this.flushLastUsed();
    this.subscriber?.disconnect();
  }

  async findPrincipal(token: string): Promise<Principal | null> {
    if (!API_KEY_PATTERN.test(token)) return null;
    const digest = digestOf(token);
    const now = Date.now();
    let entry = this.entries.get(digest);
    if (!entry || now - entry.fetchedAt >= (this.subscribed ? SHARED_TTL_MS : LOCAL_TTL_MS)) {
      entry = await this.fetch(digest, now);
    }
    if (!entry.principal || (entry.expiresAt !== null && entry.expiresAt <= now)) return null;
    this.lastUsed.set(entry.principal.id, new Date(now));
    return entry.principal;
  }

  /** After a revocation committed: this instance at once, the others through Redis (or their TTL). */
  async revoked(id: string): Promise<void> {
    this.forget(id);
    this.lastUsed.delete(id);
    if (!this.redis) return;
    try {
      await this.redis.publish(CHANNEL, id);
    } catch (error) {
      this.logger.warn(
        { err: error },
        'revocation not pushed through Redis; other instances see it within their TTL',
      );
    }
  }

  private async fetch(digest: string, now: number): Promise<Entry> {
    const row = await this.keys.findOneBy({ keyDigest: digest, revokedAt: IsNull() });
    const entry: Entry = {
      principal: row ? { type: 'api_key', id: row.id, name: row.name, permissions: row.permissions } : null,
      expiresAt: row?.expiresAt ? row.expiresAt.getTime() : null,
      fetchedAt: now,
    };
    if (this.entries.size >= MAX_ENTRIES) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.set(digest, entry);
    return entry;
  }

  private forget(id: string): void {
    for (const [digest, entry] of this.entries) {
      if (entry.principal?.id === id) this.entries.delete(digest);
    }
  }

  private async flushLastUsed(): Promise<void> {
    const pending = [...this.lastUsed];
    this.lastUsed.clear();
    for (const [id, at] of pending) {
      try {
        await this.keys
          .createQueryBuilder()
          .update(ApiKeyEntity)
          .set({ lastUsedAt: at })
          .where('id = :id AND (last_used_at IS NULL OR last_used_at < :at)', { id, at })
          .execute();
      } catch (error) {
        this.logger.warn({ err: error }, 'last_used_at not written; kept for the next round');
        if (!this.lastUsed.has(id)) this.lastUsed.set(id, at);
      }
    }
  }
}
