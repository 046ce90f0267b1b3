import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { createHash } from 'node:crypto';
import path from 'node:path';
import type { DataSource, QueryRunner } from 'typeorm';
import { CONFIG_FILE_CONTENT } from '../catalogue/catalogue.module';
import type { ConfigFile } from '../catalogue/catalogue.loader';
import { ValidationError } from '../common/errors/domain-errors';
import { RequestContext } from '../common/http/request-context';
import { checkDto } from '../common/validation/validate-dto';
import { DatabaseLifecycle } from '../database/database-lifecycle.service';
import {
  CreateNotificationDto,
  NotificationsService,
  UpdateNotificationDto,
} from '../notifications/notifications.service';
import { CreateRelayerDto, RelayersService, UpdateRelayerDto } from '../relayers/relayers.service';
import { ConfigEntryEntity } from './config-entry.entity';

type Kind = 'relayer' | 'notification';

/** One change reconciliation makes (docs/reference/config-file.md#2-reconciliation-at-every-start). */
export interface PlannedChange {
  readonly kind: Kind;
  readonly id: string;
  readonly action: 'create' | 'update';
  /** Where the entry is in the file: `relayers[2]`. */
  readonly at: string;
  readonly body: Readonly<Record<string, unknown>>;
  readonly digest: string;
}

export interface Plan {
  readonly changes: readonly PlannedChange[];
  /** Applied entries that are no longer in the file (kept). */
  readonly removed: readonly string[];
}

const IMMUTABLE = ['network', 'network_type', 'signer_id'] as const;
const LOCK_NAME = 'relayer_service_config_reconcile';
const RETRY_MS = 2000;

/** Refused by the start: names the entry, never a secret. */
export class ConfigReconcileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigReconcileError';
  }
}

/**
 * Applies the file's relayers and notifications at every start (after the migrations), through
 * the services the API calls, so validation, audit and events are the API's; the actor is the file.
 */
@Injectable()
export class ConfigReconciler implements OnApplicationBootstrap {
  private readonly logger = new Logger('ConfigFile');

  constructor(
    @Inject(CONFIG_FILE_CONTENT) private readonly file: ConfigFile,
    private readonly relayers: RelayersService,
    private readonly notifications: NotificationsService,
    private readonly lifecycle: DatabaseLifecycle,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (this.lifecycle.isReady) return this.reconcile();
    // The database is away at start (MySQL): reconcile once it is there.
    const retry = setInterval(() => {
      if (!this.lifecycle.isReady) return;
      clearInterval(retry);
      this.reconcile().catch((error: unknown) => this.logger.error(describe(error)));
    }, RETRY_MS);
    retry.unref();
  }

  /** What a start would create and update, changing nothing. */
  async plan(): Promise<Plan> {
    const applied = new Map(
      (await this.dataSource.manager.find(ConfigEntryEntity)).map((row) => [
        `${row.kind}:${row.id}`,
        row.digest,
      ]),
    );
    const changes: PlannedChange[] = [];
    const seen = new Set<string>();
    const entries = [
      ...this.file.notifications.map((entry, i) => ({
        kind: 'notification' as const,
        id: entry.id,
        at: `notifications[${i}]`,
        body: { ...entry },
      })),
      ...this.file.relayers.map((entry, i) => ({
        kind: 'relayer' as const,
        id: entry.id,
        at: `relayers[${i}]`,
        body: entry.body,
      })),
    ];
    for (const entry of entries) {
      seen.add(`${entry.kind}:${entry.id}`);
      const digest = digestOf(entry.body);
      const stored = await this.storedState(entry.kind, entry.id);
      if (stored === null) changes.push({ ...entry, action: 'create', digest });
      else if (applied.get(`${entry.kind}:${entry.id}`) !== digest) {
        for (const field of IMMUTABLE) {
          if (entry.kind === 'relayer' && field in entry.body && entry.body[field] !== stored[field]) {
            this.fail(
              `${entry.at} (relayer '${entry.id}'): ${field} cannot change (stored ${JSON.stringify(stored[field])}); ` +
                'delete the relayer through the API first',
            );
          }
        }
        changes.push({ ...entry, action: 'update', digest });
      }
    }
    const removed = [...applied.keys()].filter((key) => !seen.has(key));
    return { changes, removed };
  }

