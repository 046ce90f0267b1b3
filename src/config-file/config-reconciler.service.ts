import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import path from 'node:path';
import type { DataSource, QueryRunner } from 'typeorm';
import { CONFIG_FILE_CONTENT, type ConfigFile } from '../catalogue/catalogue.module';
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
import {
  ConfigReconcileError,
  planChanges,
  underEntry,
  type EntryKind,
  type PlannedChange,
} from './config-plan';

const LOCK_NAME = 'relayer_service_config_reconcile';
const RETRY_MS = 2000;

/**
 * Applies the file's relayers and notifications at every start, after the migrations, through
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

  /** Once across instances: under a named lock on MySQL (SQLite has one writer); a create another instance made is skipped. */
  async reconcile(): Promise<void> {
    const runner = this.dataSource.options.type === 'mysql' ? this.dataSource.createQueryRunner() : null;
    try {
      if (runner) await takeLock(runner);
      const rows = await this.dataSource.manager.find(ConfigEntryEntity);
      const plan = await planChanges(this.file, {
        applied: new Map(rows.map((row) => [`${row.kind}:${row.id}`, row.digest])),
        find: (kind, id) => this.storedState(kind, id),
      });
      const name = path.basename(this.file.file);
      for (const entry of plan.removed) this.logger.warn(`${entry} is no longer in ${name}: kept as it is`);
      await RequestContext.runAs({ type: 'config', id: null, name }, async () => {
        for (const change of plan.changes) await this.apply(change);
      });
      if (plan.changes.length > 0) this.logger.log(`applied ${plan.changes.length} entries of ${name}`);
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
      // Created meanwhile by another instance (on Galera, GET_LOCK holds on one node only): done.
      const createdElsewhere =
        change.action === 'create' && (await this.storedState(change.kind, change.id)) !== null;
      if (!createdElsewhere) {
        const refused = error instanceof ValidationError ? [error.problems].flat() : refusal(error);
        if (refused === null) throw error;
        const problems = refused.map((problem) => underEntry(change.at, problem));
        throw new ConfigReconcileError(this.file.file, problems.join('; '));
      }
    }
    const row = { kind: change.kind, id: change.id, digest: change.digest, appliedAt: new Date() };
    await this.dataSource.manager.upsert(ConfigEntryEntity, row, ['kind', 'id']);
  }

  private async applyNotification({ id, action, body }: PlannedChange): Promise<void> {
    if (action === 'create') {
      await this.notifications.create(checkDto(CreateNotificationDto, body));
      return;
    }
    const patch = { type: body.type, url: body.url, signing_key: body.signing_key ?? '' };
    await this.notifications.update(id, checkDto(UpdateNotificationDto, patch));
  }

  /** An update sends every field a PATCH may change, so the stored relayer becomes the file's entry. */
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

  private async storedState(kind: EntryKind, id: string): Promise<Record<string, unknown> | null> {
    if (kind === 'notification') return (await this.notifications.exists(id)) ? {} : null;
    const relayer = await this.relayers.findEntity(id);
    return (
      relayer && { network: relayer.network, network_type: relayer.networkType, signer_id: relayer.signerId }
    );
  }
}

/** GET_LOCK in steps of one second: a statement never waits longer than the service's statement bound. */
async function takeLock(runner: QueryRunner): Promise<void> {
  for (let attempt = 0; attempt < 120; attempt++) {
    const rows = (await runner.query('SELECT GET_LOCK(?, 1) AS taken', [LOCK_NAME])) as { taken: unknown }[];
    if (Number(rows[0]?.taken) === 1) return;
  }
  throw new Error('could not take the configuration lock within 120 s');
}

/** The message of a refusal the API would answer with a 4xx (a conflict, a missing reference), else null. */
function refusal(error: unknown): string[] | null {
  const status = error instanceof Error && 'status' in error ? error.status : undefined;
  return typeof status === 'number' && status < 500 && error instanceof Error ? [error.message] : null;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
