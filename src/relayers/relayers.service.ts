import { Inject, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { Catalogue } from '../catalogue/catalogue.service';
import { SignersService } from '../signers/signers.service';
import type { NetworkType } from '../catalogue/catalogue.service';
import {
  PreconditionFailedError,
  ServiceUnavailableError,
  ValidationError,
} from '../common/errors/domain-errors';
import { entityTag, type IfMatch, type Tagged } from '../common/http/etag';
import { stringifyJson } from '../common/http/json';
import { Page, PageQueryDto } from '../common/http/page';
import type { Checked } from '../common/validation/validate-dto';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { Transactions, type Tx } from '../database/transactions';
import { NotificationsService } from '../notifications/notifications.service';
import { MAX_RPC_URLS, RpcConfigDto, resolveRpcUrlList } from '../common/validation/rpc-url-list';
import { CreateRelayerDto, RelayerResponse, UpdateRelayerDto } from './dto/relayer.dto';
import { mergePolicies, validatePolicies, type Policies } from './policies/policy-validation';
import {
  PATCHABLE_FIELDS,
  RELAYER_EVENTS,
  type PatchableField,
  type RelayerEvent,
  type RelayerStateChangedEvent,
  type RelayerUpdatedEvent,
} from './relayer-events';
import { toRelayerResponse, toTaggedRelayer } from './relayer.mapper';
import { RelayerEntity, type DisabledReason, type StoredRpcUrl } from './relayer.entity';
import { RelayersRepository, type RelayerChanges } from './relayers.repository';
import { relayerNotFound, duplicateRelayer, signerNotFound, notificationNotFound } from './relayers.errors';

/** For the features that reference this one. */
export { relayerNotFound } from './relayers.errors';
/** For the configuration file's reconciliation (src/config-file), which creates and updates as the API does. */
export { CreateRelayerDto, UpdateRelayerDto } from './dto/relayer.dto';

export type { DisabledReason, RelayerEntity } from './relayer.entity';

const MAX_UPDATE_ATTEMPTS = 200;

/** The sorted names of the PATCH-able fields whose values differ. */
function changedFields(current: RelayerEntity, next: RelayerChanges): PatchableField[] {
  const differs: Record<PatchableField, boolean> = {
    custom_rpc_urls: stringifyJson(next.customRpcUrls) !== stringifyJson(current.customRpcUrls),
    name: next.name !== current.name,
    notification_id: next.notificationId !== current.notificationId,
    paused: next.paused !== current.paused,
    policies: stringifyJson(next.policies) !== stringifyJson(current.policies),
  };
  return PATCHABLE_FIELDS.filter((field) => differs[field]);
}

@Injectable()
export class RelayersService {
  constructor(
    private readonly relayers: RelayersRepository,
    private readonly notifications: NotificationsService,
    private readonly catalogue: Catalogue,
    private readonly signers: SignersService,
    private readonly transactions: Transactions,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * Every check that needs no database runs first and all their problems are answered in one 400
   * (the DTO's, the policy rules, the URL policy, the catalogue); then the checks against stored data.
   */
  async create(
    input: Checked<CreateRelayerDto>,
    options: { dryRun?: boolean } = {},
  ): Promise<Tagged<RelayerResponse>> {
    const { value: dto, invalid } = input;
    const problems = [...input.problems];
    const type = invalid.has('network_type') ? null : dto.network_type;
    const policies =
      type !== null && !invalid.has('policies')
        ? this.checkPolicies(type, dto.policies ?? null, problems)
        : null;
    const rpcUrls = this.checkRpcUrls(this.checkableRpcUrls(input, 'custom_rpc_urls'), [], problems);
    if (type !== null && !invalid.has('network') && !this.catalogue.findNetwork(type, dto.network)) {
      problems.push(`Network '${dto.network}' not found for network type '${type}'`);
    }
    let address: string | null = null;
    if (!invalid.has('signer_id')) {
      const signer = await this.signers.addressFor(dto.signer_id, type ?? 'evm');
      if (signer.kind === 'unknown') problems.push(signerNotFound(dto.signer_id));
      else if (type !== null && signer.kind === 'unsuitable') {
        problems.push(`Signer with ID ${dto.signer_id} has no key for network type '${type}'`);
      } else if (signer.kind === 'found') address = signer.address;
    }
    if (problems.length > 0 || type === null || address === null) throw new ValidationError(problems);

    const id = dto.id ?? randomUUID();
    if (dto.notification_id != null) await this.assertNotificationExists(dto.notification_id);
    // A taken id or a signer already on this network is not looked up first: the insert's unique
    // keys refuse it, and the rule it broke is read then (two queries fewer on every create).

    const now = new Date();
    const entity = Object.assign(new RelayerEntity(), {
      id,
      name: dto.name,
      network: dto.network,
      networkType: type,
      address,
      signerId: dto.signer_id,
      notificationId: dto.notification_id ?? null,
      paused: dto.paused,
      systemDisabled: false,
      disabledReason: null,
      customRpcUrls: rpcUrls,
      policies,
      version: 1,
      createdAt: now,
      updatedAt: now,
    });
    const created = toTaggedRelayer(entity);
    // A dry run inserts too (the database's own rules answer as they would), then rolls back.
    const refused = await this.transactions.run(
      async (tx) => {
        // A signer deleted since it was read above: the same answer as if it had never been.
        if (!(await this.signers.holdForUse(tx.manager, dto.signer_id))) {
          throw new ValidationError(signerNotFound(dto.signer_id));
        }
        const refusal = await this.relayers.insert(tx.manager, entity);
        if (refusal === 'missing_notification') throw notificationNotFound(String(dto.notification_id));
        // Which rule it broke is read after the transaction: reading through the pool while this
        // transaction holds a connection could wait forever once every connection does the same.
        if (refusal === 'duplicate') return true;
        await tx.recordChange({
          resource: 'relayer',
          id,
          operation: 'create',
          before: null,
          after: created.data,
          event: [RELAYER_EVENTS.created, { relayer: created.data } satisfies RelayerEvent],
        });
        return false;
      },
      { rollback: options.dryRun },
    );
    if (refused) {
      // The id is taken or the signer is on this network already (perhaps by a racing request that
      // has since gone again): say which rule it broke.
      if (await this.relayers.existsById(id)) throw duplicateRelayer();
      await this.assertSignerFreeOnNetwork(type, dto.network, dto.signer_id);
      throw new ServiceUnavailableError('Service Unavailable: a concurrent change conflicted, retry');
    }
    return created;
  }

  /**
   * JSON merge patch, validated as a whole after merging, written only if the relayer did not
   * change since it was read; otherwise read, merge and validate again (optimistic locking).
   * Order (docs/reference/relayers.md#2-update): body shape, then existence, then the rest; a body with shape problems
   * names the problems of the merge too when the relayer exists. `If-Match` (docs/reference/safe-writes.md) is
   * checked against each read, and the write applies only to the version read: a write in
   * between makes the next read a 412.
   */
  async update(
    id: string,
    input: Checked<UpdateRelayerDto>,
    options: { ifMatch?: IfMatch | null; dryRun?: boolean } = {},
  ): Promise<Tagged<RelayerResponse>> {
    const dto = input.value;
    if (input.problems.length > 0) {
      const current = await this.relayers.findById(id);
      const problems = [...input.problems];
      if (current) this.merge(current, input, problems);
      throw new ValidationError(problems);
    }
    for (let attempt = 0; attempt < MAX_UPDATE_ATTEMPTS; attempt++) {
      const current = await this.relayers.findById(id);
      if (!current) throw relayerNotFound(id);
      options.ifMatch?.assertMatches(entityTag(current.version, current.createdAt));
      if (attempt === 0 && dto.notification_id != null) {
        await this.assertNotificationExists(dto.notification_id);
      }
      const problems: string[] = [];
      const changes = this.merge(current, input, problems);
      if (problems.length > 0) throw new ValidationError(problems);
      if (changes === null) return toTaggedRelayer(current);
      const updated = toTaggedRelayer({ ...current, ...changes, version: current.version + 1 });
      const outcome = await this.transactions.run(
        async (tx) => {
          const written = await this.relayers.updateIfVersion(tx.manager, id, current.version, changes);
          if (written === 'written') {
            const changed = changedFields(current, changes);
            await tx.recordChange({
              resource: 'relayer',
              id,
              operation: 'update',
              before: toRelayerResponse(current),
              after: updated.data,
              event: [
                RELAYER_EVENTS.updated,
                { relayer: updated.data, changed } satisfies RelayerUpdatedEvent,
              ],
            });
          }
          return written;
        },
        { rollback: options.dryRun },
      );
      if (outcome === 'missing_notification') throw notificationNotFound(String(dto.notification_id));
      if (outcome === 'written') return updated;
      await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(50, 2 * attempt)));
    }
    throw new ServiceUnavailableError('Service Unavailable: the relayer is being changed too often, retry');
  }

  /** The stored relayer (unmasked URLs: for the health checks, which call them), or null. */
  findEntity(id: string, tx?: Tx): Promise<RelayerEntity | null> {
    return this.relayers.findById(id, tx?.manager);
  }

  /**
   * Applies a health check's verdict in the caller's transaction (docs/reference/relayer-health.md#1-the-checks): writes
   * system_disabled and disabled_reason when they change and publishes relayer.state_changed
   * when the relayer is disabled or re-enabled. 'stale' when a PATCH wrote it since it was read
   * (read again and retry), so neither overwrites the other. 'outdated' when the relayer no
   * longer has what the check probed (docs/reference/hardening.md): the verdict is about something that is no
   * longer there and changes nothing. `probed` is asked about the very row whose version the
   * write is conditional on, so no change can slip between the comparison and the write.
   */
  async applyHealthVerdict(
    tx: Tx,
    id: string,
    verdict: {
      disabledReason: DisabledReason | null;
      failuresBefore: number;
      probed: (relayer: RelayerEntity) => boolean;
    },
  ): Promise<'applied' | 'stale' | 'missing' | 'outdated'> {
    const relayer = await this.relayers.findById(id, tx.manager);
    if (!relayer) return 'missing';
    if (!verdict.probed(relayer)) return 'outdated';
    const disabled = verdict.disabledReason !== null;
    if (
      relayer.systemDisabled === disabled &&
      JSON.stringify(relayer.disabledReason) === JSON.stringify(verdict.disabledReason)
    ) {
      return 'applied';
    }
    const state = { systemDisabled: disabled, disabledReason: verdict.disabledReason, updatedAt: new Date() };
    if (!(await this.relayers.setSystemStateIfVersion(tx.manager, id, relayer.version, state)))
      return 'stale';
    if (relayer.systemDisabled !== disabled) {
      await tx.publish(RELAYER_EVENTS.stateChanged, {
        relayer: toRelayerResponse({ ...relayer, ...state, version: relayer.version + 1 }),
        state: disabled ? 'disabled' : 'enabled',
        ...(verdict.disabledReason
          ? { disableReason: verdict.disabledReason.details }
          : { retryCount: verdict.failuresBefore }),
      } satisfies RelayerStateChangedEvent);
    }
    return 'applied';
  }

  async get(id: string): Promise<RelayerResponse> {
    return (await this.getTagged(id)).data;
  }

  /** The relayer with its entity tag (docs/reference/safe-writes.md). */
  async getTagged(id: string): Promise<Tagged<RelayerResponse>> {
    const entity = await this.relayers.findById(id);
    if (!entity) throw relayerNotFound(id);
    return toTaggedRelayer(entity);
  }

  async list(query: PageQueryDto): Promise<Page<RelayerResponse>> {
    const { items, total } = await this.relayers.findPage(query.offset, query.per_page);
    return new Page(items.map(toRelayerResponse), query, total);
  }

  /** With `If-Match`, only the version it matched is deleted: a write since the read makes it a 412. */
  async remove(id: string, options: { ifMatch?: IfMatch | null } = {}): Promise<string> {
    const { ifMatch } = options;
    await this.transactions.run(async (tx) => {
      // Read in the transaction: the event carries the relayer's last state.
      const last = await this.relayers.findById(id, tx.manager);
      if (!last) throw relayerNotFound(id);
      ifMatch?.assertMatches(entityTag(last.version, last.createdAt));
      if (!(await this.relayers.deleteById(tx.manager, id, ifMatch ? last.version : undefined))) {
        throw ifMatch ? new PreconditionFailedError() : relayerNotFound(id);
      }
      const before = toRelayerResponse(last);
      await tx.recordChange({
        resource: 'relayer',
        id,
        operation: 'delete',
        before,
        after: null,
        event: [RELAYER_EVENTS.deleted, { relayer: before } satisfies RelayerEvent],
      });
    });
    return 'Relayer deleted successfully';
  }

  /**
   * The changes the patch makes to the relayer (null when it changes nothing); every problem of
   * the merged result goes to `problems`. Fields in `invalid` failed the DTO and are left alone.
   */
  private merge(
    current: RelayerEntity,
    input: Checked<UpdateRelayerDto>,
    problems: string[],
  ): RelayerChanges | null {
    const { value: dto, invalid } = input;
    const given = <K extends keyof UpdateRelayerDto>(key: K): boolean =>
      dto[key] !== undefined && !invalid.has(key);
    const next: RelayerChanges = {
      name: given('name') ? (dto.name as string) : current.name,
      paused: given('paused') ? (dto.paused as boolean) : current.paused,
      notificationId: given('notification_id') ? (dto.notification_id ?? null) : current.notificationId,
      customRpcUrls:
        dto.custom_rpc_urls !== undefined
          ? this.checkRpcUrls(
              this.checkableRpcUrls(input, 'custom_rpc_urls'),
              current.customRpcUrls ?? [],
              problems,
            )
          : current.customRpcUrls,
      policies: given('policies')
        ? this.checkPolicies(current.networkType, mergePolicies(current.policies, dto.policies), problems)
        : current.policies,
      updatedAt: new Date(),
    };
    return changedFields(current, next).length > 0 ? next : null;
  }

  /**
   * The RPC URL entries the URL policy can judge: every entry of a list that passed the DTO, and
   * of one that did not, those whose `url` has no problem of its own yet (so that a bad weight
   * does not hide a bad URL; the others are null). Null when the list is absent, null, or not a list.
   */
  private checkableRpcUrls(
    input: Checked<{ custom_rpc_urls?: RpcConfigDto[] | null }>,
    field: string,
  ): Array<RpcConfigDto | null> | null {
    const list = input.value.custom_rpc_urls;
    if (!Array.isArray(list)) return null;
    if (!input.invalid.has(field)) return list;
    if (list.length > MAX_RPC_URLS) return null;
    return list.map((rpc, i) =>
      typeof rpc === 'object' &&
      rpc !== null &&
      typeof rpc.url === 'string' &&
      !input.problems.some((line) => line.startsWith(`${field}[${i}].url `))
        ? rpc
        : null,
    );
  }

  /** A whole policy object for the network type, normalised; Solana always carries its default. */
  private checkPolicies(type: NetworkType, raw: unknown, problems: string[]): Policies | null {
    if (raw === null && type !== 'solana') return null;
    const result = validatePolicies(type, raw ?? {});
    if (result.ok) return result.policies;
    problems.push(...result.errors);
    return null;
  }

  private checkRpcUrls(
    given: ReadonlyArray<RpcConfigDto | null> | null,
    stored: readonly StoredRpcUrl[],
    problems: string[],
  ): StoredRpcUrl[] | null {
    if (given === null) return null;
    return resolveRpcUrlList(given, stored, this.config.rpcUrlPolicy, 'custom_rpc_urls', problems);
  }

  private async assertNotificationExists(notificationId: string): Promise<void> {
    if (!(await this.notifications.exists(notificationId))) throw notificationNotFound(notificationId);
  }

  private async assertSignerFreeOnNetwork(
    type: NetworkType,
    network: string,
    signerId: string,
  ): Promise<void> {
    const user = await this.relayers.findIdBySignerOnNetwork(type, network, signerId);
    if (user !== null) {
      throw new ValidationError(
        `Signer with ID ${signerId} is already used by relayer ${user} on ${type} network '${network}'`,
      );
    }
  }
}
