import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import path from 'node:path';
import { CatalogueConfigError, CONFIG_FILE_CONTENT, type ConfigFile } from './config-file-loader';
import { ValidationError } from '../common/errors/domain-errors';
import { RequestContext } from '../common/http/request-context';
import { validateBody } from '../common/validation/dto-validation.pipe';
import { DatabaseLifecycle } from '../database/database-lifecycle';
import { DatabaseDialect } from '../database/dialects/database-dialect';
import { AlertChannelCreateRules, AlertChannelPatchRules, AlertChannelsService } from '../alert-channels';
import { NotificationCreateRules, NotificationPatchRules, NotificationsService } from '../notifications';
import { RelayerCreateRules, RelayerPatchRules, RelayersService } from '../relayers';
import { ConfigEntriesRepository } from './config-entries.repository';
import { describePlan, planChanges, underEntry } from './config-plan';
import type { EntryKind, PlannedChange, RecordedEntry } from './config-plan';

const RETRY_MS = 2000;

/** What a PATCH writes for a field the file no longer has; absent: the field is left as it is. */
const RESET: Readonly<Record<EntryKind, Readonly<Record<string, unknown>>>> = {
  relayer: { notification_id: null, custom_rpc_urls: null, policies: null },
  notification: { signing_key: '' },
  alert_channel: { events: null, relayer_ids: null },
};

/**
 * Applies the file's relayers, notifications and alert channels at every start, after the migrations,
 * through the services the API calls, so validation, audit and events are the API's; the actor is the file.
 */
@Injectable()
export class ConfigReconciler implements OnApplicationBootstrap {
  private readonly logger = new Logger('ConfigFile');

  constructor(
    @Inject(CONFIG_FILE_CONTENT) private readonly file: ConfigFile,
    private readonly relayers: RelayersService,
    private readonly notifications: NotificationsService,
    private readonly relayerCreate: RelayerCreateRules,
    private readonly relayerPatch: RelayerPatchRules,
    @Inject(NotificationCreateRules)
    private readonly notificationCreate: InstanceType<typeof NotificationCreateRules>,
    @Inject(NotificationPatchRules)
    private readonly notificationPatch: InstanceType<typeof NotificationPatchRules>,
    private readonly alertChannels: AlertChannelsService,
    private readonly alertChannelCreate: AlertChannelCreateRules,
    private readonly alertChannelPatch: AlertChannelPatchRules,
    private readonly lifecycle: DatabaseLifecycle,
    private readonly dialect: DatabaseDialect,
    private readonly entries: ConfigEntriesRepository,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (this.lifecycle.isReady) return this.reconcile();
    // The database is away at start (MySQL): reconcile once it is there.
    const retry = setInterval(() => {
      if (!this.lifecycle.isReady) return;
      clearInterval(retry);
      this.reconcile().catch((error: unknown) =>
        this.logger.error(error instanceof Error ? error.message : error),
      );
    }, RETRY_MS);
    retry.unref();
  }

  /** Once across instances: under a named lock on MySQL (SQLite has one writer). */
  reconcile(): Promise<void> {
    return this.dialect.exclusively(async () => {
      const rows = await this.entries.findAll();
      const plan = await planChanges(this.file, {
        applied: new Map(rows.map(({ kind, id, digest, fields }) => [`${kind}:${id}`, { digest, fields }])),
        find: (kind, id) => this.storedState(kind, id),
      });
      for (const line of describePlan(this.file.file, plan)) this.logger.log(line);
      const actor = { type: 'config', id: null, name: path.basename(this.file.file) };
      await RequestContext.runAs(actor, async () => {
        for (const change of plan.changes) await this.apply(change);
      });
      for (const entry of plan.recorded) await this.record(entry);
    });
  }

  private async apply(change: PlannedChange): Promise<void> {
    try {
      await this.write(change);
    } catch (error) {
      const refused = refusal(error);
      // Unless another instance created it meanwhile (on Galera, GET_LOCK holds on one node only).
      if (change.action !== 'create' || (await this.storedState(change.kind, change.id)) === null) {
        if (refused === null) throw error;
        const problems = refused.map((problem) => underEntry(change.at, problem));
        throw new CatalogueConfigError(`CONFIG_FILE ${this.file.file}: ${problems.join('; ')}`);
      }
    }
    await this.record(change);
  }

  private async record({ kind, id, digest, fields }: RecordedEntry): Promise<void> {
    await this.entries.put({ kind, id, digest, fields, appliedAt: new Date() });
  }

  /**
   * A create as POST; an update is a PATCH of the fields the file changed since last applied (a field
   * the file no longer has is reset, as an absent field of a create would be), so the others keep
   * what the API made of them.
   */
  private async write({ kind, id, action, body, written }: PlannedChange): Promise<unknown> {
    const patch: Record<string, unknown> = {};
    for (const field of written) {
      const value = body[field] ?? RESET[kind][field];
      if (value !== undefined) patch[field] = value;
    }
    if (kind === 'notification') {
      if (action === 'create') {
        return this.notifications.create(await validateBody(this.notificationCreate, body));
      }
      return this.notifications.update(id, await validateBody(this.notificationPatch, patch));
    }
    if (kind === 'alert_channel') {
      if (action === 'create') {
        return this.alertChannels.create(await validateBody(this.alertChannelCreate, body));
      }
      return this.alertChannels.update(id, await validateBody(this.alertChannelPatch, patch));
    }
    if (action === 'create') return this.relayers.create(await validateBody(this.relayerCreate, body));
    const params = { relayer_id: id };
    return this.relayers.update(id, await validateBody(this.relayerPatch, patch, params));
  }

  private async storedState(kind: EntryKind, id: string): Promise<Record<string, unknown> | null> {
    if (kind === 'notification') return (await this.notifications.exists(id)) ? {} : null;
    if (kind === 'alert_channel') {
      const channel = await this.alertChannels.find(id);
      return channel && { type: channel.type };
    }
    const relayer = await this.relayers.findEntity(id);
    return (
      relayer && { network: relayer.network, network_type: relayer.networkType, signer_id: relayer.signerId }
    );
  }
}

/** The problems of a refusal the API would answer with a 4xx (invalid, a conflict, a missing reference), else null. */
function refusal(error: unknown): string[] | null {
  if (error instanceof ValidationError) return [error.problems].flat();
  const status = error instanceof Error && 'status' in error ? error.status : undefined;
  return typeof status === 'number' && status < 500 && error instanceof Error ? [error.message] : null;
}
