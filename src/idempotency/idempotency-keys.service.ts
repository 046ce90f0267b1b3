import { Inject, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { RequestDeadline } from '../common/http/request-deadline';
import { PollingService } from '../common/scheduling/polling.service';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/app-config.module';
import { DatabaseLifecycle } from '../database/database-lifecycle';
import { Transactions, type Tx } from '../database/transactions';
import { IdempotencyKeyEntity } from './idempotency-key.entity';
import { IdempotencyKeyInProgressError, IdempotencyKeyReusedError } from './idempotency.errors';
import { IdempotencyKeysRepository, type ClaimRef, type StoredAnswer } from './idempotency-keys.repository';

const RETENTION_MS = 24 * 3600 * 1000;
const SWEEP_EVERY_MS = 10 * 60 * 1000;
const SWEEP_BATCH = 1000;
/** Beyond REQUEST_TIMEOUT_MS, how long a claim whose request never finished still blocks its key. */
const LEASE_MARGIN_MS = 10_000;
const MAX_WAIT_MS = 2000;
const POLL_MS = 50;

export interface IdempotentRequest {
  /** The principal's id. */
  readonly scope: string;
  readonly key: string;
  /** e.g. `POST /api/v1/relayers` */
  readonly request: string;
  readonly requestDigest: string;
}

export type Admission =
  | { readonly kind: 'run'; readonly claim: ClaimRef }
  | { readonly kind: 'replay'; readonly answer: StoredAnswer };

/** docs/reference/safe-writes.md; its rounds only keep the table small: an expired key is unused already. */
@Injectable()
export class IdempotencyKeysService extends PollingService {
  private readonly leaseMs: number;
  private readonly waitMs: number;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly keys: IdempotencyKeysRepository,
    private readonly transactions: Transactions,
    database: DatabaseLifecycle,
  ) {
    super('IdempotencyKeys', SWEEP_EVERY_MS, database);
    this.leaseMs = config.http.requestTimeoutMs + LEASE_MARGIN_MS;
    // Never so long that the request's own timeout (a 504) comes first.
    this.waitMs = Math.min(MAX_WAIT_MS, Math.floor(config.http.requestTimeoutMs / 2));
  }

  async admit(request: IdempotentRequest): Promise<Admission> {
    const claim = await this.claim(request, null);
    if (claim) return { kind: 'run', claim };
    const waitUntil = Date.now() + this.waitMs;
    for (;;) {
      const row = await this.keys.find(request.scope, request.key);
      const now = Date.now();
      const expired = row !== null && row.createdAt.getTime() <= now - RETENTION_MS;
      if (row !== null && !expired) {
        if (row.requestDigest !== request.requestDigest) throw new IdempotencyKeyReusedError();
        if (row.state === 'done') return { kind: 'replay', answer: storedAnswer(row) };
      }
      const abandoned = row !== null && row.createdAt.getTime() <= now - this.leaseMs;
      if (row === null || expired || abandoned) {
        // Released (a 5xx), expired or abandoned: this request runs, unless another one was quicker.
        const taken = await this.claim(request, row?.claimToken ?? null);
        if (taken) return { kind: 'run', claim: taken };
      }
      if (Date.now() >= waitUntil) throw new IdempotencyKeyInProgressError();
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  }

  /** Stores the answer (2xx, or a 4xx: the request was processed) for the key's repeats. */
  async complete(claim: ClaimRef, answer: StoredAnswer): Promise<void> {
    try {
      const stored = await this.write((tx) => this.keys.complete(claim, answer, tx));
      if (!stored) this.logger.warn('an idempotency key was taken over before its answer was stored');
    } catch (error) {
      // The change is made and answered; only its repeats get 409 until the lease runs out.
      this.logger.warn({ err: error }, 'the answer of an idempotent request could not be stored');
    }
  }

  async release(claim: ClaimRef): Promise<void> {
    try {
      await this.write((tx) => this.keys.release(claim, tx));
    } catch (error) {
      this.logger.warn(
        { err: error },
        'an idempotency key could not be released: it frees itself after its lease',
      );
    }
  }

  protected async round(): Promise<void> {
    const before = new Date(Date.now() - RETENTION_MS);
    let removed = 0;
    for (;;) {
      const batch = await this.write((tx) => this.keys.deleteCreatedBefore(before, SWEEP_BATCH, tx));
      removed += batch;
      if (batch < SWEEP_BATCH || this.loop.isStopped) break;
    }
    if (removed > 0) this.logger.log(`removed ${removed} idempotency keys older than 24 hours`);
  }

  /** A new claim, or the takeover of one that ran out. */
  private async claim(request: IdempotentRequest, previousToken: string | null): Promise<ClaimRef | null> {
    const row = Object.assign(new IdempotencyKeyEntity(), {
      ...request,
      state: 'in_flight',
      claimToken: randomUUID(),
      responseStatus: null,
      responseBody: null,
      responseHeaders: null,
      createdAt: new Date(),
    } satisfies IdempotencyKeyEntity);
    const claimed = await this.write((tx) =>
      previousToken === null ? this.keys.insertNew(row, tx) : this.keys.takeOver(previousToken, row, tx),
    );
    return claimed ? { scope: row.scope, key: row.key, token: row.claimToken } : null;
  }

  /** Outside the request's deadline: not the request's change, and a claim must be freed even after a 504. */
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
