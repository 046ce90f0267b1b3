import { Inject, Injectable, Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { RequestDeadline } from '../common/http/request-deadline';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { Transactions, type Tx } from '../database/transactions';
import { IdempotencyKeyEntity } from './idempotency-key.entity';
import { IdempotencyKeyInProgressError, IdempotencyKeyReusedError } from './idempotency.errors';
import { IdempotencyKeysRepository, type ClaimRef, type StoredAnswer } from './idempotency-keys.repository';

/** Keys and their answers are kept this long (docs/reference/safe-writes.md). */
export const IDEMPOTENCY_KEY_RETENTION_MS = 24 * 3600 * 1000;
/** Beyond REQUEST_TIMEOUT_MS, how long a claim whose request never finished still blocks its key. */
const LEASE_MARGIN_MS = 10_000;
/** How long a repeat waits for the first request to finish before answering 409. */
const MAX_WAIT_MS = 2000;
const POLL_MS = 50;

/** One request with an Idempotency-Key, as far as the key is concerned. */
export interface IdempotentRequest {
  /** The principal's id. */
  readonly scope: string;
  readonly key: string;
  /** `POST /api/v1/relayers` */
  readonly request: string;
  readonly digest: string;
}

/** Run the request (this one holds the key now), or answer the stored answer again. */
export type Admission =
  | { readonly kind: 'run'; readonly claim: ClaimRef }
  | { readonly kind: 'replay'; readonly answer: StoredAnswer };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Idempotency keys (docs/reference/safe-writes.md): the first request with a key claims it and, once answered,
 * leaves its answer for 24 hours; a repeat with the same request gets that answer again, one with
 * another request a 422. A repeat that comes while the first is still running waits for it a
 * little (up to 2 s, polling the row), so that racing retries see the one answer; it gets 409 only
 * when the first takes longer. A claim is never left to block its key for good: a 5xx releases it
 * at once, and the claim of a request that never finished (its process died) can be taken over
 * once REQUEST_TIMEOUT_MS and a margin have passed.
 */
@Injectable()
export class IdempotencyKeysService {
  private readonly logger = new Logger('IdempotencyKeys');
  private readonly leaseMs: number;
  private readonly waitMs: number;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly keys: IdempotencyKeysRepository,
    private readonly transactions: Transactions,
  ) {
    this.leaseMs = config.http.requestTimeoutMs + LEASE_MARGIN_MS;
    // Never so long that the request's own timeout (a 504) comes first.
    this.waitMs = Math.min(MAX_WAIT_MS, Math.floor(config.http.requestTimeoutMs / 2));
  }

  /** Claims the key for this request, or finds the answer to give instead; 422 or 409 otherwise. */
  async admit(request: IdempotentRequest): Promise<Admission> {
    const claim = await this.claim(request, null);
    if (claim) return { kind: 'run', claim };
    const waitUntil = Date.now() + this.waitMs;
    for (;;) {
      const row = await this.keys.find(request.scope, request.key);
      const now = Date.now();
      const expired = row !== null && row.createdAt.getTime() <= now - IDEMPOTENCY_KEY_RETENTION_MS;
      if (row !== null && !expired) {
        if (row.requestDigest !== request.digest) throw new IdempotencyKeyReusedError();
        if (row.state === 'done') return { kind: 'replay', answer: storedAnswer(row) };
      }
      const abandoned = row !== null && row.createdAt.getTime() <= now - this.leaseMs;
      if (row === null || expired || abandoned) {
        // Released (a 5xx), expired or abandoned: this request runs, unless another one was quicker.
        const taken = await this.claim(request, row?.claimToken ?? null);
        if (taken) return { kind: 'run', claim: taken };
      }
      if (Date.now() >= waitUntil) throw new IdempotencyKeyInProgressError();
      await sleep(POLL_MS);
    }
  }

  /** Stores the answer (2xx, or a 4xx: the request was processed) for the key's repeats. */
  async complete(claim: ClaimRef, answer: StoredAnswer): Promise<void> {
    try {
      const stored = await this.write((tx) => this.keys.complete(tx.manager, claim, answer));
      if (!stored) this.logger.warn('an idempotency key was taken over before its answer was stored');
    } catch (error) {
      // The change is made and its answer goes out; only its repeats are affected: 409 until the
      // lease runs out, then they run again.
      this.logger.warn({ err: error }, 'the answer of an idempotent request could not be stored');
    }
  }

  /** Frees the key after a 5xx (or an answer that is not stored), so that a retry runs again. */
  async release(claim: ClaimRef): Promise<void> {
    try {
      await this.write((tx) => this.keys.release(tx.manager, claim));
    } catch (error) {
      this.logger.warn(
        { err: error },
        'an idempotency key could not be released: it frees itself after its lease',
      );
    }
  }

  /** A new claim (previousToken null) or the takeover of one that ran out; null when another request holds it. */
  private async claim(request: IdempotentRequest, previousToken: string | null): Promise<ClaimRef | null> {
    const row = Object.assign(new IdempotencyKeyEntity(), {
      scope: request.scope,
      key: request.key,
      request: request.request,
      requestDigest: request.digest,
      state: 'in_flight',
      claimToken: randomUUID(),
      responseStatus: null,
      responseBody: null,
      responseHeaders: null,
      createdAt: new Date(),
    } satisfies IdempotencyKeyEntity);
    const claimed = await this.write((tx) =>
      previousToken === null
        ? this.keys.insertClaim(tx.manager, row)
        : this.keys.takeOver(tx.manager, previousToken, row),
    );
    return claimed ? { scope: row.scope, key: row.key, token: row.claimToken } : null;
  }

  /**
   * A write of the key's own bookkeeping, outside the request's deadline: it is not the change the
   * request makes, so it must neither count as that change's commit (which would keep the 504
   * from being answered) nor be refused once the 504 was answered (the claim must still be freed).
   */
  private write<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    return RequestDeadline.outside(() => this.transactions.run(work));
  }
}

function storedAnswer(row: IdempotencyKeyEntity): StoredAnswer {
  return {
    status: row.responseStatus ?? 500,
    body: row.responseBody ?? '',
    headers: row.responseHeaders ? (JSON.parse(row.responseHeaders) as Record<string, string>) : {},
  };
}