  /** Once across instances: under a named lock on MySQL (SQLite has one writer). */
  async reconcile(): Promise<void> {
    const runner = this.dataSource.options.type === 'mysql' ? this.dataSource.createQueryRunner() : null;
    try {
      if (runner) await takeLock(runner);
      const plan = await this.plan();
      for (const key of plan.removed) {
        this.logger.warn(`${key.replace(':', " '")}' is no longer in ${this.fileName}: kept as it is`);
      }
      const actor = { type: 'config', id: null, name: this.fileName };
      await RequestContext.runAs(actor, async () => {
        for (const change of plan.changes) await this.apply(change);
      });
      if (plan.changes.length > 0)
        this.logger.log(`applied ${plan.changes.length} entries of ${this.fileName}`);
    } finally {
      if (runner) {
        await runner.query('SELECT RELEASE_LOCK(?)', [LOCK_NAME]).catch(() => undefined);
        await runner.release();
      }
    }
  }

  private async apply(change: PlannedChange): Promise<void> {
    try {
      if (change.kind === 'notification') await this.applyNotification(change);
      else await this.applyRelayer(change);
    } catch (error) {
      if (!(error instanceof ValidationError) && !isDomainError(error)) throw error;
      const problems = error instanceof ValidationError ? [error.problems].flat() : [error.message];
      this.fail(
        problems
          .map((problem) => `${change.at}${/^[a-z_]+[ .[]/.test(problem) ? '.' : ': '}${problem}`)
          .join('; '),
      );
    }
    await this.dataSource.manager.upsert(
      ConfigEntryEntity,
      { kind: change.kind, id: change.id, digest: change.digest, appliedAt: new Date() },
      ['kind', 'id'],
    );
  }

  private async applyNotification({ id, action, body }: PlannedChange): Promise<void> {
    if (action === 'create') {
      await this.notifications.create(checkDto(CreateNotificationDto, body));
      return;
    }
    const patch = { type: body.type, url: body.url, signing_key: body.signing_key ?? '' };
    await this.notifications.update(id, checkDto(UpdateNotificationDto, patch));
  }

  private async applyRelayer({ id, action, body }: PlannedChange): Promise<void> {
    if (action === 'create') {
      await this.relayers.create(checkDto(CreateRelayerDto, body));
      return;
    }
    const patch = {
      name: body.name,
      paused: body.paused,
      notification_id: body.notification_id ?? null,
      custom_rpc_urls: body.custom_rpc_urls ?? null,
      policies: body.policies ?? null,
    };
    await this.relayers.update(id, checkDto(UpdateRelayerDto, patch));
  }

  private async storedState(kind: Kind, id: string): Promise<Record<string, unknown> | null> {
    if (kind === 'notification') return (await this.notifications.exists(id)) ? {} : null;
    const relayer = await this.relayers.findEntity(id);
    return (
      relayer && { network: relayer.network, network_type: relayer.networkType, signer_id: relayer.signerId }
    );
  }

  private get fileName(): string {
    return path.basename(this.file.file);
  }

  private fail(problem: string): never {
    throw new ConfigReconcileError(`CONFIG_FILE ${this.file.file}: ${problem}`);
  }
}

/** GET_LOCK in steps of one second: a statement never waits longer than the service's statement bound. */
async function takeLock(runner: QueryRunner): Promise<void> {
  for (let attempt = 0; attempt < 120; attempt++) {
    const rows = (await runner.query('SELECT GET_LOCK(?, 1) AS taken', [LOCK_NAME])) as { taken: unknown }[];
    const row = rows[0];
    if (Number(row?.taken) === 1) return;
  }
  throw new Error('could not take the configuration lock within 120 s');
}

/** Keys sorted at every level, so that reordering a file's keys is no change. */
export function digestOf(value: unknown): string {
  return createHash('sha256').update(canonical(value)).digest('hex');
}

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value).filter(([, item]) => item !== undefined);
    return `{${entries
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([key, item]) => `${JSON.stringify(key)}:${canonical(item)}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}

function isDomainError(error: unknown): error is Error & { status: number } {
  return (
    error instanceof Error && 'status' in error && typeof error.status === 'number' && error.status < 500
  );
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
